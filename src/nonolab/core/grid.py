"""Cell states, the working grid and immutable solutions.

A cell's state is the *set of values it may still take*, as a two-bit mask:
``EMPTY = 1`` (may be white), ``FILLED = 2`` (may be black), ``UNKNOWN = 3`` (either),
and 0 for "neither", which only a contradiction produces.  With this encoding,
"may be white" is ``state & EMPTY``, narrowing a cell is ``state & value`` and the
agreement of two branches is ``a | b``: the solvers' hot loops need nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

EMPTY = 1
FILLED = 2
UNKNOWN = 3

_CHAR = {EMPTY: ".", FILLED: "#", UNKNOWN: "?", 0: "!"}


@dataclass(frozen=True)
class Solution:
    """A complete black-and-white picture: ``cells[r][c]`` is 1 (filled) or 0 (empty).

    Hashable, so sets of solutions deduplicate.

    >>> s = Solution.from_rows(["#.", ".#"])
    >>> s.height, s.width, s[1][1]
    (2, 2, 1)
    """

    cells: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not self.cells or not self.cells[0]:
            raise ValueError("Solution: the picture is empty")
        width = len(self.cells[0])
        for row in self.cells:
            if len(row) != width:
                raise ValueError("Solution: rows have different lengths")
            if any(v not in (0, 1) for v in row):
                raise ValueError("Solution: cells must be 0 or 1")

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int | bool | str]]) -> "Solution":
        """Build from rows of 0/1, booleans, or strings of ``#``/``1`` (filled) and ``.``/``0``."""
        out = []
        for row in rows:
            if isinstance(row, str):
                out.append(tuple(1 if ch in "#1Xx" else 0 for ch in row))
            else:
                out.append(tuple(1 if v else 0 for v in row))
        return cls(tuple(out))

    @classmethod
    def from_flat(cls, flat: Sequence[int], width: int) -> "Solution":
        """Build from a row-major sequence of 0/1 values."""
        vals = [1 if v else 0 for v in flat]
        return cls(tuple(tuple(vals[r * width:(r + 1) * width]) for r in range(len(vals) // width)))

    @property
    def height(self) -> int:
        return len(self.cells)

    @property
    def width(self) -> int:
        return len(self.cells[0])

    def __getitem__(self, r: int) -> tuple[int, ...]:
        return self.cells[r]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return iter(self.cells)

    def column(self, c: int) -> tuple[int, ...]:
        return tuple(row[c] for row in self.cells)

    def flat(self) -> list[int]:
        """Row-major 0/1 values."""
        return [v for row in self.cells for v in row]

    def diff(self, other: "Solution") -> list[tuple[int, int]]:
        """The (row, column) cells where two pictures of the same size differ."""
        if (self.height, self.width) != (other.height, other.width):
            raise ValueError("Solution.diff: pictures differ in size")
        return [(r, c) for r in range(self.height) for c in range(self.width)
                if self.cells[r][c] != other.cells[r][c]]

    def to_text(self, filled: str = "#", empty: str = ".") -> str:
        return "\n".join("".join(filled if v else empty for v in row) for row in self.cells)

    def __str__(self) -> str:
        return self.to_text()


class Grid:
    """The working state of a puzzle being solved: one cell state per cell.

    Cells are stored row-major in a ``bytearray`` so that a row is a slice and a
    column an extended slice; both are what the line solver takes.

    >>> g = Grid(2, 3)
    >>> g.set(0, 1, FILLED)
    >>> g.row(0)
    bytearray(b'\\x03\\x02\\x03')
    >>> g.is_solved()
    False
    """

    __slots__ = ("height", "width", "cells")

    def __init__(self, height: int, width: int, cells: bytes | bytearray | None = None):
        self.height = height
        self.width = width
        if cells is None:
            self.cells = bytearray([UNKNOWN]) * (height * width)
        else:
            if len(cells) != height * width:
                raise ValueError("Grid: cell count does not match the size")
            self.cells = bytearray(cells)

    @classmethod
    def from_solution(cls, solution: Solution) -> "Grid":
        return cls(solution.height, solution.width,
                   bytes(FILLED if v else EMPTY for v in solution.flat()))

    def copy(self) -> "Grid":
        return Grid(self.height, self.width, self.cells)

    def get(self, r: int, c: int) -> int:
        return self.cells[r * self.width + c]

    def set(self, r: int, c: int, state: int) -> None:
        self.cells[r * self.width + c] = state

    def row(self, r: int) -> bytearray:
        return self.cells[r * self.width:(r + 1) * self.width]

    def column(self, c: int) -> bytearray:
        return self.cells[c::self.width]

    def unknown_count(self) -> int:
        return self.cells.count(UNKNOWN)

    def is_solved(self) -> bool:
        return UNKNOWN not in self.cells and 0 not in self.cells

    def to_solution(self) -> Solution:
        if not self.is_solved():
            raise ValueError("Grid.to_solution: the grid still has undecided cells")
        return Solution.from_flat([v == FILLED for v in self.cells], self.width)

    def to_text(self) -> str:
        """``#`` filled, ``.`` empty, ``?`` unknown."""
        w = self.width
        return "\n".join("".join(_CHAR[v] for v in self.cells[r * w:(r + 1) * w])
                         for r in range(self.height))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Grid) and (self.height, self.width) == (other.height, other.width)
                and self.cells == other.cells)

    def __repr__(self) -> str:
        return f"Grid({self.height}x{self.width}, unknown={self.unknown_count()})"
