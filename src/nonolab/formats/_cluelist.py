"""Clue lists as pynogram's text files and nonogrid's TOML write them.

A list is lines of clues separated by commas and/or line breaks; a clue is its
block lengths separated by spaces, optionally quoted (``'1 1'``); ``0`` is an
empty line; ``#`` or ``;`` starts a comment; a trailing comma is allowed (lists
copied from source code).  A block with a colour suffix (``2g``) belongs to a
colour puzzle, which is refused for now, naming the colour.

>>> [c for c, _ in clue_items([(3, "3, '1 1', 0  # the H"), (4, "  2,")])]
[(3,), (1, 1), (), (2,)]
"""

from __future__ import annotations

import re
from typing import Iterable

from nonolab.core.puzzle import Clue
from nonolab.errors import ParseError
from nonolab.formats._common import DIGITS, shown, to_int

_COMMENT = re.compile(r"[#;]")
_COLOURED = re.compile(r"([0-9]+)([A-Za-z_][\w-]*)")


def strip_comment(text: str) -> str:
    """``text`` without its ``#`` or ``;`` comment."""
    match = _COMMENT.search(text)
    return text if match is None else text[:match.start()]


def colour_refusal(names: Iterable[str], line: int) -> ParseError:
    """The one error every reader gives for a colour puzzle, naming its colours."""
    listed = ", ".join(dict.fromkeys(names))
    return ParseError(f"colour puzzle (colours: {listed}) is not supported yet", line=line)


def parse_item(item: str, line: int) -> Clue:
    """One clue: block lengths separated by spaces; a lone ``0`` is an empty line."""
    tokens = item.split()
    if not tokens:
        raise ParseError("empty clue between commas (write 0 for an empty line)", line=line)
    numbers = []
    for token in tokens:
        if DIGITS.fullmatch(token):
            numbers.append(to_int(token, line, "clue number"))
            continue
        coloured = _COLOURED.fullmatch(token)
        if coloured:
            raise colour_refusal([coloured.group(2)], line)
        raise ParseError(f"clue number {shown(token)} is not a non-negative integer", line=line)
    if numbers == [0]:
        return ()
    if 0 in numbers:
        raise ParseError(f"block 0 inside the clue {shown(item.strip())} (a lone 0 means an "
                         "empty line)", line=line)
    return tuple(numbers)


def clue_items(lines: Iterable[tuple[int, str]]) -> list[tuple[Clue, int]]:
    """The clues of numbered lines ``(line, text)``, each with the line it is on."""
    out: list[tuple[Clue, int]] = []
    for number, text in lines:
        body = strip_comment(text).strip().strip(",")
        if not body.strip():
            continue
        for item in body.split(","):
            out.append((parse_item(item.strip().strip("'\"").strip(), number), number))
    return out


def write_list(clues: Iterable[Clue], indent: str = "    ") -> list[str]:
    """One clue per line, ``0`` for an empty one."""
    return [indent + (" ".join(map(str, c)) if c else "0") for c in clues]


def comment_title(name: str, mark: str = "#") -> list[str]:
    """A title as a one-line comment (line breaks become spaces); none if unnamed."""
    title = " ".join(name.split())
    return [f"{mark} {title}"] if title else []
