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
from nonolab.core.used_colours import EngineColours, engine_colours
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Given, Limits, SolveResult, Budget, finish
from nonolab.solvers.native.checks import Checks
from nonolab.solvers.native.colour.log import read_steps
from nonolab.solvers.stopping import when_set
from nonolab.solvers.steps import Step

# The foreground colours a cell's mask can hold (64 bits: the background and 63).  A larger
# palette whose clues use at most these is searched over the colours the clues use, renumbered
# (core.used_colours, as lcg does), and each picture and step read back in the puzzle's colours.
MAX_COLOURS = 63
_PAUSED, _FOUND, _EXHAUSTED = 0, 1, 2
_SLICE = 0.02  # seconds between looks at the clock, the cancel and the node limit


def held_colours(puzzle: Puzzle, given: Given) -> EngineColours:
    """The colours the engine searches ``puzzle`` in: its own when its palette fits, else those
    its clues use, renumbered (the engine's values -> the puzzle's: ``back``).

    Raises:
        TooLarge: the clues use more colours than a cell's mask holds.
    """
    return engine_colours(puzzle, given.cells.values(), MAX_COLOURS, "native")


def colour_engine(puzzle: Puzzle, given: Given, probing: int = 2, record_steps: bool = False,
                  held: EngineColours | None = None) -> Any:
    """The C++ colour search of ``puzzle`` from its given cells (``probing`` at the root:
    0 none, 1 contradiction, 2 full), over the colours ``held`` (:func:`held_colours`):
    its values are those of ``held.puzzle``.

    Raises:
        TooLarge: the clues use more colours than a cell's mask holds.
    """
    from nonolab.solvers.native.compiled import engine_module

    held = held or held_colours(puzzle, given)
    searched = held.puzzle
    return engine_module().ColourEngine(searched.height, searched.width, searched.coloured_rows,
                                        searched.coloured_columns, searched.colours + 1,
                                        held.fixed(given.cells, searched.width), probing, record_steps)


def solve_colour(name: str, puzzle: Puzzle, limits: Limits, given: Given, node_limit: int | None = None,
                 probing: int = 2, record_steps: bool = False) -> SolveResult:
    """The native search on a colour puzzle (``given`` already checked by ``accept``).

    ``probing``: 0 none, 1 contradiction, 2 full, at the root.
    """
    if given.implications:
        raise InvalidArgument(f"backend {name!r} takes no implications on colour puzzles")
    watch = Budget.of(limits)
    held = held_colours(puzzle, given)
    engine = colour_engine(puzzle, given, probing, record_steps, held)
    back = None if held.puzzle is puzzle else held.back   # (no table when the puzzle is searched as it is)
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
                checked, in_time = checks.check([engine.cells()], _picture(puzzle.width, back), watch)
                found += [solution for _, solution in checked]
                if not in_time:
                    break
                if record_steps and steps is None:
                    steps = read_steps(engine, puzzle.height, puzzle.width, back)
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
        steps = read_steps(engine, puzzle.height, puzzle.width, back)
    nodes, line_solves, probes = engine.stats()
    counters: dict[str, Any] = {"nodes": nodes, "line_solves": line_solves, "probes": probes,
                                "colours": puzzle.colours}
    return finish(name, puzzle, limits, watch, found, exhausted, counters, tuple(steps or ()), checked=True)


def _picture(width: int, back: bytes | None) -> Any:
    """A colour engine's solution (a value a cell) as a :class:`Solution` in the puzzle's colours."""
    if back is None:
        return lambda cells: Solution.from_bytes(cells, width, colours=True)
    return lambda cells: Solution.from_bytes(bytes(cells).translate(back), width, colours=True)

