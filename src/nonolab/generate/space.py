"""How many distinct pictures a drawn recipe can give, so the generator loop stops once it
has met them all (or at once, when there are none) instead of drawing to its candidate
budget: a 1x1 grid has no picture inside the default density range (0.2-0.7), and a 2x1
grid two, so ``generate --size 2x1 --count 5`` can make at most two distinct puzzles.

Only small spaces are followed (at most :data:`MAX_PICTURES`); a larger grid's space is
beyond any candidate budget anyway.

>>> space = PictureSpace.of(2, 1, colours=1, density_range=(0.2, 0.7))
>>> space.size, space.exhausted()
(2, False)
>>> import numpy as np
>>> space.saw(np.array([[1, 0]])); space.saw(np.array([[1, 1]])); space.saw(np.array([[1, 0]]))
>>> space.exhausted()
False
>>> space.saw(np.array([[0, 1]]))
>>> space.exhausted()
True
"""

from __future__ import annotations

from math import comb

import numpy as np

__all__ = ["MAX_PICTURES", "PictureSpace"]

#: The largest space followed (the pictures met are kept as bytes, a few each).
MAX_PICTURES = 1 << 12


class PictureSpace:
    """The pictures of a ``width`` x ``height`` grid in ``colours`` foreground colours whose
    filled fraction (as :func:`~nonolab.harness.filters.filled_fraction` rounds it) lies in
    ``density_range``, and those of them met so far."""

    def __init__(self, size: int, density_range: tuple[float, float]):
        self.size = size
        self.density_range = density_range
        self._met: set[bytes] = set()

    @classmethod
    def of(cls, width: int, height: int, colours: int, density_range: tuple[float, float]) -> "PictureSpace | None":
        """The space of such pictures, or ``None`` when it holds more than :data:`MAX_PICTURES`.

        >>> PictureSpace.of(1, 1, 1, (0.2, 0.7)).size, PictureSpace.of(3, 1, 2, (0.2, 0.7)).size
        (0, 18)
        >>> PictureSpace.of(10, 10, 1, (0.2, 0.7)) is None
        True
        """
        cells = width * height
        low, high = density_range
        size = 0
        # Only the counts of filled cells that round into the range (rounding moves a
        # fraction by at most 5e-5), and each term capped as it grows: a large grid's
        # first term is beyond the limit, and its exact binomial (millions of digits at
        # 5000x5000) held the interpreter for minutes, Ctrl-C and the clock included.
        first = max(0, int((low - 1e-4) * cells))
        last = min(cells, int((high + 1e-4) * cells) + 1)
        for filled in range(first, last + 1):
            if low <= round(filled / cells, 4) <= high:
                size += _capped_pictures(cells, filled, colours)
                if size > MAX_PICTURES:
                    return None
        return cls(size, density_range)

    def saw(self, picture: np.ndarray) -> None:
        """Note ``picture`` (an array of colour indices) as met and judged for good (one
        outside the density range is not of the space: not counted)."""
        low, high = self.density_range
        if low <= round(float(np.count_nonzero(picture)) / picture.size, 4) <= high:
            self._met.add(np.ascontiguousarray(picture, dtype=np.uint8).tobytes())

    def exhausted(self) -> bool:
        """Whether every picture of the space has been met: no draw can give a new one."""
        return len(self._met) >= self.size


def _capped_pictures(cells: int, filled: int, colours: int) -> int:
    """``comb(cells, filled) * colours ** filled``, or any number above :data:`MAX_PICTURES`
    once the product passes it (computed a factor at a time: every partial product is a
    smaller count of the same kind, so the first one past the limit proves the whole is).

    >>> _capped_pictures(5, 2, 3), _capped_pictures(25_000_000, 5_000_000, 1) > MAX_PICTURES
    (90, True)
    """
    count = 1
    for i in range(min(filled, cells - filled)):
        count = count * (cells - i) // (i + 1)
        if count > MAX_PICTURES:
            return count
    for _ in range(filled if colours > 1 else 0):
        count *= colours
        if count > MAX_PICTURES:
            return count
    return count
