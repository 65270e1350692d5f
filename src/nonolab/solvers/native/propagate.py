"""Line propagation to a fixpoint: sweep the dirty rows, then the dirty columns, repeat.

Round-based sweeps need about ten times fewer line solves than popping one line at a
time (measured in ../shared/docs/algorithms.md §1.8): a line is solved once per round
however many of its cells changed in the previous one.
"""

from __future__ import annotations

import time
from typing import Iterable

from nonolab.core.grid import FILLED
from nonolab.core.puzzle import Puzzle
from nonolab.errors import LimitReached
from nonolab.solvers.native.cache import LineCache
from nonolab.solvers.native.steps import Step, Technique


class Propagator:
    """Runs the (cached) line solver over a row-major ``bytearray`` of cell states.

    ``run`` narrows the cells in place and returns ``False`` on a contradiction (the
    cells are then partly updated and must be discarded).  It raises
    :class:`LimitReached` once ``deadline`` (a ``time.perf_counter`` value) passes.

    >>> from nonolab.core import Puzzle
    >>> p = Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))
    >>> prop = Propagator(p, LineCache())
    >>> cells = bytearray([3] * 4)
    >>> prop.run(cells, range(2), range(2)), list(cells)
    (True, [2, 2, 2, 1])
    """

    def __init__(self, puzzle: Puzzle, cache: LineCache, deadline: float | None = None):
        self.height = puzzle.height
        self.width = puzzle.width
        self.row_clues = puzzle.rows
        self.col_clues = puzzle.columns
        ids: dict[tuple[int, ...], int] = {}
        self.row_ids = [ids.setdefault(c, len(ids)) for c in puzzle.rows]
        self.col_ids = [ids.setdefault(c, len(ids)) for c in puzzle.columns]
        self.cache = cache
        self.deadline = deadline
        self.rounds = 0

    def run(self, cells: bytearray, rows: Iterable[int], cols: Iterable[int],
            log: list[Step] | None = None, depth: int = 0, touched: set[int] | None = None) -> bool:
        """Propagate from the dirty ``rows`` and ``cols``; False on a contradiction.

        ``log`` receives one :class:`Step` per line that changed; ``touched``, when
        given, receives the row-major index of every cell that changed.
        """
        w = self.width
        fix = self.cache.fix
        deadline = self.deadline
        dirty_rows = set(rows)
        dirty_cols = set(cols)
        while dirty_rows or dirty_cols:
            self.rounds += 1
            if deadline is not None and time.perf_counter() >= deadline:
                raise LimitReached("time limit reached during propagation")
            for r in sorted(dirty_rows):
                start = r * w
                line = cells[start:start + w]
                new = fix(self.row_ids[r], self.row_clues[r], line)
                if new is None:
                    return False
                if new != line:
                    cells[start:start + w] = new
                    changed = [c for c in range(w) if new[c] != line[c]]
                    dirty_cols.update(changed)
                    if touched is not None:
                        touched.update(start + c for c in changed)
                    if log is not None:
                        log.append(Step(Technique.LINE, ("row", r),
                                        tuple((r, c, int(new[c] == FILLED)) for c in changed), depth))
            dirty_rows.clear()
            for c in sorted(dirty_cols):
                line = cells[c::w]
                new = fix(self.col_ids[c], self.col_clues[c], line)
                if new is None:
                    return False
                if new != line:
                    cells[c::w] = new
                    changed = [r for r in range(len(new)) if new[r] != line[r]]
                    dirty_rows.update(changed)
                    if touched is not None:
                        touched.update(r * w + c for r in changed)
                    if log is not None:
                        log.append(Step(Technique.LINE, ("column", c),
                                        tuple((r, c, int(new[r] == FILLED)) for r in changed), depth))
            dirty_cols.clear()
        return True

    def run_cell(self, cells: bytearray, index: int, log: list[Step] | None = None, depth: int = 0) -> bool:
        """Propagate after one cell (row-major ``index``) was set."""
        r, c = divmod(index, self.width)
        return self.run(cells, (r,), (c,), log, depth)
