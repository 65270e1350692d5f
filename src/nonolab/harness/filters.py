"""Filters on a picture, shared by the generator (``generate --repair`` flips cells inside
them) and the designer's report (too little white space).

>>> from nonolab.core import Solution
>>> filled_fraction(Solution.from_rows(["#.", ".."]))
0.25
"""

from __future__ import annotations

from nonolab.core.grid import Solution

__all__ = ["MIN_UNIFORM_LINE", "filled_fraction", "uniform_lines"]

# As in Tatham's generator, a line is held to the rule only when longer than 2:
# shorter lines are often uniform in any picture, and a 1-wide grid always is.
MIN_UNIFORM_LINE = 3

def _array(picture):
    """The filled mask (1 for any colour, 0 for the background) of a picture or a Solution."""
    import numpy as np
    if isinstance(picture, Solution):
        picture = np.frombuffer(picture.to_bytes(), dtype=np.uint8).reshape(picture.height, picture.width)
    return (np.asarray(picture) != 0).astype(np.uint8)


def filled_fraction(picture) -> float:
    """The fraction of filled cells (any colour), of a numpy array of colour indices or a
    :class:`Solution`, rounded to 4 places.

    >>> filled_fraction(Solution.from_rows(["#.", ".."])), filled_fraction(Solution.from_values([[2, 1], [0, 0]]))
    (0.25, 0.5)
    """
    return round(float(_array(picture).mean()), 4)


def uniform_lines(picture) -> list[tuple[str, int]]:
    """The rows and columns (``("row", i)`` / ``("column", j)``) all filled (in any colours)
    or all empty (lines shorter than ``MIN_UNIFORM_LINE`` are not held to it).

    >>> uniform_lines(Solution.from_rows(["###", ".#.", "..."]))
    [('row', 0), ('row', 2)]
    """
    import numpy as np
    picture = _array(picture)
    height, width = picture.shape
    found = []
    if width >= MIN_UNIFORM_LINE:
        sums = picture.sum(axis=1)
        found += [("row", int(i)) for i in np.flatnonzero((sums == 0) | (sums == width))]
    if height >= MIN_UNIFORM_LINE:
        sums = picture.sum(axis=0)
        found += [("column", int(j)) for j in np.flatnonzero((sums == 0) | (sums == height))]
    return found
