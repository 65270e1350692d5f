"""webpbn's ``faase`` export (Frans Faase's solver): a ``rows`` line, the row
clues, a ``columns`` line, the column clues.

One clue per line, numbers separated by spaces (or commas), ``0`` for an empty
line; blank lines are ignored.  The shape is as nonogrid's reader records it
(``src/parser.rs``, sections headed ``rows`` and ``columns``); no file exported
in this format was at hand to check it against, so anything before ``rows`` is
refused rather than guessed at.

>>> parse("rows\\n1 1\\ncolumns\\n1\\n0\\n1\\n")[0].columns
((1,), (), (1,))
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats import _blocks
from nonolab.formats._common import (ClueLines, build, eof_line, first_content, is_blank, parse_clue,
                                     require_text, shown, split_lines)


def _is(line: str, word: str) -> bool:
    return line.strip().lower() == word


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    start = first_content(lines)
    if not _is(lines[start], "rows"):
        raise ParseError(f"expected a 'rows' line, found {shown(lines[start].strip())}",
                         line=start + 1)
    heads = [i for i, x in enumerate(lines) if _is(x, "columns")]
    if not heads:
        raise ParseError("no 'columns' line after the row clues", line=eof_line(lines))
    again = [i for i, x in enumerate(lines) if _is(x, "rows")][1:] + heads[1:]
    if again:
        raise ParseError(f"a second {shown(lines[min(again)].strip())} line", line=min(again) + 1)
    sections = {}
    for kind, first, end in (("row", start + 1, heads[0]), ("column", heads[0] + 1, len(lines))):
        where = [i + 1 for i in range(first, end) if not is_blank(lines[i])]
        if not where:
            raise ParseError(f"no {kind} clues", line=first)
        sections[kind] = ([parse_clue(lines[n - 1], n) for n in where], where)
    (rows, row_lines), (cols, col_lines) = sections["row"], sections["column"]
    return [build(rows, cols, ClueLines(rows=row_lines, columns=col_lines, size=start + 1))]


def sniff(text: str, whole: bool = True) -> bool:
    """The first line is ``rows`` and the clues fit together; in a cut head (``whole``
    false), the clues read up to the cut."""
    lines = split_lines(text)
    start = first_content(lines)
    return start < len(lines) and _is(lines[start], "rows") and _blocks.parses(parse, text, whole)


def write(puzzle: Puzzle) -> str:
    out = ["rows"] + _blocks.lines_of(puzzle.rows, " ")
    out += ["columns"] + _blocks.lines_of(puzzle.columns, " ")
    return "\n".join(out) + "\n"
