"""Many puzzles through the native engine with microseconds, not milliseconds, between them.

:meth:`NativeSolver.solve_many` (``Capability.BATCH``): puzzles are taken from the
iterator in groups, packed as arrays and answered by the compiled core's batch entry
(``compiled/batch.cpp``), one engine per puzzle with the solver's probing, and no Python
between puzzles.  Every solution still goes through :func:`~nonolab.solvers.base.finish`
(checked against the clues).  A puzzle the batch entry does not finish within the
solver's ``batch_slice`` seconds, a colour puzzle or one with givens, or a solver configured
beyond the batch entry (another line strategy or engine, a node limit, a step log,
callbacks) is answered by ``rest`` (by default
:meth:`~nonolab.solvers.native.NativeSolver.solve`), with the caller's limits: auto hands
it its own strategy.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Iterable, Iterator

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import NonolabError
from nonolab.solvers.base import Limits, SolveResult, Budget, finish
from nonolab.solvers.native.compiled.batch import ENOUGH, EXHAUSTED, available, check_arrays, pack
from nonolab.solvers.native.modes import Probing

__all__ = ["GROUP", "PUZZLE_SLICE", "solve_many"]

#: Puzzles packed into one group (the batch entry is called for a group at a time).
GROUP = 256
#: The longest a call into the batch entry runs past a Ctrl-C (give or take one puzzle's
#: ``batch_slice``, the seconds it has before it goes to ``rest``, which honours the time
#: limit and the cancel while it runs).
PUZZLE_SLICE = 0.05


def batch_applies(solver: Any) -> bool:
    """Whether ``solver``'s configuration is one the batch entry reproduces."""
    # The batch entry runs the dp line strategy with probing up to full, as the engine's solve does then.
    return (solver.line.name == "dp" and solver.probing is not Probing.DEPTH2 and available()
            and solver.node_limit is None and not solver.record_steps
            and solver.branching == "wu"  # (the engine's default)
            and solver.progress is None and solver.observer is None)


def solve_many(solver: Any, puzzles: Iterable[Puzzle], limits: Limits = Limits(),
               rest: Callable[[Puzzle, Limits], SolveResult] | None = None) -> Iterator[Any]:
    """Each puzzle's :class:`SolveResult`, in order, as ``solver.solve(puzzle, limits)`` would answer,
    or, in its place, the library error (:class:`~nonolab.errors.NonolabError`) that stopped it
    (a wrong solution, a puzzle beyond a limit): one puzzle's error does not end the others.
    ``rest(puzzle, limits)`` answers the puzzles the batch entry does not (default ``solver.solve``).

    ``limits.time_limit`` is per puzzle; once ``limits.cancel`` is set, every puzzle left
    is answered ``interrupted`` by the ordinary solve.
    """
    stream = iter(puzzles)
    rest = rest or solver.solve
    fast = batch_applies(solver) and limits.max_solutions is not None and 1 <= limits.max_solutions <= 100
    while True:
        group = list(islice(stream, GROUP))
        if not group:
            return
        if not fast or (limits.cancel is not None and limits.cancel.is_set()):
            yield from (_solved(rest, p, limits) for p in group)
            continue
        plain = [p for p in group if _plain(p)]
        answers = _answers(solver, plain, limits) if plain else None
        at = 0
        for puzzle in group:
            if not _plain(puzzle):
                yield _solved(rest, puzzle, limits)
                continue
            try:
                answer: Any = _result(solver, rest, puzzle, limits, answers, at)
            except NonolabError as err:   # a wrong solution caught by finish, a limit of the ordinary solve
                answer = err
            yield answer
            at += 1


def _solved(rest: Callable[[Puzzle, Limits], SolveResult], puzzle: Puzzle, limits: Limits) -> Any:
    try:
        return rest(puzzle, limits)
    except NonolabError as err:
        return err


def _plain(puzzle: Puzzle) -> bool:
    """Whether the batch entry takes the puzzle: black and white, no given cells."""
    return not puzzle.is_colour and not puzzle.givens


def _answers(solver: Any, puzzles: list[Puzzle], limits: Limits) -> Any:
    slice_ = solver.batch_slice if limits.time_limit is None else min(solver.batch_slice, limits.time_limit)
    assert limits.max_solutions is not None, "solve_many takes the batch entry only with a bound on the count"
    return check_arrays(*pack(puzzles), max_solutions=limits.max_solutions, probing=solver.probing.value,
                        puzzle_seconds=slice_, budget=PUZZLE_SLICE, cache_bytes=solver.cache_bytes)


def _result(solver: Any, rest: Callable[[Puzzle, Limits], SolveResult], puzzle: Puzzle, limits: Limits,
            answers: Any, i: int) -> SolveResult:
    state = int(answers.state[i])
    if state not in (EXHAUSTED, ENOUGH) or (limits.cancel is not None and limits.cancel.is_set()):
        return rest(puzzle, limits)  # not finished in its slice: the ordinary search, its own limits
    watch = Budget(None)
    watch.start -= float(answers.seconds[i])  # the engine's time on this puzzle (clocked by the batch entry)
    found = [Solution.from_states(row.tobytes(), puzzle.width) for row in answers.solutions(i)]
    return finish(solver.name, puzzle, limits, watch, found, state == EXHAUSTED, {"nodes": int(answers.nodes[i])})
