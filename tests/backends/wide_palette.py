"""What the wide-palette tests of lcg and native share: a random picture on a palette wider than
the engine holds whose clues use a few colours, a backend's every answer, and brute force with
some cells fixed (over every value of the palette: it knows nothing of which colours are used)."""

from __future__ import annotations

import random

from nonolab.core import Palette, Puzzle, Solution
from nonolab.solvers import Limits, get
from nonolab.solvers.given import Given
from tests.colour import brute


def picture(h: int, w: int, seed: int, values: tuple[int, ...], palette: Palette) -> Puzzle:
    rng = random.Random(seed)
    cells = [[rng.choice((0,) + values) for _ in range(w)] for _ in range(h)]
    return Puzzle.from_solution(Solution.from_values(cells), palette=palette)


def answers(solver_name: str, puzzle: Puzzle, given: Given | None = None, **options):
    result = get(solver_name, **options).solve(puzzle, Limits(max_solutions=None), given)
    assert result.complete
    return result.status, set(result.solutions)


def brute_with(puzzle: Puzzle, cells: dict) -> set[Solution]:
    return {s for s in brute.solutions(puzzle) if all(s.cells[r][c] == v for (r, c), v in cells.items())}
