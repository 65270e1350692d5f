"""Simon Tatham's Pattern game ID: ``WxH:desc[,givens]``.

``desc`` lists the W column clues then the H row clues, separated by ``/``, with
``.`` between the numbers of one clue and an empty field for an empty line.  The
optional ``givens`` (pre-filled cells, run-length encoded: a letter ``a``-``y`` skips
that many cells, then gives one, lower case empty and upper case filled; ``z`` skips 25)
are checked as ``pattern.c`` does and read into the puzzle's givens, which every
solver honours; a puzzle's givens are written back the same way.

>>> p = parse("2x2:1/1/1/1,Ac")[0]
>>> p.givens, write(p)
(((0, 0, 1), (1, 1, 0)), '2x2:1/1/1/1,Ac\\n')
"""

from __future__ import annotations

import re

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.core.words import counted
from nonolab.formats.limits import check_cells
from nonolab.formats._common import (ClueLines, DIGITS, build, is_blank, require_text, shown, split_lines,
                                     to_int, with_givens)

_GAME_ID = re.compile(r"([0-9]+)x([0-9]+):(.*)")


def sniff(text: str) -> bool:
    content = [x for x in split_lines(text) if not is_blank(x)]
    return len(content) == 1 and bool(_GAME_ID.match(content[0].strip()))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    content = [i for i, x in enumerate(lines) if not is_blank(x)]
    if len(content) > 1:
        raise ParseError("a Tatham game ID is a single line", line=content[1] + 1)
    line = content[0] + 1
    m = _GAME_ID.fullmatch(lines[content[0]].strip())
    if not m:
        raise ParseError("not a Tatham game ID (expected 'WxH:clues')", line=line)
    width, height = to_int(m.group(1), line, "width"), to_int(m.group(2), line, "height")
    check_cells(width, height, line)  # before any clue is read
    desc, comma, givens = m.group(3).partition(",")
    fields = desc.split("/")
    if len(fields) != width + height:
        raise ParseError(f"{counted(len(fields), 'clue')}, but a {width}x{height} puzzle needs "
                         f"{width + height} ({counted(width, 'column')}, then {counted(height, 'row')})", line=line)
    clues = []
    for k, f in enumerate(fields):
        what = f"column {k + 1}" if k < width else f"row {k - width + 1}"
        blocks = []
        for token in f.split(".") if f else ():
            if not DIGITS.fullmatch(token):
                raise ParseError(f"{what}: {shown(token)} is not a number", line=line)
            n = to_int(token, line, f"{what} block")
            if n == 0:
                raise ParseError(f"{what}: blocks must be positive", line=line)
            blocks.append(n)
        clues.append(tuple(blocks))
    made = build(clues[width:], clues[:width], ClueLines(rows=[line] * height, columns=[line] * width, size=line))
    if not comma:
        return [made]
    _check_givens(givens, width * height, line)
    return [with_givens(made, _decoded(givens, width, height), line)]


def _decoded(givens: str, width: int, height: int) -> dict[tuple[int, int], int]:
    """The given cells of a checked suffix, as ``pattern.c``'s new_game sets them."""
    found, i = {}, 0
    for c in givens:
        skip = ord(c.lower()) - ord("a")
        i += skip
        if skip < 25 and i < width * height:
            found[divmod(i, width)] = int(c.isupper())
            i += 1
    return found


def _encoded(puzzle: Puzzle) -> str:
    """The givens suffix of ``puzzle``: each run of up to 24 cells with no given, then a
    given (its letter says how many cells it skips), ``z`` for 25 skipped cells; the end
    of the grid needs no letter (``pattern.c`` stops at the last cell)."""
    out, at = [], 0
    for r, c, v in puzzle.givens:
        i = r * puzzle.width + c
        while i - at >= 25:
            out.append("z")
            at += 25
        letter = chr(ord("a") + i - at)
        out.append(letter.upper() if v else letter)
        at = i + 1
    area = puzzle.width * puzzle.height
    while at < area:      # pattern.c reads letters until the grid is covered
        step = min(25, area - at)
        out.append("z" if step == 25 else chr(ord("a") + step))
        at += step
    return "".join(out)


def _check_givens(givens: str, area: int, line: int) -> None:
    """Validate the pre-filled cells suffix exactly as ``pattern.c``'s validate_desc."""
    i = k = 0
    while i < area:
        if k >= len(givens):
            raise ParseError("too little data in the givens section", line=line)
        c = givens[k]
        k += 1
        if not ("a" <= c <= "z" or "A" <= c <= "Z"):
            raise ParseError(f"unrecognised character {c!r} in the givens section", line=line)
        skip = ord(c.lower()) - ord("a")
        i += skip
        if skip < 25 and i < area:
            i += 1
        if i > area:
            raise ParseError("too much data in the givens section", line=line)
    if k < len(givens):
        raise ParseError("too much data in the givens section", line=line)


def write(puzzle: Puzzle) -> str:
    desc = "/".join(".".join(map(str, c)) for c in puzzle.columns + puzzle.rows)
    if puzzle.givens:
        desc += "," + _encoded(puzzle)
    return f"{puzzle.width}x{puzzle.height}:{desc}\n"
