"""Filters on a picture and the repair step: flip one cell where the trouble is.

Henstra's idea (docs/algorithms.md §9): rather than discard a picture
whose puzzle is ambiguous or too hard, flip a pixel inside the region line logic
leaves open and try again.  The generator aims closer when it can: for an
ambiguous puzzle it flips where two solutions differ, which on 30x30 noise at
density 0.5 (about 800 undecided cells) is what makes repairs converge.  The filters
(:func:`filled_fraction`, :func:`uniform_lines`) live in :mod:`nonolab.harness.filters`; the
designer's repair (:mod:`nonolab.harness.repair`) looks for the fewest flips instead.  Every flip keeps the picture inside the filters (its
density in range, no new all-filled or all-empty line), so a repaired picture is
never rejected for what the repair itself did.  In colour a repair changes a cell to
another colour or to the background (:func:`choose_change`).

>>> import numpy as np
>>> picture = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.uint8)
>>> uniform_lines(picture), filled_fraction(picture)
([], 0.3333)
>>> uniform_lines(np.array([[1, 1, 1], [0, 1, 0], [0, 0, 0]]))
[('row', 0), ('row', 2)]
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from nonolab.harness.filters import MIN_UNIFORM_LINE, filled_fraction, uniform_lines

__all__ = ["MIN_UNIFORM_LINE", "filled_fraction", "uniform_lines", "cells_of_lines", "choose_flip", "choose_change"]

def cells_of_lines(picture: np.ndarray, lines: Iterable[tuple[str, int]]) -> np.ndarray:
    """Every cell of the given lines, without repeats, in reading order: an ``(n, 2)`` array
    of (row, column), built without a Python loop over the cells (a 2000x2000 picture has
    4 million of them).

    >>> cells_of_lines(np.zeros((2, 3), dtype=np.uint8), [("row", 1), ("column", 0)]).tolist()
    [[0, 0], [1, 0], [1, 1], [1, 2]]
    """
    mask = np.zeros(picture.shape, dtype=bool)
    for kind, index in lines:
        if kind == "row":
            mask[index, :] = True
        else:
            mask[:, index] = True
    return np.argwhere(mask)


def choose_flip(picture: np.ndarray, cells: Iterable[tuple[int, int]], rng: np.random.Generator,
                density_range: tuple[float, float], allow_uniform_lines: bool) -> tuple[int, int] | None:
    """A seeded choice among ``cells`` of a 0/1 picture of one to flip, or None if no flip keeps the filters.

    A flip is allowed when the filled fraction stays within ``density_range`` and,
    unless ``allow_uniform_lines``, neither the cell's row nor its column becomes
    all filled or all empty.

    >>> picture = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.uint8)
    >>> choose_flip(picture, [(0, 0), (1, 2)], np.random.default_rng(0), (0.0, 1.0), False)
    (1, 2)
    """
    change = choose_change(picture, cells, rng, density_range, allow_uniform_lines, colours=1)
    return None if change is None else change[0]


def choose_change(picture: np.ndarray, cells: Iterable[tuple[int, int]], rng: np.random.Generator,
                  density_range: tuple[float, float], allow_uniform_lines: bool,
                  colours: int = 1, edges: bool = False) -> tuple[tuple[int, int], int] | None:
    """A seeded choice of a cell among ``cells`` and the value (0..``colours``) it changes to.

    The choice is uniform among the allowed ``(cell, value)`` pairs: a cell may take
    any value but its own that keeps the filters (see :func:`choose_flip`) and, in
    colour, does not remove the last cell of a colour (the palette stays in use).
    In black and white each cell has one value to take, so this is :func:`choose_flip`.
    With ``edges`` (a picture from an image) the choice is among the cells on the
    picture's edges (a cell with a 4-neighbour of another value) when any is allowed, so
    a repair reshapes the outline and never draws a stray cell on the background.

    >>> picture = np.array([[1, 2, 0], [0, 1, 2], [2, 0, 1]], dtype=np.uint8)
    >>> choose_change(picture, [(0, 0), (0, 2)], np.random.default_rng(0), (0.0, 1.0), True, colours=2)
    ((0, 2), 2)
    """
    height, width = picture.shape
    where = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    if not len(where):
        return None
    filled_mask = picture != 0
    filled = int(filled_mask.sum())
    total = picture.size
    low, high = density_range
    rows, columns = where[:, 0], where[:, 1]
    now = picture[rows, columns].astype(np.int64)
    # Every (cell, value) pair at once, in the order a loop over the cells then the values
    # would meet them, so that the seeded choice is the same as one pair at a time.
    values = np.arange(colours + 1, dtype=np.int64)
    change = (values[None, :] != 0).astype(np.int64) - (now[:, None] != 0)
    allowed = values[None, :] != now[:, None]
    fraction = (filled + change) / total
    allowed &= (low <= fraction) & (fraction <= high)
    if not allow_uniform_lines:
        row_after = filled_mask.sum(axis=1)[rows][:, None] + change
        column_after = filled_mask.sum(axis=0)[columns][:, None] + change
        uniform = _becomes_uniform(row_after, width) | _becomes_uniform(column_after, height)
        allowed &= ~((change != 0) & uniform)
    if colours > 1:   # the last cell of a colour keeps it: the palette stays in use
        uses = np.bincount(picture.ravel(), minlength=colours + 1)
        allowed &= ~((now != 0) & (uses[now] == 1))[:, None]
    if edges:
        on_edge = _on_edge(picture)[rows, columns][:, None]
        if (allowed & on_edge).any():
            allowed &= on_edge
    chosen = np.flatnonzero(allowed.ravel())
    if not len(chosen):
        return None
    pick = int(chosen[int(rng.integers(len(chosen)))])
    cell, value = divmod(pick, colours + 1)
    return (int(rows[cell]), int(columns[cell])), value


def _on_edge(picture: np.ndarray) -> np.ndarray:
    """Which cells touch (sideways) a cell of another value: the picture's outlines."""
    edge = np.zeros(picture.shape, dtype=bool)
    differs_down = picture[1:, :] != picture[:-1, :]
    differs_right = picture[:, 1:] != picture[:, :-1]
    edge[1:, :] |= differs_down
    edge[:-1, :] |= differs_down
    edge[:, 1:] |= differs_right
    edge[:, :-1] |= differs_right
    return edge


def _becomes_uniform(filled: np.ndarray, length: int) -> np.ndarray:
    """Whether lines of ``length`` with ``filled`` cells (an array) are all filled or all empty."""
    if length < MIN_UNIFORM_LINE:
        return np.zeros(np.shape(filled), dtype=bool)
    return (filled == 0) | (filled == length)
