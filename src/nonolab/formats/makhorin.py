"""Andrew Makhorin's ``pbnsol`` input (webpbn export ``makhorin``).

``*`` starts a comment line; the row clues one per line (top to bottom), a line
``&``, then the column clues (left to right); ``0`` is an empty line.

>>> parse("* a comment\\n2\\n&\\n1\\n1\\n")[0].columns
((1,), (1,))
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.formats import _blocks
from nonolab.formats._cluelist import comment_title
from nonolab.formats._common import split_lines


def parse(text: str) -> list[Puzzle]:
    return _blocks.read(text, comment="*", marker="&")


def sniff(text: str, whole: bool = True) -> bool:
    """A line ``&`` between two blocks of clues that fit together; in a cut head (``whole``
    false), the ``&`` line and clues that read up to the cut."""
    return (any(x.strip() == "&" for x in split_lines(text))
            and (not whole or _blocks.plausible(text, comment="*", marker="&"))
            and _blocks.parses(parse, text, whole))


def write(puzzle: Puzzle) -> str:
    out = comment_title(puzzle.name, "*") + _blocks.lines_of(puzzle.rows, " ")
    out += ["&"] + _blocks.lines_of(puzzle.columns, " ")
    return "\n".join(out) + "\n"
