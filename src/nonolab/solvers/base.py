"""The contract every backend implements: ``Solver.solve(puzzle, limits) -> SolveResult``.

A backend translates the puzzle into its own terms, searches, and maps what it found
onto the fixed vocabulary here.  It never reports a solution it has not checked:
:func:`checked_solutions` is the one gate every solution passes through.

This module holds the gates every ``solve`` passes: :func:`accept` at its start,
:func:`finish` (or :func:`collect`) and :func:`checked_solutions` at its end.  The
vocabulary lives in modules of its own and is named here, where backends look:
:mod:`~nonolab.solvers.result` (``Status``, ``Limits``, ``Stats``, ``SolveResult``, ``require_time_limit``),
:mod:`~nonolab.solvers.given` (``Given``), :mod:`~nonolab.solvers.budget` (``Budget``,
``left``, ``available_cores``), :mod:`~nonolab.solvers.capability` (``Capability``).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Protocol

from nonolab.core.grid import Grid, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument, LimitReached, NonolabError, Unsupported, WrongAnswer
from nonolab.solvers.size import bytes_per_cell   # (its home; named here, where backends look)
# What a backend declares, what it answers, what a caller imposes and what a call may spend
# live in modules of their own; the contract names them here as ever.
from nonolab.solvers.budget import Budget, available_cores, left
from nonolab.solvers.capability import Capability, capabilities
from nonolab.solvers.given import Cell, Given, Implication
from nonolab.solvers.result import (NOT_ASKED, Limits, SolveResult, Stats, Status, Verdict, require_count,
                                    require_time_limit, search_outcome, verdict_of)

__all__ = ["Budget", "CHECKED_PAST_A_LIMIT", "Capability", "Cell", "Given", "Implication", "Limits", "SolveResult", "Solver", "Stats",
           "Status", "accept", "available_cores", "backends_with", "bytes_per_cell", "capabilities",
           "checked_solutions", "collect", "finish", "left", "needs", "one_by_one", "require_count",
           "require_time_limit", "NOT_ASKED", "Verdict", "search_outcome", "verdict_of"]


class Solver(Protocol):
    """A backend.  ``name`` is its registry key; ``CAPABILITIES`` what it can do beyond
    this (see :class:`Capability`); ``OPTIONS`` its user options."""

    name: str

    @property  # read only: declared by the class, and an instance may narrow it (cnf with Kissat)
    def CAPABILITIES(self) -> frozenset[Capability]: ...

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: "Given | None" = None) -> SolveResult: ...


#: The registry's ``backends_with(capability) -> [names]``, set by :mod:`nonolab.solvers`
#: when it loads (always before any backend: they live inside it), so that :func:`accept`
#: can name the backends that take what another refuses without importing the registry.
backends_with: Callable[[Capability], list[str]] | None = None


def needs(puzzle: Puzzle) -> frozenset[Capability]:
    """What a backend must declare to take ``puzzle`` (colour, givens): :func:`accept` refuses it without."""
    colour = {Capability.COLOUR} if puzzle.is_colour else set()
    return frozenset(colour | ({Capability.GIVEN_CELLS} if puzzle.givens else set()))


def accept(backend: Any, puzzle: Puzzle, given: "Given | None") -> Given:
    """The checked given a backend searches under: the caller's (an empty one for
    ``None``) with the puzzle's own givens added (:meth:`Given.within`).

    Raises:
        TooLarge: the puzzle's cells times the memory ``backend`` declares a cell
            (:func:`bytes_per_cell`) exceed the memory budget (``NONOLAB_MAX_MEMORY``).
        Unsupported: the puzzle needs a capability ``backend`` does not declare
            (:func:`needs`: :attr:`Capability.COLOUR`, :attr:`Capability.GIVEN_CELLS`).
        InvalidArgument: the given does not fit the puzzle,
            contradicts its givens, or asks for a capability ``backend`` does not declare.
    """
    declared = capabilities(backend)
    cost = bytes_per_cell(backend, puzzle)
    if cost:   # the backend's declared memory a cell, against the one budget, before it allocates
        from nonolab.formats.limits import check_memory
        check_memory(f"backend {backend.name!r}", puzzle.width, puzzle.height, cost)
    missing = needs(puzzle) - declared
    for needed, what in ((Capability.COLOUR, "colour puzzles"), (Capability.GIVEN_CELLS, "puzzles with givens")):
        if needed in missing:
            takers = backends_with(needed) if backends_with is not None else []
            doing = ("solves black-and-white puzzles only" if needed is Capability.COLOUR
                     else "does not take given cells")
            raise Unsupported(f"backend {backend.name!r} {doing}; {what} need one of: "
                                  f"{', '.join(takers) or 'none installed'}")
    if given is None:
        return Given().within(puzzle)
    if not isinstance(given, Given):
        raise InvalidArgument(f"backend {backend.name!r}: given must be a Given, not {type(given).__name__}")
    given.refuse_beyond(backend.name, declared)
    return given.check(puzzle).within(puzzle)


#: Solutions checked after a deadline has passed, at most: the first ones found, so that a
#: search stopped at its last moment keeps its answer and the witness that it is not unique.
#: Any other check is inside the time limit (audit 9: a count checked 39,567 solutions after it).
CHECKED_PAST_A_LIMIT = 2


def checked_solutions(puzzle: Puzzle, solutions: Iterable[Solution], backend: str,
                      watch: "Budget | None" = None) -> tuple[Solution, ...]:
    """Verify and deduplicate solutions, keeping their order; raise on any wrong one.

    With ``watch``, checking is part of the search's time: once ``watch`` has expired, no
    solution is checked beyond the first :data:`CHECKED_PAST_A_LIMIT`, and those left
    unchecked are left out (:func:`finish` then reports the search as stopped early).
    """
    seen: dict[Solution, None] = {}
    for sol in solutions:
        if sol in seen:      # (one check a picture)
            continue
        if watch is not None and len(seen) >= CHECKED_PAST_A_LIMIT and watch.expired():
            break
        problems = violations(puzzle, sol)
        if problems:
            raise WrongAnswer(f"backend {backend!r} returned a wrong solution: {problems[0]}")
        seen[sol] = None
    return tuple(seen)


def finish(backend: str, puzzle: Puzzle, limits: Limits, watch: "Budget", found: Iterable[Solution],
           exhausted: bool, counters: dict[str, Any] | None = None, steps: Iterable[Any] = (),
           remainder: Grid | Callable[[], Grid] | None = None, checked: bool = False,
           total: int | None = None) -> SolveResult:
    """The one place a search's outcome becomes a :class:`SolveResult`.

    Every solution is checked (:func:`checked_solutions`) within ``watch``'s time (the
    ones its deadline leaves unchecked are dropped, and the search counts as stopped
    early), unless ``checked`` says the backend already passed each one through it as it
    was found (to keep the cost of checking inside its clock); the status follows from what
    the search says of itself: ``exhausted`` (the whole space was searched: SOLVED or
    UNSAT, and the count is exact), else ``limits.max_solutions`` reached (SOLVED), else
    it stopped early (INTERRUPTED when the cancel was set, TIMEOUT otherwise).  The
    remainder is kept only for a search that did not exhaust its space.  Under
    ``limits.keep`` the result lists the first ``keep`` solutions and counts the rest
    (``total``: how many distinct solutions the search found and checked, when it passes
    fewer than that, as :func:`collect` does; else as many as it passes).

    >>> switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> both = [Solution.from_rows(["#.", ".#"]), Solution.from_rows([".#", "#."])]
    >>> r = finish("demo", switch, Limits(None, keep=1), Budget(None), both, True)
    >>> r.count, len(r.solutions), r.total, r.complete
    (2, 1, 2, True)

    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> r = finish("demo", p, Limits(), Budget(None), [Solution.from_rows(["#"])], True)
    >>> r.status.value, r.count, r.complete
    ('solved', 1, True)
    >>> finish("demo", p, Limits(), Budget(None), [], False).status.value
    'timeout'
    """
    if checked:
        solutions = tuple(dict.fromkeys(found))
    else:
        found = tuple(dict.fromkeys(found))
        solutions = checked_solutions(puzzle, found, backend, watch)
        if len(solutions) < len(found):   # the limit came first: what was left unchecked is not claimed,
            exhausted, remainder = False, None   # nor a complete count, nor a remainder those left out break
    total = len(solutions) if total is None else max(total, len(solutions))
    if limits.keep is not None:
        solutions = solutions[:limits.keep]
    if exhausted:
        status = Status.SOLVED if total else Status.UNSAT
    elif limits.max_solutions is not None and total >= limits.max_solutions:
        status = Status.SOLVED
    else:
        status = watch.stopped_status()
    return SolveResult(status, solutions, exhausted, Stats(backend, watch.elapsed(), dict(counters or {})),
                       tuple(steps), None if exhausted else remainder,  # type: ignore[arg-type]  # built on first read
                       total if total > len(solutions) else None)


def collect(backend: str, puzzle: Puzzle, limits: Limits, watch: Budget,
            pictures: Iterator[Solution], counters: dict[str, Any]) -> SolveResult:
    """The result of a search that yields its solutions one at a time (the generic count).

    Takes solutions from ``pictures`` until it is exhausted (the count is exact),
    ``limits.max_solutions`` is reached, or it raises :class:`LimitReached` (its deadline
    passed: TIMEOUT, or its cancel was set: INTERRUPTED, with the solutions found so far).
    The iterator is closed in every case, so a generator can record its counters in ``finally``.
    Each solution is checked as it comes; under ``limits.keep`` only the first ``keep`` are
    held (a count holds no more grids however many it finds), so ``pictures`` must yield each
    solution once, as a search that is one to one with the solutions does (backtrack's row
    fillings, dlx's exact covers): a repeat among the kept ones is still dropped, one past
    them would be counted twice (the differential wall counts each against brute force).

    >>> from nonolab.core.puzzle import Puzzle
    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> r = collect("demo", p, Limits(), Budget(None), iter([Solution.from_rows(["#"])]), {})
    >>> r.status.value, r.count, r.complete, r.stats.counters
    ('solved', 1, True, {'solutions': 1})
    """
    found: dict[Solution, None] = {}   # the solutions held: all, or the first limits.keep
    total = 0                           # the solutions found and checked
    keep = limits.keep
    finished = False
    try:
        for picture in pictures:   # each checked as it comes, inside the search's clock
            if picture in found:
                continue
            if total >= CHECKED_PAST_A_LIMIT and watch.expired():
                break
            checked_solutions(puzzle, (picture,), backend)   # raises WrongAnswer on a wrong one
            total += 1
            if keep is None or len(found) < keep:
                found[picture] = None
            if limits.max_solutions is not None and total >= limits.max_solutions:
                break
        else:
            finished = True
    except LimitReached:
        pass
    finally:
        close = getattr(pictures, "close", None)
        if close is not None:
            close()
    counters["solutions"] = total
    return finish(backend, puzzle, limits, watch, found, finished, counters, checked=True, total=total)


def one_by_one(solve: Callable[[Puzzle, Limits], SolveResult], puzzles: Iterable[Puzzle],
               limits: Limits) -> Iterator[Any]:
    """Each puzzle through ``solve``, in order, the library error that stopped it in its
    place: ``solve_many``'s answers (``Capability.BATCH``) without a batch entry.

    >>> [type(a).__name__ for a in one_by_one(lambda p, l: p.rows, [Puzzle(rows=((1,),), columns=((1,),))], Limits())]
    ['tuple']
    """
    for puzzle in puzzles:
        try:
            yield solve(puzzle, limits)
        except NonolabError as err:
            yield err
