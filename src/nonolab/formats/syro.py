"""webpbn's ``syro`` export: like ``keen``, but every clue line ends with a ``0``.

The row clues one per line, each ending with ``0`` (an empty line is ``0``
alone), a blank line, then the column clues; ``#`` starts a comment line.  The
shape is as nonogrid's reader records it (``src/parser.rs``); no file exported
in this format was at hand to check it against.

>>> parse("# t\\n1 1 0\\n\\n1 0\\n0\\n1 0\\n")[0].rows
((1, 1),)
"""

from __future__ import annotations

import re

from nonolab.core.puzzle import Puzzle
from nonolab.formats import _blocks
from nonolab.formats._cluelist import comment_title
from nonolab.formats._common import is_blank, split_lines


def parse(text: str) -> list[Puzzle]:
    return _blocks.read(text, comment="#", terminated=True)


def sniff(text: str, whole: bool = True) -> bool:
    """Every clue line ends with the ``0`` block, and the clues fit together; in a cut head
    (``whole`` false), every line ends so and the clues read up to the cut."""
    body = [x for x in split_lines(text) if not is_blank(x) and not x.lstrip().startswith("#")]
    return (bool(body) and all(re.split(r"[\s,]+", x.strip())[-1] == "0" for x in body)
            and (not whole or _blocks.plausible(text, comment="#"))
            and _blocks.parses(parse, text, whole))


def write(puzzle: Puzzle) -> str:
    out = comment_title(puzzle.name) + _blocks.lines_of(puzzle.rows, " ", " 0")
    out += [""] + _blocks.lines_of(puzzle.columns, " ", " 0")
    return "\n".join(out) + "\n"
