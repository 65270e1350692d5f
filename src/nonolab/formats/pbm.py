"""PBM images (``P1`` text, ``P4`` binary carried as latin-1 text): a picture whose
filled pixels are the goal, from which the clues are derived."""

from __future__ import annotations

import re

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats.limits import check_cells
from nonolab.formats._common import eof_line, make_goal, need_goal, split_lines, to_int

_PBM_MAGIC = re.compile(r"P[14][\s#]")
_SPACE = " \t\r\n\v\f"


def sniff(text: str) -> bool:
    return bool(_PBM_MAGIC.match(text))


class _Reader:
    """A cursor over PBM text that knows its line number."""

    def __init__(self, text: str):
        self.text, self.pos, self.line = text, 0, 1

    def skip(self, comments: bool = True) -> None:
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c == "#" and comments:
                nl = text.find("\n", self.pos)
                self.pos = len(text) if nl < 0 else nl
            elif c in _SPACE:
                self.line += c == "\n"
                self.pos += 1
            else:
                break

    def integer(self, what: str) -> int:
        self.skip()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        if start == self.pos:
            raise ParseError(f"expected the image {what}", line=min(self.line, self._eof()))
        return to_int(self.text[start:self.pos], self.line, f"image {what}")

    def _eof(self) -> int:
        return eof_line(split_lines(self.text))


def parse(text: str) -> list[Puzzle]:
    if not text.strip(_SPACE):
        raise ParseError("the file is empty", line=1)
    if not _PBM_MAGIC.match(text):
        raise ParseError("not a PBM image: it must start with 'P1' or 'P4'", line=1)
    r = _Reader(text)
    binary = text[1] == "4"
    r.pos = 2
    width, height = r.integer("width"), r.integer("height")
    if width == 0 or height == 0:
        raise ParseError(f"the image is empty ({width}x{height})", line=r.line)
    check_cells(width, height, r.line)  # before the raster is read
    cells = _raster_p4(r, width, height) if binary else _raster_p1(r, width, height)
    return [Puzzle.from_solution(make_goal(cells, 1))]


def _raster_p1(r: _Reader, width: int, height: int) -> list[list[int]]:
    flat: list[int] = []
    need = width * height
    while len(flat) < need:
        r.skip()
        if r.pos >= len(r.text):
            raise ParseError(f"the image is truncated: {len(flat)} of {need} pixels",
                             line=r._eof())
        c = r.text[r.pos]
        if c not in "01":
            raise ParseError(f"unexpected character {c!r} in the P1 pixels", line=r.line)
        flat.append(1 if c == "1" else 0)
        r.pos += 1
    r.skip()
    if r.pos < len(r.text):
        raise ParseError("unexpected data after the last pixel", line=r.line)
    return [flat[k * width:(k + 1) * width] for k in range(height)]


def _raster_p4(r: _Reader, width: int, height: int) -> list[list[int]]:
    # Exactly one whitespace character separates the height from the bytes.
    if r.pos >= len(r.text) or r.text[r.pos] not in _SPACE:
        raise ParseError("expected one whitespace character before the P4 pixel bytes",
                         line=r.line)
    r.line += r.text[r.pos] == "\n"
    start = r.pos + 1
    stride = (width + 7) // 8
    data = r.text[start:start + stride * height]
    if len(data) < stride * height:
        raise ParseError(f"the image is truncated: {len(data)} of {stride * height} bytes "
                         "of pixel data", line=r.line)
    if max(map(ord, data)) > 255:
        raise ParseError("P4 pixel data must be bytes", line=r.line)
    if r.text[start + stride * height:].strip(_SPACE):
        raise ParseError("unexpected data after the P4 pixel bytes", line=r.line)
    return [[(ord(data[k * stride + (c >> 3)]) >> (7 - (c & 7))) & 1 for c in range(width)]
            for k in range(height)]


def write(puzzle: Puzzle) -> str:
    goal = need_goal(puzzle, "pbm")
    out = ["P1"]
    if puzzle.name:
        out.append("# " + " ".join(puzzle.name.split()))
    out.append(f"{goal.width} {goal.height}")
    for row in goal:
        digits = "".join(map(str, row))
        # netpbm: no line longer than 70 characters.
        out += [digits[k:k + 70] for k in range(0, len(digits), 70)]
    return "\n".join(out) + "\n"
