"""The model: puzzles, palettes, grids, solutions and the independent checker."""

from nonolab.core.cell import Cell
from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution
from nonolab.core.palette import Colour, Palette
from nonolab.core.puzzle import Blocks, Clue, Puzzle
from nonolab.core.statistics import statistics
from nonolab.core.violations import clues_of, colour_runs_of, violations

__all__ = ["EMPTY", "FILLED", "UNKNOWN", "Blocks", "Cell", "Clue", "Colour", "Grid", "Palette", "Puzzle", "Solution",
           "clues_of", "colour_runs_of", "statistics", "violations"]
