"""Text pictures for the terminal: a grid, two solutions and their difference, the
regions of an ambiguity report.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution

_CELL = {EMPTY: ".", FILLED: "#", UNKNOWN: "?", 0: "!"}


def grid_text(grid: Grid, highlight: Iterable[tuple[int, int]] = ()) -> str:
    """The grid with ``#`` filled, ``.`` empty, ``?`` unknown; highlighted cells in upper
    case letters (``X`` filled, ``O`` empty) so a step's changes stand out without colour.

    >>> g = Grid(1, 3); g.set(0, 0, FILLED); g.set(0, 1, EMPTY)
    >>> grid_text(g, [(0, 0)])
    'X.?'
    """
    marks = set(highlight)
    w = grid.width
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


def diff_text(first: Solution, second: Solution) -> str:
    """Two solutions side by side, with a third picture marking where they differ (``*``).

    >>> print(diff_text(Solution.from_rows(["#.", ".#"]), Solution.from_rows([".#", "#."])))
    #.  .#  **
    .#  #.  **
    """
    differ = set(first.diff(second))
    rows = []
    for r in range(first.height):
        a = "".join("#" if v else "." for v in first[r])
        b = "".join("#" if v else "." for v in second[r])
        d = "".join("*" if (r, c) in differ else "." for c in range(first.width))
        rows.append(f"{a}  {b}  {d}")
    return "\n".join(rows)


Cell = tuple[int, int]

def region_letter(k: int, filled: int) -> str:
    """Region ``k``'s letter: ``a``, ``b``, ... (cycled past ``z``), capital where the
    reference is filled."""
    letter = chr(ord("a") + k % 26)
    return letter.upper() if filled else letter


def regions_text(reference: Solution, regions: Sequence[Iterable[Cell]] = (),
                 undecided: Iterable[Cell] = ()) -> str:
    """The reference solution with backbone cells as ``#``/``.``, the cells of region
    ``k`` as its letter (``a``, ``b``, ...; capital where the reference is filled) and
    ``undecided`` cells (not classified) as ``?``.

    >>> print(regions_text(Solution.from_rows(["#.#", ".##"]), [[(0, 0), (0, 1), (1, 0), (1, 1)]]))
    Aa#
    aA#
    """
    marks: dict[Cell, str] = {cell: "?" for cell in undecided}
    for k, cells in enumerate(regions):
        for r, c in cells:
            marks[(r, c)] = region_letter(k, reference[r][c])
    return "\n".join("".join(marks.get((r, c), "#" if v else ".") for c, v in enumerate(row))
                     for r, row in enumerate(reference))
