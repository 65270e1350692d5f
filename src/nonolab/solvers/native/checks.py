"""How long before its deadline native's search ends (black and white, colour): the time
its wrap-up needs.

After its search a solve checks the solutions the last slice found (the engine's cells
into a :class:`~nonolab.core.grid.Solution`, then its clues against the puzzle's): that
grows with the cells, about 1.9-3.1e-8 s a cell a solution, measured at 4 and 25 M cells
(``benchmarks/log/2026-11-26-limits-5.md``); the rest of the wrap-up (the counters, the
result) does not.  So the search ends one check before the deadline for each solution
still wanted, at most two (a count checks as it goes, one solution at a time, and starts
no check it has no time for: see :meth:`Checks.check`).  A check is taken to cost
``CHECK_PER_CELL`` a cell until one is timed, then the longest timed.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Budget, Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> checks = Checks(p, "demo")
>>> checks.search_end(Budget(None), Limits(2), 0) is None
True
>>> budget = Budget(10.0, start=0.0)
>>> checks.search_end(budget, Limits(2), 0) == 10.0 - 2 * CHECK_PER_CELL * 4
True
>>> checks.search_end(budget, Limits(2), 2)     # nothing left to check
10.0
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Budget, Limits, checked_solutions

__all__ = ["CHECK_PER_CELL", "Checks"]

# One solution's check, a cell, before any is timed (measured: 1.9-3.1e-8 s at 4 and 25 M
# cells on the shared 2-core machine; rounded up for a slower one, which the first timed
# check then replaces).
CHECK_PER_CELL = 3e-8
# The solutions whose checks the reserve covers: what `check` asks for.  A count (or a
# larger max_solutions) checks past two one at a time while time is left (Checks.check).
_RESERVED = 2


class Checks:
    """The checks of one solve's solutions, timed, and the search end they leave."""

    def __init__(self, puzzle: Puzzle, backend: str):
        self.puzzle = puzzle
        self.backend = backend
        self.seconds = CHECK_PER_CELL * puzzle.width * puzzle.height   # one check, until timed
        self.timed = False

    def search_end(self, watch: Budget, limits: Limits, found: int) -> float | None:
        """When the search must stop for the checks still to come to end by the deadline
        (``found`` solutions checked so far; ``None`` without a deadline)."""
        if watch.deadline is None:
            return None
        wanted = _RESERVED if limits.max_solutions is None else max(0, limits.max_solutions - found)
        return watch.deadline - min(wanted, _RESERVED) * self.seconds

    def check(self, cells: Iterable[Any], picture: Callable[[Any], Solution],
              watch: Budget) -> tuple[list[tuple[Any, Solution]], bool]:
        """Each of ``cells`` (an engine's solutions) with its checked :class:`Solution`
        (``picture(cells)``), in order, and whether all were checked: a check that would end
        past the deadline is not started, so the solve ends on time and says ``timeout``
        with what it checked.

        Raises:
            WrongAnswer: a solution breaks the clues (a bug in the engine).
        """
        done: list[tuple[Any, Solution]] = []
        for state in cells:
            began = time.perf_counter()
            if watch.deadline is not None and began + self.seconds > watch.deadline:
                return done, False
            solution, = checked_solutions(self.puzzle, (picture(state),), self.backend)
            done.append((state, solution))
            spent = time.perf_counter() - began
            self.seconds = max(self.seconds, spent) if self.timed else spent
            self.timed = True
        return done, True
