"""Every W x H picture, in chunks, and each picture's clues as one integer.

A picture is an integer: bit ``r * W + c`` is cell (r, c), 1 filled.  A line of n
cells has one of F(n+2) clues (F the Fibonacci numbers: 13 for 5 cells); :func:`line_clues`
numbers them, so a picture's clues are H row numbers and W column numbers, one integer
in mixed radix (its key).  Two pictures have the same clues exactly when their keys
are equal: grouping by key is the census's first, engine-free, uniqueness count.

Pictures with the same clues share their first rows' clues, so a chunk is the set of
pictures whose first rows have given clues: the chunks partition the pictures, and no
clue set spans two chunks (each is grouped alone, in bounded memory).

>>> index, clues = line_clues(3)
>>> clues
[(), (1,), (2,), (3,), (1, 1)]
>>> index.tolist()  # patterns 0..7, bit c = cell c
[0, 1, 1, 2, 1, 4, 2, 3]
>>> plan = Plan(3, 3)
>>> sum(len(plan.pictures(chunk)) for chunk in plan.chunks())
512
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from nonolab.core.violations import clues_of
from nonolab.errors import InvalidArgument

__all__ = ["MAX_CELLS", "MAX_SIDE", "Plan", "clue_of", "line_clues"]

#: The largest census: 2**40 pictures is past any machine's patience, and a picture
#: must fit one 64-bit integer with room for numpy's arithmetic.
MAX_CELLS = 40
#: The longest side (a table of its 2**n line patterns is made).
MAX_SIDE = 16
#: The most pictures one chunk holds (its arrays: about 200 bytes a picture).
CHUNK_PICTURES = 1 << 21


def clue_of(pattern: int, n: int) -> tuple[int, ...]:
    """The clue of a line of ``n`` cells, bit c of ``pattern`` being cell c.

    >>> clue_of(0b1101, 4)
    (1, 2)
    """
    return clues_of([pattern >> c & 1 for c in range(n)])


@lru_cache(maxsize=None)
def line_clues(n: int) -> tuple[Any, list[tuple[int, ...]]]:
    """``(index, clues)``: ``clues`` every clue of a line of n cells (by number of blocks,
    then lexicographically), ``index[pattern]`` the number of the pattern's clue."""
    import numpy as np
    of_pattern = [clue_of(p, n) for p in range(1 << n)]
    clues = sorted(set(of_pattern), key=lambda c: (len(c), c))
    number = {clue: i for i, clue in enumerate(clues)}
    return np.array([number[c] for c in of_pattern], dtype=np.int64), clues


class Plan:
    """The chunks of the W x H census and the pictures of each.

    A chunk is a tuple of clue numbers of the first rows, as many as it takes to hold
    at most ``chunk_pictures`` pictures (:data:`CHUNK_PICTURES` by default): the whole
    set is split by the clue of row 0, each part too large by the clue of row 1, and so
    on, so chunks of different depths partition the pictures.
    """

    def __init__(self, width: int, height: int, chunk_pictures: int | None = None):
        if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE and width * height <= MAX_CELLS):
            raise InvalidArgument(f"census --size {width}x{height}: at most {MAX_CELLS} cells (2**{MAX_CELLS} "
                                  f"pictures), sides of 1 to {MAX_SIDE}")
        self.width, self.height = width, height
        self.most = CHUNK_PICTURES if chunk_pictures is None else chunk_pictures
        if self.most < 1:
            raise InvalidArgument(f"--chunk-pictures {self.most}: at least 1")
        self.row_index, self.row_clues = line_clues(width)
        self.column_index, self.column_clues = line_clues(height)
        self.patterns = [[p for p in range(1 << width) if self.row_index[p] == i] for i in range(len(self.row_clues))]

    def chunks(self) -> list[tuple[int, ...]]:
        """Every chunk, in a fixed order."""
        out: list[tuple[int, ...]] = []
        pending: list[tuple[int, ...]] = [()]
        while pending:
            chunk = pending.pop()
            if len(chunk) == self.height or self.size(chunk) <= self.most:
                out.append(chunk)
            else:
                pending.extend(chunk + (clue,) for clue in reversed(range(len(self.row_clues))))
        return out

    def size(self, chunk: tuple[int, ...]) -> int:
        """The number of pictures in ``chunk``."""
        count = 1 << self.width * (self.height - len(chunk))
        for clue in chunk:
            count *= len(self.patterns[clue])
        return count

    def pictures(self, chunk: tuple[int, ...]) -> Any:
        """The pictures of ``chunk`` (uint64)."""
        import numpy as np
        if len(chunk) > self.height or any(not 0 <= c < len(self.row_clues) for c in chunk):
            raise InvalidArgument(f"census {self.width}x{self.height}: no chunk {list(chunk)}")
        prefix = np.zeros(1, dtype=np.uint64)
        for row, clue in enumerate(chunk):
            rows = np.array(self.patterns[clue], dtype=np.uint64) << np.uint64(row * self.width)
            prefix = (prefix[:, None] | rows[None, :]).ravel()
        rest = np.arange(1 << self.width * (self.height - len(chunk)), dtype=np.uint64)
        rest <<= np.uint64(len(chunk) * self.width)
        return (prefix[:, None] | rest[None, :]).ravel()

    def line_numbers(self, pictures: Any) -> Any:
        """Each picture's clue numbers: an (N, H + W) uint64 array, rows then columns (stored
        a line at a time: every use reads whole lines)."""
        import numpy as np
        out = np.empty((len(pictures), self.height + self.width), dtype=np.uint64, order="F")
        out[:, :self.height] = self.row_numbers(pictures)
        out[:, self.height:] = self.column_numbers(pictures)
        return out

    def row_numbers(self, pictures: Any) -> Any:
        """Each picture's row clue numbers: an (N, H) uint64 array."""
        import numpy as np
        w = self.width
        out = np.empty((len(pictures), self.height), dtype=np.uint64, order="F")
        row_mask = np.uint64((1 << w) - 1)
        for r in range(self.height):
            out[:, r] = self.row_index[(pictures >> np.uint64(r * w)) & row_mask]
        return out

    def column_numbers(self, pictures: Any) -> Any:
        """Each picture's column clue numbers: an (N, W) uint64 array.

        The picture is transposed a row at a time: ``_spread[p]`` puts bit c of a row
        pattern p at bit c * H, so the sum of ``_spread[row r] << r`` holds column c in
        bits c * H to c * H + H - 1 (2H numpy operations, not one per cell)."""
        import numpy as np
        w, h = self.width, self.height
        if not hasattr(self, "_spread"):
            self._spread = np.array([sum(1 << c * h for c in range(w) if p >> c & 1) for p in range(1 << w)],
                                    dtype=np.uint64)
        row_mask, column_mask = np.uint64((1 << w) - 1), np.uint64((1 << h) - 1)
        transposed = np.zeros(len(pictures), dtype=np.uint64)
        for r in range(h):
            transposed |= self._spread[(pictures >> np.uint64(r * w)) & row_mask] << np.uint64(r)
        out = np.empty((len(pictures), w), dtype=np.uint64, order="F")
        for c in range(w):
            out[:, c] = self.column_index[(transposed >> np.uint64(c * h)) & column_mask]
        return out

    def keys(self, numbers: Any) -> Any:
        """One integer per picture for its clues (mixed radix over the clue numbers)."""
        import numpy as np
        key = np.zeros(len(numbers), dtype=np.uint64)
        for line in range(numbers.shape[1]):
            key *= np.uint64(len(self.row_clues) if line < self.height else len(self.column_clues))
            key += numbers[:, line].astype(np.uint64, copy=False)
        return key

    def packed(self, numbers: Any) -> tuple[Any, Any, Any]:
        """The batch entry's ``(sizes, lengths, blocks)`` for clue sets given by their numbers.

        Every clue's blocks sit in one flat table (row clues, then column clues); a clue
        set's blocks are gathered from it by one index array (no per-line Python)."""
        import numpy as np
        h, w = self.height, self.width
        if not hasattr(self, "_flat"):
            tables = (self.row_clues, self.column_clues)
            count = [np.array([len(c) for c in t], dtype=np.int64) for t in tables]
            every = np.concatenate(count)
            starts_of = np.cumsum(every) - every
            flat = np.array([b for t in tables for c in t for b in c] or [0], dtype=np.int32)
            self._flat = flat, count, (starts_of[:len(count[0])], starts_of[len(count[0]):])
        flat, count, first = self._flat
        rows, columns = numbers[:, :h], numbers[:, h:]
        lengths = np.concatenate((count[0][rows], count[1][columns]), axis=1).ravel()
        starts = np.concatenate((first[0][rows], first[1][columns]), axis=1).ravel()
        written = np.cumsum(lengths) - lengths  # where each line's blocks go in the output
        blocks = flat[np.repeat(starts - written, lengths) + np.arange(int(lengths.sum()))]
        sizes = np.tile(np.array([h, w], dtype=np.int32), len(numbers))
        return sizes, lengths.astype(np.int32), blocks
