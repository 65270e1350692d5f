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

def cells_of_lines(picture: np.ndarray, lines: Iterable[tuple[str, int]]) -> list[tuple[int, int]]:
    """Every cell of the given lines, without repeats, in reading order."""
    height, width = picture.shape
    cells = set()
    for kind, index in lines:
        if kind == "row":
            cells.update((index, c) for c in range(width))
        else:
            cells.update((r, index) for r in range(height))
    return sorted(cells)


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
    filled_mask = picture != 0
    filled = int(filled_mask.sum())
    total = picture.size
    low, high = density_range
    row_sums = filled_mask.sum(axis=1)
    column_sums = filled_mask.sum(axis=0)
    uses = np.bincount(picture.ravel(), minlength=colours + 1) if colours > 1 else None
    allowed = []
    for r, c in cells:
        now = int(picture[r, c])
        if uses is not None and now and uses[now] == 1:
            continue
        for value in range(colours + 1):
            if value == now:
                continue
            change = (value != 0) - (now != 0)
            if not low <= (filled + change) / total <= high:
                continue
            if change and not allow_uniform_lines and (_becomes_uniform(int(row_sums[r]) + change, width)
                                                       or _becomes_uniform(int(column_sums[c]) + change, height)):
                continue
            allowed.append(((r, c), value))
    if edges:
        on_edge = [choice for choice in allowed if _on_edge(picture, *choice[0])]
        allowed = on_edge or allowed
    if not allowed:
        return None
    return allowed[int(rng.integers(len(allowed)))]


def _on_edge(picture: np.ndarray, r: int, c: int) -> bool:
    """Whether cell ``(r, c)`` touches (sideways) a cell of another value."""
    height, width = picture.shape
    here = picture[r, c]
    return any(0 <= r + dr < height and 0 <= c + dc < width and picture[r + dr, c + dc] != here
               for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))


def _becomes_uniform(filled: int, length: int) -> bool:
    return length >= MIN_UNIFORM_LINE and filled in (0, length)
