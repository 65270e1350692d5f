"""Jakub Wilk's ``.nin``: ``W H``, then H row clues, then W column clues, no separator.

The format has no signature, so the file suffix is the reliable way to select it;
content sniffing tries it last.  Text after the last column clue is ignored, as
jwilk's solver and pbnsolve do: some published files (jwilk's ``data142.nin``)
carry trailing junk.
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.formats._common import (ClueLines, CLUE_LINE, build, clue_text, first_content,
                                     numbers_only, read_clue_block, read_header, require_text,
                                     split_lines)


def sniff(text: str) -> bool:
    lines = split_lines(text)
    i = first_content(lines)
    return (i < len(lines) and numbers_only(lines[i], 2)
            and all(CLUE_LINE.fullmatch(x) for x in lines[i + 1:]))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    i = first_content(lines)
    width, height = read_header(lines, i, ("width", "height"))
    rows, row_lines = read_clue_block(lines, i + 1, height, "row")
    cols, col_lines = read_clue_block(lines, i + 1 + height, width, "column")
    return [build(rows, cols, ClueLines(rows=row_lines, columns=col_lines, size=i + 1))]


def write(puzzle: Puzzle) -> str:
    out = [f"{puzzle.width} {puzzle.height}"]
    out += [clue_text(c, " ") for c in puzzle.rows + puzzle.columns]
    return "\n".join(out) + "\n"
