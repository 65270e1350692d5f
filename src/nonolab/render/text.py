"""Text pictures for the terminal: a grid, two solutions and their difference, the
regions of an ambiguity report.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from nonolab.core.grid import COLOUR_CHARS, EMPTY, FILLED, UNDECIDED, UNKNOWN, Grid, Solution, ValueGrid

_CELL = {EMPTY: ".", FILLED: "#", UNKNOWN: "?", 0: "!"}

#: Why a part of an answer is missing when it says ``timeout``: the word covers the work limits
#: (``-O node_limit=``, ``-O conflict_limit=``) as well as the time limit, so no surface may name the clock alone.
LIMIT_FIRST = "the time, node or conflict limit came first"


def grid_text(grid: Grid | ValueGrid, highlight: Iterable[tuple[int, int]] = (), chars: str | None = None) -> str:
    """The grid with ``#`` filled, ``.`` empty, ``?`` unknown; highlighted cells in upper
    case letters (``X`` filled, ``O`` empty) so a step's changes stand out without colour.

    A colour puzzle's :class:`~nonolab.core.grid.ValueGrid` shows each decided cell as
    its colour's char in ``chars`` (the palette's), and, beside it, the highlighted
    cells alone (a palette's chars have no upper case to spare):

    >>> v = ValueGrid(1, 3); v.set(0, 0, 2); v.set(0, 1, 0)
    >>> grid_text(v, [(0, 0)], chars=".ab")
    'b.?  b  '
    >>> g = Grid(1, 3); g.set(0, 0, FILLED); g.set(0, 1, EMPTY)
    >>> grid_text(g, [(0, 0)])
    'X.?'
    """
    marks = set(highlight)
    w = grid.width
    if isinstance(grid, ValueGrid):
        return _values_text(grid, marks, chars or COLOUR_CHARS)
    lines = []
    for r in range(grid.height):
        row = []
        for c in range(w):
            v = grid.cells[r * w + c]
            if (r, c) in marks:
                row.append("X" if v == FILLED else "O")
            else:
                row.append(_CELL[v])
        lines.append("".join(row))
    return "\n".join(lines)


def ruled_out_text(ruled_out: Iterable[tuple[int, int, int]], chars: str | None = None) -> str:
    """The values a colour step ruled out of cells it left open (which the grid shows as
    ``?``), a cell at a time, 1-based as the steps name lines: later steps may rest on them.

    >>> ruled_out_text([(0, 1, 2), (0, 1, 0), (3, 0, 1)], chars=".ab")
    'ruled out: (1, 2) not b or .; (4, 1) not a'
    """
    cells: dict[tuple[int, int], list[int]] = {}
    for r, c, value in ruled_out:
        cells.setdefault((r, c), []).append(value)
    chars = chars or COLOUR_CHARS
    return "ruled out: " + "; ".join(f"({r + 1}, {c + 1}) not {' or '.join(chars[v] for v in values)}"
                                     for (r, c), values in cells.items())


def _values_text(grid: ValueGrid, marks: set[tuple[int, int]], chars: str) -> str:
    w = grid.width
    lines = []
    for r in range(grid.height):
        values = grid.cells[r * w:(r + 1) * w]
        left = "".join("?" if v == UNDECIDED else chars[v] for v in values)
        right = "".join(chars[v] if (r, c) in marks and v != UNDECIDED else " " for c, v in enumerate(values))
        lines.append(f"{left}  {right}")
    return "\n".join(lines)


def diff_text(first: Solution, second: Solution, chars: str | None = None) -> str:
    """Two solutions side by side, with a third picture marking where they differ (``*``);
    each value as its char in ``chars`` (the puzzle's :attr:`~nonolab.core.puzzle.Puzzle.chars`;
    by default ``.#``, or for colour values those of :meth:`Solution.to_text`).

    >>> print(diff_text(Solution.from_rows(["#.", ".#"]), Solution.from_rows([".#", "#."])))
    #.  .#  **
    .#  #.  **
    >>> print(diff_text(Solution.from_values([[2, 1]]), Solution.from_values([[1, 2]])))
    21  12  **
    """
    differ = set(first.diff(second))
    a, b = (s.to_text(chars=chars).splitlines() for s in (first, second))
    return "\n".join(f"{a[r]}  {b[r]}  " + "".join("*" if (r, c) in differ else "." for c in range(first.width))
                     for r in range(first.height))


Cell = tuple[int, int]

def region_letter(k: int, filled: int) -> str:
    """Region ``k``'s letter: ``a``, ``b``, ... (cycled past ``z``), capital where the
    reference is filled (in colour: not the background)."""
    letter = chr(ord("a") + k % 26)
    return letter.upper() if filled else letter


def regions_text(reference: Solution, regions: Sequence[Iterable[Cell]] = (),
                 undecided: Iterable[Cell] = (), chars: str | None = None) -> str:
    """The reference solution with backbone cells as ``#``/``.`` (in colour, ``chars``:
    the palette's), the cells of region ``k`` as its letter (``a``, ``b``, ...; capital
    where the reference is filled) and ``undecided`` cells (not classified) as ``?``.

    >>> print(regions_text(Solution.from_rows(["#.#", ".##"]), [[(0, 0), (0, 1), (1, 0), (1, 1)]]))
    Aa#
    aA#
    >>> print(regions_text(Solution.from_values([[2, 0, 1]]), [[(0, 0), (0, 1)]], chars=".xy"))
    Aax
    """
    marks: dict[Cell, str] = {cell: "?" for cell in undecided}
    for k, cells in enumerate(regions):
        for r, c in cells:
            marks[(r, c)] = region_letter(k, reference[r][c])
    rows = reference.to_text(chars=chars).splitlines()
    return "\n".join("".join(marks.get((r, c), ch) for c, ch in enumerate(row)) for r, row in enumerate(rows))
