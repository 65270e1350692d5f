"""Pictures as a text grid (``#``/``.``, or ``1``/``0``): the picture becomes the goal
and the clues are derived from it.  PBM images are :mod:`nonolab.formats.pbm`."""

from __future__ import annotations

import re

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.core.words import counted
from nonolab.formats._common import is_blank, need_goal, require_text, split_lines
from nonolab.formats.limits import check_cells

_CELLS = {"#": 1, "X": 1, "x": 1, "1": 1, ".": 0, "0": 0}
_HASH_DOT = re.compile(r"[#.Xx]+")
_ZERO_ONE = re.compile(r"[01]+")


def _body(lines: list[str]) -> tuple[int, int]:
    first = next((i for i, x in enumerate(lines) if not is_blank(x)), len(lines))
    last = max((i for i, x in enumerate(lines) if not is_blank(x)), default=-1)
    return first, last + 1


def sniff(text: str) -> bool:
    """Every line is cells of one width; ``0``/``1`` grids need two columns or more,
    as a single column of them reads as clue lines."""
    lines = split_lines(text)
    first, end = _body(lines)
    rows = [x.rstrip() for x in lines[first:end]]
    if not rows or len({len(r) for r in rows}) != 1:
        return False
    return (all(_HASH_DOT.fullmatch(r) for r in rows)
            or (len(rows[0]) > 1 and all(_ZERO_ONE.fullmatch(r) for r in rows)))


_TO_BYTES = str.maketrans({"#": "\x01", "X": "\x01", "x": "\x01", "1": "\x01", ".": "\x00", "0": "\x00"})


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    first, end = _body(lines)
    width = len(lines[first].rstrip())
    check_cells(width, end - first, first + 1)   # before any row is converted
    rows = []
    for i in range(first, end):
        row = lines[i].rstrip()
        if not row:
            raise ParseError("blank line inside the picture", line=i + 1)
        if row.strip("#.Xx10"):
            bad = next(c for c in row if c not in _CELLS)
            raise ParseError(f"unexpected character {bad!r} in the picture (use # or X for "
                             "filled and . for empty, or 1 and 0)", line=i + 1)
        if len(row) != width:
            raise ParseError(f"this row has {counted(len(row), 'cell')} but the first row (line {first + 1}) "
                             f"has {width}", line=i + 1)
        rows.append(row)
    cells = "".join(rows).translate(_TO_BYTES).encode("latin-1")
    return [Puzzle.from_solution(Solution.from_bytes(cells, width))]


def write(puzzle: Puzzle) -> str:
    return need_goal(puzzle, "picture").to_text() + "\n"
