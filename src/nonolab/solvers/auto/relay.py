"""The solo path's rival in a count: another draw of the first engine until the first
engine has a solution, then the rival engine (Kissat) for the proof.

A count to two is a find, then a search for a second solution (the proof that there is
none, for a unique grid).  The find is lcg's strength and its tail is luck, which a
second draw of the search on the other core cuts (the first-solution rival,
``find_seed``); the proof of a unique grid such as 15-Dom is Kissat's.  So with
``count_relay`` the rival of a count joins after ``solo_budget`` (as Kissat did: joining
at ``solo_find_budget``, 0.3 s, cost Sierp and 12-Dom, which end before 1 s, 30-80 % more
CPU) as the first engine with ``find_seed``, counting; once the first engine has a solution (its
``found``, looked at between the seeded engine's slices), the seeded draw gives its core
to Kissat, which counts.  The seeded draw counts on past its own first solution: the
second solution of a grid of two was lcg's to find (Kissat, handed over after the
seeded draw's first solution, lost both of the two such tail puzzles tried,
benchmarks/log/2026-11-28-race-22.md).  When the first engine already has a solution at
the join, Kissat joins at once.

On by default (``-O count_relay=false``: Kissat after ``solo_budget``, as before): on all 15
tournament sets counted to two, a quiet machine, it leaves 9 puzzles over 2 s of wall time
instead of 19 and spends 284.1 CPU s instead of 336.6; the unique guard 15-Dom, which Kissat
proves, took 10.81 / 11.03 s wall (20.5 / 20.9 CPU s) against 11.05 / 10.61 (20.9 / 20.1)
without it, two alternating rounds (benchmarks/log/2026-11-28-lead-14.md).  On a loaded
machine (load 8-9) 15-Dom paid 1-2 CPU s for the seeded draw's second and Kissat's later
start (benchmarks/log/2026-11-28-race-22.md).

``relay_early`` (on; :mod:`.solo`) makes the seeded draw join after ``solo_find_budget``, as
in a find, while the first engine has no solution (with one in by then, Kissat joins after
``solo_budget``): on the tournament's slowest counts the second solution comes with lcg's
first, and what a count spent beyond a find was the later join (41 slowest: 104.3 -> 88.5
CPU s); but Sierp pays the seeded draw from 0.3 s to its end (+0.26 CPU s, as its find does)
and 15-Dom +0.5 CPU s (benchmarks/log/2026-11-28-count-22.md), in CPU, not wall time; on
by default: all 15 sets counted to two leave 6 over 2 s instead of 9
(benchmarks/log/2026-11-28-lead-15.md).

Exact as the solo path is: each stage searches the space the first engine's root cells
leave (every solution the engine had not found yet lies there), so an answer of either
(a complete count, or as many solutions as were asked for) is that space's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Budget, Given, Limits, SolveResult, left
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import STOPPED, Either

__all__ = ["Found", "relay"]


class Found:
    """A cancel that is set once ``found`` (a list another thread appends to) holds a
    solution: looked at between a search's slices.

    >>> found = []
    >>> flag = Found(found)
    >>> flag.is_set(), found.append("a"), flag.is_set()
    (False, None, True)
    """

    def __init__(self, found: list):
        self.found = found

    def is_set(self) -> bool:
        return bool(self.found)


def relay(parts: Parts, puzzle: Puzzle, root: Grid, given: Given, limits: Limits,
          first_found: list) -> tuple[SolveResult, dict[str, Any]]:
    """The count rival on the space ``root`` leaves: ``parts.find_rival`` counting to
    ``limits.max_solutions`` until the first engine has a solution (``first_found``), then
    ``parts.rival``.  Returns the answering stage's result (its
    counters with ``relay_*``: the seeded stage's conflicts and solutions) and what it was
    handed."""
    watch = Budget.of(limits)
    seeded: dict[str, Any] = {"relay_seeded_conflicts": 0, "relay_seeded_solutions": 0}
    if not first_found:
        cancel = Found(first_found) if limits.cancel is None else Either(limits.cancel, Found(first_found))
        got, cells = parts.hand_over(parts.find_rival or "", puzzle, root, given, replace(limits, cancel=cancel),
                                     parts.rival_fix_cells)
        seeded.update(relay_seeded_conflicts=got.stats.counters.get("conflicts", 0),
                      relay_seeded_solutions=len(got.solutions))
        if got.status not in STOPPED or watch.expired() or watch.cancelled():
            # An answer, or the race's stop or the deadline came: not the first engine's solution.
            return _noted(got, seeded, "seeded"), cells
    second, cells = parts.hand_over(parts.rival, puzzle, root, given, left(limits, watch, limits.cancel),
                                    parts.rival_fix_cells)
    return _noted(second, seeded, "proof"), cells


def _noted(result: SolveResult, seeded: dict[str, Any], stage: str) -> SolveResult:
    counters = {**result.stats.counters, **seeded, "relay_stage": stage}
    return result.relabelled(result.stats.backend, result.stats.wall_time, counters)
