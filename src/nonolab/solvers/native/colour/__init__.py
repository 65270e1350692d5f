"""The native search on colour puzzles: the C++ colour engine driven in slices.

Each node propagates its domains with the complete colour line solver; the root is
probed as well, so that a puzzle solved without guessing is solved at the root and
``grade`` can tell line from probe from search as in black and white.  The search
branches on an open cell with the fewest values, the background first; an exhausted
search is an exact count (``engine.hpp`` beside this module says how).

With ``record_steps``, the cells each line solve, probe and guess decides, and the values
each rules out of the cells it leaves open, go into a log kept for the current search
path: up to the first solution, or the path where the search stopped.  Its steps are the
:class:`~nonolab.solvers.steps.Step` records of black and white, with colour indices as
values (0 the background) and the values ruled out (``Step.ruled_out``), read by :mod:`.log`.

>>> from nonolab.core import Palette, Solution
>>> p = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]), palette=Palette.default_for(2))
>>> solve_colour("native", p, Limits(None), Given.of({})).count
1
"""

from __future__ import annotations

import time
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument, TooLarge
from nonolab.solvers.base import Given, Limits, SolveResult, Budget, finish
from nonolab.solvers.native.checks import Checks
from nonolab.solvers.native.colour.log import read_steps
from nonolab.solvers.stopping import when_set
from nonolab.solvers.steps import Step

# The colours a cell's mask can hold (one bit per value, the background included).
MAX_COLOURS = 63
_PAUSED, _FOUND, _EXHAUSTED = 0, 1, 2
_SLICE = 0.02  # seconds between looks at the clock, the cancel and the node limit


def colour_engine(puzzle: Puzzle, given: Given, probing: int = 2, record_steps: bool = False) -> Any:
    """The C++ colour search of ``puzzle`` from its given cells (``probing`` at the root:
    0 none, 1 contradiction, 2 full).

    Raises:
        TooLarge: more colours than a cell's mask holds.
    """
    from nonolab.solvers.native.compiled import engine_module

    if puzzle.colours > MAX_COLOURS:
        raise TooLarge(f"native: {puzzle.colours} colours, at most {MAX_COLOURS}; use backend cpsat or cnf")
    w = puzzle.width
    fixed = [(r * w + c, int(value)) for (r, c), value in given.cells.items()]
    return engine_module().ColourEngine(puzzle.height, w, puzzle.coloured_rows, puzzle.coloured_columns,
                                        puzzle.colours + 1, fixed, probing, record_steps)


def solve_colour(name: str, puzzle: Puzzle, limits: Limits, given: Given, node_limit: int | None = None,
                 probing: int = 2, record_steps: bool = False) -> SolveResult:
    """The native search on a colour puzzle (``given`` already checked by ``accept``).

    ``probing``: 0 none, 1 contradiction, 2 full, at the root.
    """
    if given.implications:
        raise InvalidArgument(f"backend {name!r} takes no implications on colour puzzles")
    watch = Budget.of(limits)
    engine = colour_engine(puzzle, given, probing, record_steps)
    unsubscribe = when_set(limits.cancel, engine.interrupt)
    # Each solution is checked as it is found, and the search ends early enough for the
    # checks still to come (native/checks.py, as in black and white).
    checks = Checks(puzzle, name)
    found: list[Solution] = []
    steps: list[Step] | None = None
    exhausted = False
    try:
        while True:
            budget = -1 if node_limit is None else node_limit - engine.stats()[0]
            if budget == 0 and not engine.exhausted():
                break
            end = checks.search_end(watch, limits, len(found))
            seconds = _SLICE if end is None else max(0.0, min(_SLICE, end - time.perf_counter()))
            code = engine.run(seconds, budget)
            if code == _FOUND:
                checked, in_time = checks.check([engine.cells()], _picture(puzzle.width), watch)
                found += [solution for _, solution in checked]
                if not in_time:
                    break
                if record_steps and steps is None:
                    steps = read_steps(engine, puzzle.height, puzzle.width)
                if limits.max_solutions is not None and len(found) >= limits.max_solutions:
                    exhausted = engine.exhausted()
                    break
            elif code == _EXHAUSTED:
                exhausted = True
                break
            if watch.expired() or (end is not None and time.perf_counter() >= end):
                break
    finally:
        unsubscribe()
    if steps is None and record_steps:
        steps = read_steps(engine, puzzle.height, puzzle.width)
    nodes, line_solves, probes = engine.stats()
    counters: dict[str, Any] = {"nodes": nodes, "line_solves": line_solves, "probes": probes,
                                "colours": puzzle.colours}
    return finish(name, puzzle, limits, watch, found, exhausted, counters, tuple(steps or ()), checked=True)


def _picture(width: int) -> Any:
    """A colour engine's solution (a value a cell) as a :class:`Solution`."""
    return lambda cells: Solution.from_bytes(cells, width, colours=True)

