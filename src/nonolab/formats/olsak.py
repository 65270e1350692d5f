"""Olšák's ``.g`` format (griddlers), black-and-white puzzles only.

Text before the first line starting with ``#`` or ``:`` is a comment.  ``#d``
declares colours: only the background (inchar ``0``) and a default colour (inchar
``1``) are accepted.  ``: rows`` starts the row clues, one line per row; the next
``:`` line starts the column clues, and a final ``:`` line ends the task.
"""

from __future__ import annotations

import re
from typing import Sequence

from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import (build, clue_text, eof_line, is_blank, parse_clue,
                                     require_text, split_lines)

_ROWS = re.compile(r":\s*rows", re.IGNORECASE)
# The outchar may be a space ("0:   white" in Olšák's spaceShuttle.g).
_DECLARATION = re.compile(r"(\S):(.)\s*(\S+)")


def sniff(text: str) -> bool:
    return any(_ROWS.match(x) or x[:2] in ("#d", "#D") for x in split_lines(text))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    i = 0
    while i < len(lines) and not lines[i].startswith(":"):
        if lines[i][:2] in ("#d", "#D"):
            i = _colours(lines, i)
            break
        if lines[i][:2] in ("#t", "#T"):
            raise ParseError("triddlers are not supported", line=i + 1)
        i += 1
    if i >= len(lines):
        raise ParseError("no ': rows' section (no line starts with ':')", line=eof_line(lines))
    rows_line = i + 1
    rows, row_lines, i = _section(lines, i + 1)
    if i >= len(lines):
        raise ParseError("no column section: the row clues are not followed by a ':' line",
                         line=eof_line(lines))
    cols, col_lines, _ = _section(lines, i + 1)
    return [build(rows, cols, row_lines=row_lines, col_lines=col_lines, size_line=rows_line)]


def _colours(lines: Sequence[str], start: int) -> int:
    """Check a ``#d`` block; returns the index of the ``:`` line that ends it."""
    declared: dict[str, tuple[str, int]] = {}
    j = start + 1
    while j < len(lines) and not lines[j].lstrip().startswith(":"):
        if not is_blank(lines[j]):
            m = _DECLARATION.match(lines[j].strip())
            if not m:
                raise ParseError("bad colour declaration (expected 'inchar:outchar colour')",
                                 line=j + 1)
            declared[m.group(1)] = (m.group(3), j + 1)
        j += 1
    extra = {k: v for k, v in declared.items() if k not in "01"}
    if extra:
        names = sorted(name for name, _ in extra.values())
        raise ParseError(f"colour puzzle (colours: {', '.join(names)}) is not supported",
                         line=min(line for _, line in extra.values()))
    if "1" not in declared:
        raise ParseError("the colour declarations give no default colour (inchar 1)",
                         line=start + 1)
    return j


def _section(lines: Sequence[str], start: int) -> tuple[list[Clue], list[int], int]:
    """Clue lines up to the next line starting with ``:``; returns its index too."""
    j = start
    while j < len(lines) and not lines[j].startswith(":"):
        j += 1
    end = j
    if j >= len(lines):
        # Without a closing ':' line, trailing blank lines are layout, not empty lines.
        while end > start and is_blank(lines[end - 1]):
            end -= 1
    return ([parse_clue(lines[k], k + 1) for k in range(start, end)],
            list(range(start + 1, end + 1)), j)


def write(puzzle: Puzzle) -> str:
    # A blank line is an empty line: pbnsolve refuses a literal 0 in .g files.
    out = [": rows"]
    out += [clue_text(c, " ", "") for c in puzzle.rows]
    out.append(": columns")
    out += [clue_text(c, " ", "") for c in puzzle.columns]
    out.append(": end")
    return "\n".join(out) + "\n"
