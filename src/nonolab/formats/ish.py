"""webpbn's ``ish`` export: the row clues, a blank line, the column clues, with
comma-separated numbers and ``#`` comment lines.

The shape is as nonogrid's reader records it (``src/parser.rs``); no file
exported in this format was at hand to check it against.  ``0`` is an empty line.

>>> parse("# t\\n1,1\\n\\n1\\n0\\n1\\n")[0].rows
((1, 1),)
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.formats import _blocks
from nonolab.formats._cluelist import comment_title


def parse(text: str) -> list[Puzzle]:
    return _blocks.read(text, comment="#")


def sniff(text: str, whole: bool = True) -> bool:
    """Two blocks of clue lines (``#`` comments allowed) whose clues fit together.  A cut
    head (``whole`` false) shows nothing of ish's own (keen's reason)."""
    return whole and _blocks.plausible(text, comment="#") and _blocks.parses(parse, text)


def write(puzzle: Puzzle) -> str:
    out = comment_title(puzzle.name) + _blocks.lines_of(puzzle.rows, ",")
    out += [""] + _blocks.lines_of(puzzle.columns, ",")
    return "\n".join(out) + "\n"
