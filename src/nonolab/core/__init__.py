"""The model: puzzles, grids, solutions and the independent checker."""

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution
from nonolab.core.puzzle import Clue, Puzzle
from nonolab.core.statistics import statistics
from nonolab.core.violations import clues_of, violations

__all__ = ["EMPTY", "FILLED", "UNKNOWN", "Clue", "Grid", "Puzzle", "Solution", "clues_of", "statistics", "violations"]
