"""The ``.cwd`` format (QNonograms, Copris): H and W on their own lines, the row
clues, a blank line, the column clues."""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import (ClueLines, CLUE_LINE, build, check_trailing, clue_text, eof_line,
                                     first_content, is_blank, numbers_only, read_clue_block,
                                     read_header, require_text, split_lines)


def sniff(text: str) -> bool:
    lines = split_lines(text)
    i = first_content(lines)
    if not (i + 1 < len(lines) and numbers_only(lines[i], 1) and numbers_only(lines[i + 1], 1)):
        return False
    height = lines[i].split()[0].lstrip("0") or "0"
    if len(height) > 6:
        return False
    sep = i + 2 + int(height)
    return (sep < len(lines) and is_blank(lines[sep])
            and all(CLUE_LINE.fullmatch(x) for x in lines[i + 2:]))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    i = first_content(lines)
    (height,) = read_header(lines, i, ("height",))
    (width,) = read_header(lines, i + 1, ("width",))
    rows, row_lines = read_clue_block(lines, i + 2, height, "row")
    j = i + 2 + height
    if j >= len(lines) or not is_blank(lines[j]):
        raise ParseError(f"expected a blank line after the {height} row clues",
                         line=j + 1 if j < len(lines) else eof_line(lines))
    cols, col_lines = read_clue_block(lines, j + 1, width, "column")
    check_trailing(lines, j + 1 + width, "last column clue")
    return [build(rows, cols, ClueLines(rows=row_lines, columns=col_lines, size=i + 1))]


def write(puzzle: Puzzle) -> str:
    out = [str(puzzle.height), str(puzzle.width)]
    out += [clue_text(c, " ") for c in puzzle.rows]
    out.append("")
    out += [clue_text(c, " ") for c in puzzle.columns]
    return "\n".join(out) + "\n"
