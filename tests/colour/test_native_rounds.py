"""The native colour engine propagates in rounds (every queued row, then every queued
column): a line is solved once a round, not once per changed cell.

Popping the last line queued instead solved each line of a banded picture about n/4
times (3,780 line solves for 120x120, 63,250 for 500x500: 21 s of CPU for 1 M cells);
the bound below is work, not time, so it holds on any machine.  That the rounds keep
every count exact is the colour differential tests' job (test_properties, test_probe_counts).
"""

from __future__ import annotations

import numpy as np

from nonolab.core import Puzzle, Solution
from nonolab.solvers.base import Given, Limits
from nonolab.solvers.native.colour import solve_colour


def _bands(n: int, band: int) -> Puzzle:
    """An n x n picture of three colours in bands `band` rows high, each row cut at
    ``n - r/2`` (unique, solved by line logic)."""
    r, c = np.arange(n)[:, None], np.arange(n)[None, :]
    picture = (((r // band) % 3 + 1) * (c < n - r // 2)).astype(np.uint8)
    return Puzzle.from_solution(Solution.from_bytes(picture.tobytes(), n, colours=True), f"bands-{n}")


def test_a_banded_picture_is_solved_in_a_few_rounds_of_line_solves():
    puzzle = _bands(120, 8)
    result = solve_colour("native", puzzle, Limits(2), Given.of({}))
    assert result.solution is not None and result.complete and len(result.solutions) == 1
    # Three rounds of 240 lines are enough (rows, columns, rows); the old order took 3,780.
    assert result.stats.counters["line_solves"] <= 4 * (puzzle.height + puzzle.width)

