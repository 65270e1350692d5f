"""The OR-tools CP-SAT backend: one Boolean per cell, one automaton per line.

Each line's clue becomes the DFA of ``0* 1^L1 0+ 1^L2 ... 0+ 1^Lk 0*`` (see
:func:`line_automaton` and ``models/automaton.md``) and is posted with
``add_automaton`` over the line's cells; presolve expands it into per-step tuple
literals, on which propagation is as strong as a complete line solver.  Solutions
are enumerated with a callback that deduplicates them and stops the search at
``limits.max_solutions``.

OR-tools is imported inside the functions that need it, never at module level, so
importing this module costs nothing (OR-tools alone takes about half a second).

Several workers and enumeration: OR-tools 9.15 documents that enumeration "can be
used with num_workers > 1" at the price of duplicates, but we measured otherwise.
With 2 to 8 workers its symmetry reasoning drops solutions and still answers OPTIMAL
(70 of the 120 permutation matrices of 5x5; 7 to 9 short counts in 200 random
puzzles up to 6x6), and complete enumerations often end FEASIBLE rather than
OPTIMAL, with symmetry on or off, so completeness cannot be read from the status.
Hence a count (``max_solutions`` other than 1) always runs on one worker, which was
exact in every run.  Finding one solution (``max_solutions=1``) is a plain solve on
all the workers: satisfiability survives symmetry breaking.  See
``models/automaton.md`` for the measurements.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = CpSatSolver().solve(p, Limits(max_solutions=None))
>>> result.status.value, result.count, result.complete
('solved', 2, True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument, LimitReached
from nonolab.solvers.base import (Capability, Given, Implication, Limits, SolveResult, Budget, accept,
                                  finish)
from nonolab.solvers.size import refuse_beyond
from nonolab.solvers.options import Option, max_states_option, settle

__all__ = ["CpSatSolver", "line_automaton"]

Transition = tuple[int, int, int]
"""``(state, label, next_state)``: reading the cell value ``label`` (0 or 1) in ``state``."""

Cell = tuple[int, int]

# The memory guard (see size.model_states): Gettys has 166,172 line states; a smooth
# 300x300 generated puzzle has 12.9 million and its model took 0.7 GB in 26 s, a
# 2000x2000 one (3.6 billion) took 4.8 GB before the search started.
MAX_STATES = 5_000_000
#: Search workers at most: each holds a copy of the model, and beyond a few per core none helps.
MAX_WORKERS = 256
#: OR-tools' integer parameters (cp_model_probing_level) are 32-bit: a larger value is a TypeError there.
_INT32_MAX = 2**31 - 1
# Seconds CP-SAT may run past its time limit (see the use).
_OVERRUN = 0.35


def line_automaton(clue: Sequence[int]) -> tuple[int, tuple[int, ...], tuple[Transition, ...]]:
    """The DFA accepting exactly the 0/1 lines whose runs of 1s are ``clue``.

    The states follow the pattern ``0 1^L1 0 1^L2 0 ... 1^Lk 0``: state 0 is the
    leading gap, each block cell has a state, and each block is followed by a gap
    state.  Gap states loop on 0; a block's last cell must be followed by a 0 and its
    other cells by a 1.  Accepting: the final gap and the last cell of the last block.
    Missing transitions reject.  There are ``sum(clue) + len(clue) + 1`` states.

    Returns:
        ``(start, accepting, transitions)``.

    >>> line_automaton((2,))
    (0, (3, 2), ((0, 0, 0), (0, 1, 1), (1, 1, 2), (2, 0, 3), (3, 0, 3)))
    >>> line_automaton(())
    (0, (0,), ((0, 0, 0),))
    """
    pattern = [0]                       # pattern[s] is the value that leads into state s
    for length in clue:
        pattern += [1] * length + [0]
    last = len(pattern) - 1
    transitions: list[Transition] = []
    for s, value in enumerate(pattern):
        nxt = pattern[s + 1] if s < last else None
        if value == 0:
            transitions.append((s, 0, s))           # a gap may grow
            if nxt == 1:
                transitions.append((s, 1, s + 1))   # start the next block
        elif nxt is not None:
            transitions.append((s, nxt, s + 1))     # continue the block, or close it
    accepting = (last, last - 1) if clue else (last,)
    return 0, accepting, tuple(transitions)


def _cp_model() -> Any:
    try:
        from ortools.sat.python import cp_model
    except ImportError as exc:
        raise BackendUnavailable(f"backend 'cpsat' needs OR-tools ({exc}); "
                                 "install it with: pip install ortools") from exc
    return cp_model


def _add_lines(model: Any, lines: Sequence[tuple[Sequence[Any], Any]], automaton: Callable[[Any], tuple],
               cells: Sequence[Any], width: int, fixed_cells: Mapping[Cell, int] | None, stop: Any) -> None:
    """One automaton per line (``automaton(clue)`` gives its start, accepting states and
    transitions), then the fixed cells; ``stop`` as for :func:`build_model`."""
    for line_cells, clue in lines:
        if stop is not None and stop():
            raise LimitReached("cpsat: stopped while building the model")
        if not clue:
            # An empty line is all background: fixing the cells is what presolve would
            # reach anyway, and it spares the expansion (a DFA without blocks and without
            # the gap self-loop would have no transition, which add_automaton rejects).
            for cell in line_cells:
                model.add(cell == 0)
            continue
        start, accepting, transitions = automaton(clue)
        model.add_automaton(line_cells, start, list(accepting), list(transitions))
    for (r, c), value in (fixed_cells or {}).items():
        model.add(cells[r * width + c] == value)


def build_model(puzzle: Puzzle, fixed_cells: Mapping[Cell, int] | None = None,
                stop: Any = None) -> tuple[Any, list[Any]]:
    """The CP-SAT model of ``puzzle`` and its cell variables, row-major.

    ``fixed_cells`` maps ``(row, column)`` (0-based) to the value the cell must take.
    ``stop`` (a function) is asked after each line; when it returns true the build
    ends with :class:`~nonolab.errors.LimitReached` (the clock covers model building).
    """
    cp_model = _cp_model()
    model = cp_model.CpModel()
    w = puzzle.width
    cells = [model.new_bool_var(f"x{r}_{c}") for r in range(puzzle.height) for c in range(w)]
    lines = [(cells[r * w:(r + 1) * w], clue) for r, clue in enumerate(puzzle.rows)]
    lines += [(cells[c::w], clue) for c, clue in enumerate(puzzle.columns)]
    _add_lines(model, lines, line_automaton, cells, w, fixed_cells, stop)
    return model, cells


def build_colour_model(puzzle: Puzzle, fixed_cells: Mapping[Cell, int] | None = None,
                       stop: Any = None, onehot: bool = False) -> tuple[Any, list[Any]]:
    """The CP-SAT model of a colour puzzle: one integer cell (0 background, 1..k colours)
    per cell, one automaton (:func:`~nonolab.solvers.colour.colour_automaton`) per line.

    With ``onehot`` every cell also gets one Boolean per value, tied to the integer by
    ``add_map_domain`` (exactly one is true), so the search branches on colour literals.
    """
    from nonolab.solvers.colour import colour_automaton

    cp_model = _cp_model()
    model = cp_model.CpModel()
    w, k = puzzle.width, puzzle.colours
    cells = [model.new_int_var(0, k, f"x{r}_{c}") for r in range(puzzle.height) for c in range(w)]
    if onehot:
        for i, cell in enumerate(cells):
            model.add_map_domain(cell, [model.new_bool_var(f"b{i}_{v}") for v in range(k + 1)])
    lines = [(cells[r * w:(r + 1) * w], blocks) for r, blocks in enumerate(puzzle.coloured_rows)]
    lines += [(cells[c::w], blocks) for c, blocks in enumerate(puzzle.coloured_columns)]
    _add_lines(model, lines, colour_automaton, cells, w, fixed_cells, stop)
    return model, cells


def _is_value(model: Any, var: Any, value: int) -> Any:
    """A Boolean literal true exactly when integer ``var`` equals ``value``."""
    literal = model.new_bool_var("")
    model.add(var == value).only_enforce_if(literal)
    model.add(var != value).only_enforce_if(literal.Not())
    return literal


def _add_implications(model: Any, cells: list[Any], width: int, implications: Sequence[Implication],
                      colour: bool = False) -> None:
    if colour:
        for (r, c, a), (q, d, b) in implications:
            model.add_implication(_is_value(model, cells[r * width + c], a),
                                  _is_value(model, cells[q * width + d], b))
        return
    for (r, c, a), (q, d, b) in implications:
        # "not (r,c)=a or (q,d)=b": each side a literal of the cell variable.
        first, second = cells[r * width + c], cells[q * width + d]
        model.add_bool_or([first.Not() if a else first, second if b else second.Not()])


@contextmanager
def _stop_on_cancel(solver: Any, cancel: Any) -> Iterator[None]:
    """While the body runs, a watcher stops the search once ``cancel`` is set."""
    if cancel is None:
        yield
        return
    finished = threading.Event()

    def watch() -> None:
        # Repeated: a stop that comes before the solver has started its search is lost.
        while not finished.is_set():
            if cancel.is_set():
                solver.stop_search()
            finished.wait(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        finished.set()
        watcher.join()


def _collector(cp_model: Any, cells: list[Any], max_solutions: int | None, colour: bool = False) -> Any:
    # The class is made here because its base lives in the lazily imported OR-tools.
    class Collector(cp_model.CpSolverSolutionCallback):
        """Keeps distinct solutions in order; stops the search at the limit.

        With several workers the same solution can be reported more than once, so
        solutions are deduplicated here, and only distinct ones count to the limit.
        """

        def __init__(self) -> None:
            super().__init__()
            self.seen: set[tuple[int, ...]] = set()
            self.found: list[tuple[int, ...]] = []
            self.reported = 0
            self.stopped = False

        def on_solution_callback(self) -> None:
            self.reported += 1
            if self.stopped:
                return      # another worker's report after the stop
            values = (tuple(int(self.value(v)) for v in cells) if colour
                      else tuple(int(self.boolean_value(v)) for v in cells))
            if values not in self.seen:
                self.seen.add(values)
                self.found.append(values)
            if max_solutions is not None and len(self.found) >= max_solutions:
                self.stopped = True
                self.stop_search()

    return Collector()


class CpSatSolver:
    """CP-SAT with one automaton per line; exact counting by enumeration; colour puzzles
    with integer cells (see :func:`build_colour_model`).

    Args:
        workers: search workers (``num_workers``) when looking for one solution.  A
            count (``max_solutions`` other than 1) always runs on one worker, as
            OR-tools 9.15 loses solutions when it enumerates in parallel (module notes).
        presolve: ``cp_model_presolve``; off is often faster on small puzzles.
        probing_level: ``cp_model_probing_level`` (``None``: OR-tools' default).
        linearization_level: ``linearization_level`` (``None``: OR-tools' default).
        log: print OR-tools' search log.
        max_states: refuse (``TooLarge``) a puzzle whose model has more line states
            (see :func:`~nonolab.solvers.size.model_states`); ``None``: no limit.
        colour_cells: a colour puzzle's cells as integers only (``int``) or with one
            Boolean per value as well (``onehot``); black and white ignores it.

    >>> CpSatSolver(workers=2).name
    'cpsat'
    """

    name = "cpsat"
    # REPRODUCIBLE: one worker searches deterministically (OR-tools' fixed random_seed;
    # its presolve limits are deterministic time, not the clock).
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.IMPLICATIONS,
                              Capability.HINT, Capability.COLOUR, Capability.REPRODUCIBLE})
    OPTIONS = (
        Option("workers", "int", 1, "search workers when looking for one solution (a count uses one)",
               minimum=1, maximum=MAX_WORKERS),
        Option("presolve", "bool", True, "OR-tools presolve (off is often faster on small puzzles)"),
        Option("probing_level", "int", None, "cp_model_probing_level (none: OR-tools' default)",
               minimum=0, maximum=_INT32_MAX, optional=True),
        Option("linearization_level", "int", None, "linearization_level (none: OR-tools' default)",
               minimum=0, maximum=2, optional=True),
        Option("log", "bool", False, "print OR-tools' search log"),
        max_states_option(MAX_STATES),
        Option("colour_cells", "choice", "int", "colour puzzles: integer cells, or one-hot Booleans too",
               choices=("int", "onehot")),
    )
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    workers: int
    presolve: bool
    probing_level: int | None
    linearization_level: int | None
    log: bool
    max_states: int | None
    colour_cells: str

    def __init__(self, **options: Any):
        settle(self, options)
        if self.workers > 1:
            # Which worker finds the one solution first depends on timing (a count still
            # runs on one worker, but the declaration covers every call).
            self.CAPABILITIES = CpSatSolver.CAPABILITIES - {Capability.REPRODUCIBLE}

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Search ``puzzle`` within ``limits``.

        ``given`` (see :class:`~nonolab.solvers.base.Given`): its cells are fixed in the
        model, its implications added as clauses, its hint passed to ``add_hint``.

        >>> from nonolab.core import Puzzle
        >>> from nonolab.solvers.base import Given
        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
        >>> r = CpSatSolver().solve(p, Limits(max_solutions=None), Given.of({(0, 0): 1}))
        >>> r.count, r.complete, str(r.solution)
        (1, True, '#.\\n.#')
        """
        watch = Budget.of(limits)
        given = accept(self, puzzle, given)
        refuse_beyond(self.name, puzzle, self.max_states)
        cp_model = _cp_model()
        colour = puzzle.is_colour
        try:
            if colour:
                model, cells = build_colour_model(puzzle, given.cells, watch.expired, self.colour_cells == "onehot")
            else:
                model, cells = build_model(puzzle, given.cells, watch.expired)
        except LimitReached:
            return finish(self.name, puzzle, limits, watch, (), False)
        _add_implications(model, cells, puzzle.width, given.implications, colour)
        if given.hint is not None:
            for var, value in zip(cells, given.hint.flat()):
                model.add_hint(var, value)

        enumerate_all = limits.max_solutions != 1
        workers = 1 if enumerate_all else self.workers
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = workers
        params.enumerate_all_solutions = enumerate_all
        params.cp_model_presolve = self.presolve
        params.log_search_progress = self.log
        # OR-tools would install its own SIGINT handler for the search (and abort the
        # process on a second one): the caller's cancel is how a search is stopped.
        params.catch_sigint_signal = False
        if self.probing_level is not None:
            params.cp_model_probing_level = self.probing_level
        if self.linearization_level is not None:
            params.linearization_level = self.linearization_level
        left = watch.left()
        if left is not None:
            # Model building used part of the budget; never pass 0 (it means "no time").
            # CP-SAT looks at its clock only between steps of presolve and search, and
            # ended 0.25-0.45 s past max_time_in_seconds on Gettys (measured, OR-tools
            # 9.15): that much is kept back, so that the whole call ends on time.
            params.max_time_in_seconds = max(left - min(_OVERRUN, left / 5), 1e-3)

        collector = _collector(cp_model, cells, limits.max_solutions, colour)
        with _stop_on_cancel(solver, limits.cancel):
            code = solver.solve(model, collector)
        if code == cp_model.MODEL_INVALID:   # the model or its parameters: said in one line, not a traceback
            raise InvalidArgument(f"backend 'cpsat': OR-tools rejected the model or its parameters "
                                  f"({model.validate() or 'no reason given'})")

        # Exact only when the solver finished the enumeration on its own: OPTIMAL
        # (enumeration done) or INFEASIBLE, and neither the callback nor a limit
        # stopped it.  Without enumeration OPTIMAL only means "found one".
        # (OPTIMAL with nothing collected would contradict itself: not trusted.)
        finished = (code == cp_model.INFEASIBLE
                    or (code == cp_model.OPTIMAL and enumerate_all and bool(collector.found))
                    ) and not collector.stopped
        if not enumerate_all and code in (cp_model.OPTIMAL, cp_model.FEASIBLE) and not collector.found:
            # A parallel solve may end before the callback has seen its solution.
            collector.found.append(tuple(int(solver.value(v)) if colour else int(solver.boolean_value(v))
                                         for v in cells))
        found = [Solution.from_bytes(bytes(v), puzzle.width, colours=True) if colour
                 else Solution.from_flat(v, puzzle.width) for v in collector.found]
        return finish(self.name, puzzle, limits, watch, found, finished, {
            "branches": solver.num_branches,
            "conflicts": solver.num_conflicts,
            "solver_wall_time": round(solver.wall_time, 6),
            "booleans": solver.num_booleans,
            "workers": workers,
            "workers_requested": self.workers,
            "presolve": self.presolve,
            "reported": collector.reported,
            "cp_status": solver.status_name(code),
        })
