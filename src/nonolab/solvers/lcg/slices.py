"""lcg's search in slices: the clock, the cancel, the alarm and the conflict limit between them.

The engine runs in slices of at most ``slice_seconds`` (the GIL released inside);
between two, Python looks at the deadline and the cancel, checks each solution found
against the clues, and calls the alarm once its CPU time is up (what the call returns
is the next alarm, or ``None``).  A conflict limit
(``conflict_limit``, the one work budget of a solve) is held across the slices and
across every engine of the call: each slice may spend only what the engines together
have left (``Engine.run(seconds, conflicts)``), so a count that goes on after a
solution, or a schedule of several engines (``interleave``, ``rescue``), has N
conflicts in all, never N a run.  Spent, the search stops as at its deadline: the
solutions found are kept and nothing is claimed about the rest (``timeout``).

>>> conflicts_left(None, 10), conflicts_left(100, 40), conflicts_left(100, 100)
(0, 60, 0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Budget, Limits, checked_solutions
from nonolab.solvers.lcg.interleave import RUN_EXHAUSTED, RUN_SOLUTION
from nonolab.solvers.lcg.palette import EngineColours

__all__ = ["Slicing", "conflicts_left", "root_grid", "search"]


@dataclass(frozen=True)
class Slicing:
    """How one solve runs its engine: the options of :class:`~nonolab.solvers.lcg.LcgSolver` that
    are not the search's own (``slice_seconds``, ``alarm``, ``conflict_limit``) and its name."""

    name: str
    slice_seconds: float
    alarm: tuple[float, Any] | None = None
    conflict_limit: int | None = None


def conflicts_left(limit: int | None, spent: int) -> int:
    """What ``Engine.run``'s ``conflicts`` takes for the next slice: 0 for no limit (the
    engine's own "none"), else what is left of ``limit`` after ``spent`` (0 once spent up:
    the caller runs no slice then, since 0 would mean no limit)."""
    return 0 if limit is None else max(0, limit - spent)


def search(engine: Any, puzzle: Puzzle, held: EngineColours, limits: Limits, watch: Budget,
           found: list[Solution], slicing: Slicing) -> tuple[bool, int]:
    """Run ``engine`` (built from ``held.puzzle``; an engine or an
    :class:`~nonolab.solvers.lcg.interleave.Interleaved`) slice by slice into ``found``, each
    picture in ``puzzle``'s colours, until ``limits.max_solutions`` are found, the search is
    exhausted, or the deadline, the cancel or the conflict limit comes; returns (exhausted, slices)."""
    w, colour = puzzle.width, puzzle.is_colour
    slices = 0
    alarm = slicing.alarm
    limit = slicing.conflict_limit
    searched = time.thread_time()  # the engine runs in this thread (the GIL released)
    while limits.max_solutions is None or len(found) < limits.max_solutions:
        if watch.cancelled():
            break
        budget = slicing.slice_seconds
        if watch.deadline is not None:
            budget = min(budget, watch.deadline - time.perf_counter())
            if budget <= 0:
                break
        conflicts = conflicts_left(limit, engine.stats()["conflicts"] if limit is not None else 0)
        if limit is not None and conflicts <= 0:
            break   # the conflict limit is spent: stopped as by the clock
        slices += 1
        outcome = engine.run(budget, conflicts)
        if outcome == RUN_SOLUTION:
            # Verified as found, inside the time limit (not all at the end).
            picture = engine.solution().translate(held.back) if colour else engine.solution()
            found.extend(checked_solutions(puzzle, [Solution.from_bytes(picture, w, colours=colour)], slicing.name))
        elif outcome == RUN_EXHAUSTED:
            return True, slices
        if alarm is not None and time.thread_time() - searched >= alarm[0]:
            # Once; the call may set the next one, its seconds counted from the same start
            # (auto's count rival: the seeded draw at 0.3 s, or Kissat at 1 s, auto.solo).
            alarm = alarm[1](root_grid(engine, puzzle))
    return False, slices


# The engine's root bytes (0 empty, 1 filled, 2 open) as cell states.
_ROOT_STATES = bytes.maketrans(b"\x00\x01\x02", bytes([EMPTY, FILLED, UNKNOWN]))


def root_grid(engine: Any, puzzle: Puzzle) -> Grid:
    """What the engine's root level says of each cell (all open in colour)."""
    return Grid(puzzle.height, puzzle.width, engine.root().translate(_ROOT_STATES))
