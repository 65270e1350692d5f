"""The CTU B4B36ZUI course format (colour): ``ROWS,COLUMNS`` on the first line, then
one line per row and one per column, each ``C,n,C,n,...``: a colour letter before
each block length (an empty line is an empty clue).  Letters carry no RGB: known
initials get a usual colour, others a distinct one.

>>> p = parse("1,2\\nR,1,G,1\\nR,1\\nG,1\\n")[0]
>>> p.palette.names, p.row_colours
(('white', 'R', 'G'), ((1, 2),))
>>> write(p)
'1,2\\nR,1,G,1\\nR,1\\nG,1\\n'
"""

from __future__ import annotations

import re

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._colours import build_coloured, fitted
from nonolab.formats._common import ClueLines, require_text, shown, split_lines, to_int

# At most 9 digits: int() refuses 4300 and more (a sniffer must never raise), and no grid is that large.
# The colours a file tells apart: a letter each (its reader takes one letter a block).
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_HEADER = re.compile(r"\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*$")
_CLUE = re.compile(r"\s*([A-Za-z]\s*,\s*[0-9]+(\s*,\s*[A-Za-z]\s*,\s*[0-9]+)*)?\s*$")
_INITIALS = {"R": (255, 0, 0), "G": (0, 160, 0), "B": (0, 0, 255), "Y": (255, 215, 0), "K": (0, 0, 0),
             "O": (255, 140, 0), "P": (128, 0, 128), "C": (0, 200, 200), "M": (255, 0, 255), "W": (128, 128, 128)}


def sniff(text: str, whole: bool = True) -> bool:
    """The ``ROWS,COLUMNS`` line, then as many clue lines and nothing more; in a cut head
    (``whole`` false), clue lines up to the cut, no more than the header says."""
    lines = [x for x in split_lines(text)]
    if not lines or not _HEADER.match(lines[0]):
        return False
    rows, cols = (int(v) for v in _HEADER.match(lines[0]).groups())  # type: ignore[union-attr]
    body = lines[1:1 + rows + cols]
    return ((len(body) == rows + cols or not whole)
            and all(_CLUE.match(x) for x in body) and not any(x.strip() for x in lines[1 + rows + cols:]))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    header = _HEADER.match(lines[0])
    if header is None:
        raise ParseError(f"expected 'ROWS,COLUMNS', found {shown(lines[0].strip())}", line=1)
    rows, cols = to_int(header.group(1), 1, "rows"), to_int(header.group(2), 1, "columns")
    blocks: list[list[tuple[int, str]]] = []
    for k in range(rows + cols):
        if k + 1 >= len(lines):
            raise ParseError(f"expected {rows + cols} clue lines, but the file ends after {k}", line=len(lines))
        text_line = lines[k + 1]
        if not _CLUE.match(text_line):
            raise ParseError(f"a clue line is 'C,n,C,n,...', found {shown(text_line.strip())}", line=k + 2)
        fields = [f.strip() for f in text_line.split(",") if f.strip()]
        blocks.append([(to_int(fields[i + 1], k + 2, "block"), fields[i]) for i in range(0, len(fields), 2)])
        if any(n == 0 for n, _ in blocks[-1]):
            raise ParseError("a block of length 0", line=k + 2)
    letters = list(dict.fromkeys(c for line in blocks for _, c in line))
    declared = {"white": ((255, 255, 255), ".")}
    for i, letter in enumerate(letters):
        declared[letter] = (_INITIALS.get(letter.upper(), ((i * 67) % 224, (i * 131) % 224, (i * 193) % 224)),
                            letter)
    return [build_coloured(blocks[:rows], blocks[rows:], "white", declared,
                           ClueLines(rows=list(range(2, rows + 2)), columns=list(range(rows + 2, rows + cols + 2)),
                                     size=1))]


def write(puzzle: Puzzle) -> str:
    """Each colour is written as its palette char when that is a letter, else a letter of its own."""
    puzzle = fitted(puzzle, len(_LETTERS), "ctu", "a letter each")
    palette = puzzle.palette
    chars = [c.char for c in palette] if palette is not None else [".", "B"]
    if not all(ch.isascii() and ch.isalpha() for ch in chars[1:]) or len(set(chars[1:])) != len(chars) - 1:
        chars = ["."] + list(_LETTERS[:len(chars) - 1])
    out = [f"{puzzle.height},{puzzle.width}"]
    for line in puzzle.coloured_rows + puzzle.coloured_columns:
        out.append(",".join(f"{chars[c]},{n}" for n, c in line))
    return "\n".join(out) + "\n"
