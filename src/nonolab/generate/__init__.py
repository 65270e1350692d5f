"""Seeded puzzle generation: pictures, clues, and puzzles that are proven unique.

The package face; each part is one module:

* :mod:`~nonolab.generate.grids`: seeded pictures (``random_grid``, ``smooth_grid``), in
  black and white or in up to ``MAX_COLOURS`` colours, and their clues
  (``clues_from_array``, ``puzzle_from_array``), on numpy arrays.
* :mod:`~nonolab.generate.image`: a picture from an image file, thresholded or with its
  colours quantised (needs pillow).
* :mod:`~nonolab.generate.criteria`: the acceptance test (unique, at most a grade).
* :mod:`~nonolab.generate.repair`: the filters and the repair flip.
* :mod:`~nonolab.generate.make`: the loop, :func:`make_puzzles`.
* :mod:`~nonolab.generate.output`: writing a generated set and its index.

>>> report = make_puzzles(3, Recipe(width=10, height=10, unique=True, max_grade="line"), seed=7)
>>> [g.grade for g in report.puzzles], report.complete
(['line', 'line', 'line'], True)
>>> print(report.puzzles[0].puzzle.goal is not None)
True
>>> colour = make_puzzles(1, Recipe(width=8, height=8, unique=True, colours=3), seed=7).puzzles[0].puzzle
>>> colour.is_colour, colour.palette.names
(True, ('white', 'black', 'red', 'green'))
"""

from nonolab.generate.criteria import MAX_GRADES, Criteria, Outcome, assess, undecided_cells
from nonolab.generate.grids import (MAX_COLOURS, clues_from_array, puzzle_from_array, random_grid, smooth_grid,
                                    taai_density)
from nonolab.generate.image import colour_picture_from_image, picture_from_image
from nonolab.generate.output import SetWriter
from nonolab.generate.make import (STYLES, GeneratedPuzzle, GenerateReport, Recipe, candidate_seed,
                                   make_puzzles, parse_size)

__all__ = ["MAX_COLOURS", "random_grid", "smooth_grid", "clues_from_array", "puzzle_from_array", "taai_density",
           "picture_from_image", "colour_picture_from_image", "MAX_GRADES", "Criteria", "Outcome", "assess", "undecided_cells",
           "STYLES", "Recipe", "GeneratedPuzzle", "GenerateReport", "candidate_seed", "make_puzzles",
           "parse_size", "SetWriter"]
