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


def ruled_out_text(ruled_out: Iterable[tuple[int, int, int]], chars: str | None = None,
                   width: int | None = None) -> str:
    """The values a colour step ruled out of cells it left open (which the grid shows as
    ``?``), 1-based as the steps name lines: later steps may rest on them.

    Neighbouring cells along a row ruled out the same values are one item,
    ``(row, first-last)``, along a column ``(first-last, column)``, so that a step across a
    wide row says it in a few items, not a cell at a time; with ``width`` (a terminal's) the
    items are wrapped to lines of at most that many characters, each item whole, the later
    lines indented under the first item.

    >>> ruled_out_text([(0, 1, 2), (0, 1, 0), (3, 0, 1)], chars=".ab")
    'ruled out: (1, 2) not b or .; (4, 1) not a'
    >>> ruled_out_text([(4, c, 1) for c in range(9)] + [(4, 9, 2), (5, 9, 2), (6, 9, 2)], chars=".ab")
    'ruled out: (5, 1-9) not a; (5-7, 10) not b'
    >>> print(ruled_out_text([(0, c, v) for c in range(0, 12, 2) for v in (1, 2)], chars=".ab", width=40))
    ruled out: (1, 1) not a or b;
               (1, 3) not a or b;
               (1, 5) not a or b;
               (1, 7) not a or b;
               (1, 9) not a or b;
               (1, 11) not a or b
    """
    cells: dict[tuple[int, int], list[int]] = {}
    for r, c, value in ruled_out:
        cells.setdefault((r, c), []).append(value)
    chars = chars or COLOUR_CHARS
    runs: list[list] = []   # [first row, first column, last row, last column, values], in the log's order
    for (r, c), values in cells.items():
        run = runs[-1] if runs else None
        if run is not None and run[4] == values and (
                (r == run[0] == run[2] and c == run[3] + 1) or (c == run[1] == run[3] and r == run[2] + 1)):
            run[2], run[3] = r, c
        else:
            runs.append([r, c, r, c, values])
    items = [f"({_span(r0, r1)}, {_span(c0, c1)}) not {' or '.join(chars[v] for v in values)}"
             for r0, c0, r1, c1, values in runs]
    head = "ruled out: "
    if width is None:
        return head + "; ".join(items)
    return _wrapped(head, [item + ";" for item in items[:-1]] + items[-1:], width)


def _span(first: int, last: int) -> str:
    return f"{first + 1}" if first == last else f"{first + 1}-{last + 1}"


def _wrapped(head: str, items: list[str], width: int) -> str:
    """``head`` then ``items`` wrapped to ``width``: an item is broken (at its spaces) only
    when it is wider than a line; the later lines are indented as wide as ``head`` (no
    wider than half the width)."""
    indent = " " * min(len(head), width // 2)
    lines, line = [], head.rstrip()
    for item in items:
        if len(line) + 1 + len(item) <= width or not line.strip():
            line = f"{line} {item}" if line.strip() else line + item
            continue
        if len(indent) + len(item) <= width:   # whole on a line of its own
            lines.append(line)
            line = indent + item
            continue
        for word in item.split(" "):           # wider than a line: at its spaces
            if len(line) + 1 + len(word) > width and line.strip():
                lines.append(line)
                line = indent + word
            else:
                line = f"{line} {word}" if line.strip() else line + word
    lines.append(line)
    return "\n".join(lines)


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
