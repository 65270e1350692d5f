"""Kyle Keen's solver format, version 2 (webpbn export ``keen``; gramcracker's files).

The row clues one per line (numbers separated by spaces, ``0`` for an empty
line), one blank line, then the column clues; no size line and no comments.
danioellay/gramcracker's ``survey_by_numbers_dataset/*.txt`` are this format
(its README: "Format used in version 2 of Kyle Keen's Python solver").

>>> parse("1 1\\n0\\n\\n1\\n0\\n1\\n")[0].columns
((1,), (), (1,))
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.formats import _blocks


def parse(text: str) -> list[Puzzle]:
    return _blocks.read(text)


def sniff(text: str, whole: bool = True) -> bool:
    """Space-separated clue lines in two blocks whose clues fit together.  A cut head
    (``whole`` false) shows nothing of keen's own: number lines and a blank line are
    cwd's and nin's too, and only the whole text's fit tells them apart."""
    return whole and "," not in text and _blocks.plausible(text) and _blocks.parses(parse, text)


def write(puzzle: Puzzle) -> str:
    out = _blocks.lines_of(puzzle.rows, " ") + [""] + _blocks.lines_of(puzzle.columns, " ")
    return "\n".join(out) + "\n"
