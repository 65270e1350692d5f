"""Emoji pictures (number-loom's ``char-grid``): one coloured square per cell, ``⬜`` the
background; the picture is the goal and the clues come from it.

>>> p = parse("⬜🟥\\n🟦🟥\\n")[0]
>>> p.palette.names, p.coloured_columns
(('white', 'red', 'blue'), (((1, 2),), ((2, 1),)))
>>> write(p)
'⬜🟥\\n🟦🟥\\n'
"""

from __future__ import annotations

from nonolab.core.grid import Solution
from nonolab.core.palette import Colour, Palette
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidPuzzle, ParseError
from nonolab.formats._colours import fitted
from nonolab.formats._common import need_goal, require_text, split_lines
from nonolab.formats.limits import check_cells

# The squares and the RGB their Twemoji images show (black as pure black).
SQUARES = {
    "⬜": ("white", (255, 255, 255)), "⬛": ("black", (0, 0, 0)), "🟥": ("red", (221, 46, 68)),
    "🟧": ("orange", (244, 144, 12)), "🟨": ("yellow", (253, 203, 88)), "🟩": ("green", (120, 177, 89)),
    "🟦": ("blue", (85, 172, 238)), "🟪": ("purple", (170, 142, 214)), "🟫": ("brown", (193, 105, 79)),
}
_CHARS = {"black": "X", "red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b", "purple": "p",
          "brown": "n"}


def _rows(text: str) -> list[tuple[int, str]]:
    return [(i + 1, line.strip()) for i, line in enumerate(split_lines(text)) if line.strip()]


def sniff(text: str) -> bool:
    rows = _rows(text)
    return bool(rows) and all(ch in SQUARES for _, row in rows for ch in row)


def parse(text: str) -> list[Puzzle]:
    require_text(split_lines(text))
    rows = _rows(text)
    width = len(rows[0][1])
    check_cells(width, len(rows), rows[0][0])
    for line, row in rows:
        bad = next((ch for ch in row if ch not in SQUARES), None)
        if bad is not None:
            raise ParseError(f"{bad!r} is not a coloured square", line=line)
        if len(row) != width:
            raise ParseError(f"this row has {len(row)} squares but the first has {width}", line=line)
    inks = list(dict.fromkeys(ch for _, row in rows for ch in row if ch != "⬜"))
    if not inks:   # a blank picture: black and white, with no filled cell
        return [Puzzle.from_solution(Solution.from_bytes(bytes(width * len(rows)), width))]
    palette = Palette((Colour("white", (255, 255, 255), "."),
                       *(Colour(SQUARES[ch][0], SQUARES[ch][1], _CHARS[SQUARES[ch][0]]) for ch in inks)))
    index = {ch: i + 1 for i, ch in enumerate(inks)}
    cells = bytes(index.get(ch, 0) for _, row in rows for ch in row)
    return [Puzzle.from_solution(Solution.from_bytes(cells, width, colours=len(inks) > 1), palette=palette)]


def _lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour: distances there follow what the eye sees, where
    RGB distances do not (dark purple is nearer brown than the purple square in RGB)."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def write(puzzle: Puzzle) -> str:
    """The goal in squares: each colour gets the nearest square (in CIE L*a*b*) not yet taken."""
    free = [ch for ch in SQUARES if ch != "⬜"]
    puzzle = fitted(puzzle, len(free), "emoji", "its coloured squares")
    goal = need_goal(puzzle, "emoji")
    palette = puzzle.palette or Palette.black_and_white()
    if len(palette) - 1 > len(free):
        raise InvalidPuzzle(f"the emoji format has {len(free)} colours, the puzzle {len(palette) - 1}",
                            kind="palette")
    square = ["⬜"]
    for colour in palette.foreground:
        seen = _lab(colour.rgb)
        best = min(free, key=lambda ch: sum((a - b) ** 2 for a, b in zip(_lab(SQUARES[ch][1]), seen)))
        free.remove(best)
        square.append(best)
    return "".join("".join(square[v] for v in goal.row_bytes(r)) + "\n" for r in range(goal.height))
