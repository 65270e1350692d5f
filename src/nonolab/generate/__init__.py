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

The package can be called: ``nonolab.generate(10, 10, unique=True)`` is :func:`generate`.
"""

import sys
import types

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
           "parse_size", "SetWriter", "generate"]


def generate(width: int, height: int, count: int = 1, seed: int = 0, time_limit: float | None = None,
             **recipe: object) -> GenerateReport:
    """``count`` seeded puzzles of ``width`` x ``height``, each with its picture as goal.

    The short way to :func:`make_puzzles`: ``recipe`` holds the fields of :class:`Recipe`
    (``unique=True``, ``max_grade="line"``, ``repair=True``, ``colours=3``,
    ``image="cat.png"``, ...).  ``nonolab.generate(...)`` calls it.

    >>> import nonolab
    >>> found = nonolab.generate(8, 8, unique=True, seed=3)
    >>> found.complete, found.puzzles[0].puzzle.size
    (True, (8, 8))

    Raises:
        InvalidArgument: a size, count, seed, limit or recipe field out of its range.
    """
    return make_puzzles(count, Recipe(width, height, **recipe), seed=seed,  # type: ignore[arg-type]
                        time_limit=time_limit)


class _CallablePackage(types.ModuleType):
    """``nonolab.generate`` is both this package and, called, :func:`generate`."""

    def __call__(self, *args: object, **kwargs: object) -> GenerateReport:
        return generate(*args, **kwargs)  # type: ignore[arg-type]


sys.modules[__name__].__class__ = _CallablePackage
