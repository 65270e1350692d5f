"""A goal is written a byte a cell: ``solve -o big.non`` of a 10,000x10,000 grid held 7.6 GB while
writing (a Python string a cell), past the memory budget the solve itself kept to."""

from __future__ import annotations

import tracemalloc

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.formats import dumps, loads

SIDE = 600


def _puzzle(colours: int) -> Puzzle:
    # Large regions (few blocks a line): the goal, not the clues, is most of the text.
    values = bytes((r // 50 + c // 60) % (colours + 1) for r in range(SIDE) for c in range(SIDE))
    return Puzzle.from_solution(Solution.from_bytes(values, SIDE) if colours == 1
                                else Solution.from_values([list(values[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE)]))


@pytest.mark.parametrize("colours", [1, 3])
def test_the_goal_of_a_non_file_costs_a_few_bytes_a_cell(colours):
    puzzle = _puzzle(colours)
    dumps(puzzle, "non")            # the writer's modules imported first: the peak below is the write's alone
    tracemalloc.start()
    try:
        text = dumps(puzzle, "non")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6 * SIDE * SIDE, f"{peak / (SIDE * SIDE):.1f} bytes a cell"
    assert loads(text, "non").goal == puzzle.goal
