"""Olšák's simple ``.mk``: ``H W``, H row clues, a ``#`` line, W column clues.

``#`` lines before the header and after the last clue are comments.
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import (ClueLines, build, clue_text, eof_line, first_content, is_blank,
                                     numbers_only, read_clue_block, read_header, require_text,
                                     split_lines)


def _is_hash(line: str) -> bool:
    return line.lstrip().startswith("#")


def _skippable(line: str) -> bool:
    return is_blank(line) or _is_hash(line)


def sniff(text: str) -> bool:
    lines = split_lines(text)
    i = first_content(lines, _skippable)
    return (i < len(lines) and numbers_only(lines[i], 2)
            and any(_is_hash(x) for x in lines[i + 1:]))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    i = first_content(lines, _skippable)
    height, width = read_header(lines, i, ("height", "width"))
    rows, row_lines = read_clue_block(lines, i + 1, height, "row", _is_hash)
    j = i + 1 + height
    while j < len(lines) and is_blank(lines[j]):
        j += 1
    if j >= len(lines) or not _is_hash(lines[j]):
        raise ParseError(f"expected a '#' line after the {height} row clues",
                         line=j + 1 if j < len(lines) else eof_line(lines))
    cols, col_lines = read_clue_block(lines, j + 1, width, "column", _is_hash)
    for k in range(j + 1 + width, len(lines)):
        if not _skippable(lines[k]):
            raise ParseError(f"unexpected text after the {width} column clues", line=k + 1)
    return [build(rows, cols, ClueLines(rows=row_lines, columns=col_lines, size=i + 1))]


def write(puzzle: Puzzle) -> str:
    out = [f"{puzzle.height} {puzzle.width}"]
    out += [clue_text(c, " ") for c in puzzle.rows]
    out.append("#")
    out += [clue_text(c, " ") for c in puzzle.columns]
    return "\n".join(out) + "\n"
