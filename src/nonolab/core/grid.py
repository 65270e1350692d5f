"""Cell states, the working grid and immutable solutions.

A cell's state is the *set of values it may still take*, as a two-bit mask:
``EMPTY = 1`` (may be white), ``FILLED = 2`` (may be black), ``UNKNOWN = 3`` (either),
and 0 for "neither", which only a contradiction produces.  With this encoding,
"may be white" is ``state & EMPTY``, narrowing a cell is ``state & value`` and the
agreement of two branches is ``a | b``: the solvers' hot loops need nothing more.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence, overload

from nonolab.core.cell import Cell
from nonolab.errors import InvalidArgument, TooLarge

EMPTY = 1
FILLED = 2
UNKNOWN = 3

_CHAR = {EMPTY: ".", FILLED: "#", UNKNOWN: "?", 0: "!"}


_TO_TEXT = bytes.maketrans(b"\x00\x01", b".#")
# Colour i without a palette (JSON, reports): the background, then 61 colours, as a `.non` goal
# writes them; 36 of them (to `z`) made every JSON answer of a picture using colour 36 an error.
COLOUR_CHARS = ".123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_COLOUR_CHARS = COLOUR_CHARS
_STATES_TO_BITS = bytes.maketrans(bytes([EMPTY, FILLED]), b"\x00\x01")


# Chunk sizes, largest first, in which :func:`_differing` compares two pictures.
_DIFF_CHUNKS = (1 << 14, 1 << 8)


def _differing(a: bytes, b: bytes, start: int = 0, end: int | None = None, level: int = 0) -> Iterator[int]:
    """The offsets in ``[start, end)`` where two equal-length byte strings differ.

    Equal chunks are skipped by one C comparison each, so two 4000x4000 pictures that
    differ in a few cells are compared in milliseconds, not by a Python loop over 16
    million cells; only the chunks that differ are looked at byte by byte.
    """
    end = len(a) if end is None else end
    if level == len(_DIFF_CHUNKS):
        yield from (i for i in range(start, end) if a[i] != b[i])
        return
    step = _DIFF_CHUNKS[level]
    for lo in range(start, end, step):
        hi = min(lo + step, end)
        if a[lo:hi] != b[lo:hi]:
            yield from _differing(a, b, lo, hi, level + 1)


def _whole(value: object) -> bool:
    """An index: an int (or numpy's), not a bool."""
    return hasattr(value, "__index__") and not isinstance(value, bool)


class Solution:
    """A complete picture: ``solution[r][c]`` (or ``solution[r, c]``) is 1 (filled) or 0 (empty).

    A colour picture (:meth:`from_values`) holds colour indices instead: 0 is the
    background, 1..k the palette's colours (see :class:`~nonolab.core.palette.Palette`).

    Immutable and hashable, so sets of solutions deduplicate.  Stored as one byte per
    cell, row-major: a 4000x4000 picture takes 16 MB, and rows and columns are slices.

    >>> from nonolab import Solution
    >>> s = Solution.from_rows(["#.", ".#"])
    >>> s.height, s.width, s[1][1], s[1, 1], s.column(0)
    (2, 2, 1, 1, (1, 0))
    """

    __slots__ = ("_data", "width", "height", "_top")

    # Set once by _init (the instance is immutable): declared for the type checker.
    _data: bytes
    _top: int | None
    width: int
    """Columns."""
    height: int
    """Rows."""

    def __init__(self, cells: Iterable[Iterable[int]]):
        rows = [bytes(1 if v else 0 for v in row) if not isinstance(row, (bytes, bytearray)) else bytes(row)
                for row in cells]
        if not rows or not rows[0]:
            raise InvalidArgument("Solution: the picture is empty")
        width = len(rows[0])
        for row in rows:
            if len(row) != width:
                raise InvalidArgument("Solution: rows have different lengths")
        data = b"".join(rows)
        if data.translate(None, b"\x00\x01"):
            raise InvalidArgument("Solution: cells must be 0 or 1")
        self._init(data, width)

    def _init(self, data: bytes, width: int) -> None:
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", len(data) // width)
        object.__setattr__(self, "_top", None)  # the highest cell value, found on first use

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Solution is immutable")

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int | bool | str]]) -> "Solution":
        """Build from rows of 0/1, booleans, or strings of ``#``/``1`` (filled) and ``.``/``0``."""
        out = []
        for row in rows:
            if isinstance(row, str):
                out.append(tuple(1 if ch in "#1Xx" else 0 for ch in row))
            else:
                out.append(tuple(1 if v else 0 for v in row))
        return cls(out)

    @classmethod
    def from_values(cls, rows: Iterable[Iterable[int]]) -> "Solution":
        """Build a colour picture from rows of colour indices (0 background, 1..255 colours).

        >>> from nonolab import Solution
        >>> Solution.from_values([[0, 2], [1, 1]]).to_text()
        '.2\\n11'
        """
        out = [bytes(row) for row in rows]
        if not out or not out[0]:
            raise InvalidArgument("Solution: the picture is empty")
        if any(len(row) != len(out[0]) for row in out):
            raise InvalidArgument("Solution: rows have different lengths")
        return cls.from_bytes(b"".join(out), len(out[0]), colours=True)

    @classmethod
    def from_flat(cls, flat: Sequence[int], width: int) -> "Solution":
        """Build from a row-major sequence of 0/1 values."""
        data = bytes(1 if v else 0 for v in flat)
        return cls.from_bytes(data, width)

    @classmethod
    def from_bytes(cls, data: bytes, width: int, colours: bool = False) -> "Solution":
        """Build from row-major bytes of 0/1 (any colour index with ``colours``), without a
        Python loop over the cells."""
        if width <= 0 or not data or len(data) % width:
            raise InvalidArgument("Solution.from_bytes: the data is not whole rows of this width")
        if not colours and data.translate(None, b"\x00\x01"):
            raise InvalidArgument("Solution.from_bytes: cells must be 0 or 1")
        obj = cls.__new__(cls)
        obj._init(bytes(data), width)
        if not colours:  # checked to be 0/1 above: its highest value costs one search
            object.__setattr__(obj, "_top", 1 if b"\x01" in obj._data else 0)
        return obj

    @classmethod
    def from_states(cls, states: bytes, width: int) -> "Solution":
        """Build from solved cell states (EMPTY / FILLED), as the solvers hold them."""
        return cls.from_bytes(bytes(states).translate(_STATES_TO_BITS), width)

    @property
    def cells(self) -> tuple[tuple[int, ...], ...]:
        """The rows as tuples of 0/1 (built on demand)."""
        return tuple(self)

    def row_bytes(self, r: int) -> bytes:
        return self._data[r * self.width:(r + 1) * self.width]

    def column_bytes(self, c: int) -> bytes:
        return self._data[c::self.width]

    @overload
    def __getitem__(self, key: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, key: tuple[int, int]) -> int: ...

    def __getitem__(self, key: int | tuple[int, int]) -> tuple[int, ...] | int:
        """``s[r]``: row ``r`` (0-based); ``s[r, c]`` or ``s[cell]`` (a :class:`~nonolab.core.cell.Cell`,
        as ``Solution.diff`` and ``check(...).differing`` give them): that cell's value."""
        if isinstance(key, tuple) and len(key) == 2 and all(_whole(k) for k in key):
            return self._data[self._index(key[0], self.height, "row") * self.width
                              + self._index(key[1], self.width, "column")]
        if not _whole(key):
            raise TypeError(f"Solution[...] takes a row (an int) or a cell (row, column), not {key!r}")
        return tuple(self.row_bytes(self._index(key, self.height, "row")))  # type: ignore[arg-type]

    @staticmethod
    def _index(i: int, size: int, what: str) -> int:
        if not -size <= i < size:
            raise IndexError(f"Solution {what} {i} out of range (0..{size - 1})")
        return i + size if i < 0 else i

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return (tuple(self.row_bytes(r)) for r in range(self.height))

    def __len__(self) -> int:
        return self.height

    def column(self, c: int) -> tuple[int, ...]:
        return tuple(self.column_bytes(c))

    def flat(self) -> list[int]:
        """Row-major 0/1 values."""
        return list(self._data)

    def to_bytes(self) -> bytes:
        """Row-major 0/1 bytes."""
        return self._data

    def diff(self, other: "Solution") -> list[Cell]:
        """The cells where two pictures of the same size differ, in row-major order
        (0-based; ``str()`` of a :class:`~nonolab.core.cell.Cell` is 1-based).

        >>> from nonolab import Solution
        >>> Solution.from_rows(["#.", ".#"]).diff(Solution.from_rows(["#.", "#."]))
        [Cell(row=1, column=0), Cell(row=1, column=1)]
        """
        if (self.height, self.width) != (other.height, other.width):
            raise InvalidArgument("Solution.diff: pictures differ in size")
        w = self.width
        return [Cell(*divmod(i, w)) for i in _differing(self._data, other._data)]

    @property
    def colours(self) -> int:
        """The highest cell value: 1 for a black-and-white picture (0 if blank), k for colours."""
        top = self._top
        if top is None:
            data = self._data
            # C-speed scans: a 0/1 picture (every black-and-white one) never loops in Python.
            top = (1 if b"\x01" in data else 0) if not data.translate(None, b"\x00\x01") else max(data)
            object.__setattr__(self, "_top", top)
        return top

    def to_text(self, filled: str = "#", empty: str = ".", chars: str | None = None) -> str:
        """One character per cell: ``filled``/``empty``, or ``chars[value]`` when given.

        A colour picture without ``chars`` shows colour ``i`` as ``_COLOUR_CHARS[i]``
        (``.`` then ``1``-``9``, ``a``-``z``, ``A``-``Z``: 61 colours): the palette's chars are the
        caller's to give.

        Raises:
            TooLarge: a colour beyond the chars (without ``chars``: beyond colour 61).
        """
        if chars is None and self.colours > 1:
            chars = _COLOUR_CHARS
        if chars is not None:
            if self.colours >= len(chars):
                raise TooLarge(f"a picture as text writes colours 1 to {len(chars) - 1} a character each "
                               f"({chars[1]}-{chars[-1]}), and this one uses colour {self.colours}")
            w = self.width
            table = {i: ch for i, ch in enumerate(chars)}
            return "\n".join("".join(table[v] for v in self._data[r * w:(r + 1) * w]) for r in range(self.height))
        text = self._data.translate(_TO_TEXT).decode("ascii")
        if (filled, empty) != ("#", "."):
            swap: dict[str, str | int | None] = {"#": filled, ".": empty}
            text = text.translate(str.maketrans(swap))
        w = self.width
        return "\n".join(text[r * w:(r + 1) * w] for r in range(self.height))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Solution) and self.width == other.width and self._data == other._data

    def __hash__(self) -> int:
        return hash((self.width, self._data))

    def __repr__(self) -> str:
        return f"Solution({self.width}x{self.height})"

    def __str__(self) -> str:
        return self.to_text()

    def _repr_svg_(self) -> str | None:
        """The picture with its clues (Jupyter; the drawing code loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

    def _repr_html_(self) -> str | None:
        """Jupyter: the picture with its clues and its size, as HTML."""
        from nonolab.render.display import html_of
        return html_of(self)


def require_solution(value: object, caller: str) -> "Solution":
    """``value`` if it is a :class:`Solution`; else a ``TypeError`` that says what is wanted
    (not an ``AttributeError`` about ``height`` from inside the caller).

    >>> require_solution(["#."], "violations")
    Traceback (most recent call last):
    ...
    TypeError: violations: expected a Solution, not list (Solution.from_rows(['#.', '..']) makes one)
    """
    if isinstance(value, Solution):
        return value
    raise TypeError(f"{caller}: expected a Solution, not {type(value).__name__} "
                    "(Solution.from_rows(['#.', '..']) makes one)")


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
                raise InvalidArgument("Grid: cell count does not match the size")
            self.cells = bytearray(cells)

    @classmethod
    def from_solution(cls, solution: Solution) -> "Grid":
        return cls(solution.height, solution.width,
                   solution.to_bytes().translate(bytes.maketrans(b"\x00\x01", bytes([EMPTY, FILLED]))))

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
        return Solution.from_states(bytes(self.cells), self.width)

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


UNDECIDED = 255


class ValueGrid:
    """A colour puzzle's cells as a step log decides them: each cell's colour index
    (0 the background) once decided, ``UNDECIDED`` before.

    What :func:`~nonolab.solvers.steps.replay` yields for a colour puzzle, where a
    two-bit :class:`Grid` state cannot say which colour a cell took.

    >>> g = ValueGrid(1, 2); g.set(0, 1, 3)
    >>> g.get(0, 0) == UNDECIDED, g.get(0, 1), g.is_solved()
    (True, 3, False)
    """

    __slots__ = ("height", "width", "cells")

    def __init__(self, height: int, width: int):
        self.height = height
        self.width = width
        self.cells = bytearray([UNDECIDED]) * (height * width)

    def get(self, r: int, c: int) -> int:
        return self.cells[r * self.width + c]

    def set(self, r: int, c: int, value: int) -> None:
        self.cells[r * self.width + c] = value

    def is_solved(self) -> bool:
        return UNDECIDED not in self.cells

    def to_solution(self) -> Solution:
        if not self.is_solved():
            raise ValueError("ValueGrid.to_solution: the grid still has undecided cells")
        return Solution.from_bytes(bytes(self.cells), self.width, colours=True)

    def __repr__(self) -> str:
        return f"ValueGrid({self.height}x{self.width}, undecided={self.cells.count(UNDECIDED)})"
