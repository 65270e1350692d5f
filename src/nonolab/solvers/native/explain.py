"""Replaying the step log: the grid after each deduction."""

from __future__ import annotations

from typing import Iterable, Iterator

from nonolab.core.grid import EMPTY, FILLED, Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.steps import Step


def replay(puzzle: Puzzle, steps: Iterable[Step]) -> Iterator[tuple[Step, Grid]]:
    """Yield each step with the grid as it stands after it (the same Grid object, updated).

    A step only ever narrows unknown cells; replaying a log that sets a cell to two
    different values would mean a corrupt log, so it raises ``ValueError``.
    """
    grid = Grid(puzzle.height, puzzle.width)
    for step in steps:
        for r, c, value in step.cells:
            state = FILLED if value else EMPTY
            current = grid.get(r, c)
            if not current & state:
                raise ValueError(f"step log sets cell ({r}, {c}) twice to different values")
            grid.set(r, c, state)
        yield step, grid
