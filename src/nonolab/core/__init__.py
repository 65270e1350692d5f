"""The model: puzzles, grids, solutions and the independent checker."""

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution
from nonolab.core.puzzle import Clue, Puzzle
from nonolab.core.statistics import statistics
from nonolab.core.verify import clues_of, verify

__all__ = ["EMPTY", "FILLED", "UNKNOWN", "Clue", "Grid", "Puzzle", "Solution", "clues_of", "statistics", "verify"]
