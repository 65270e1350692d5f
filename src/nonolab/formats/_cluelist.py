"""Clue lists as pynogram's text files and nonogrid's TOML write them.

A list is lines of clues separated by commas and/or line breaks; a clue is its
block lengths separated by spaces, optionally quoted (``'1 1'``); ``0`` is an
empty line; ``#`` or ``;`` starts a comment; a trailing comma is allowed (lists
copied from source code).  A block may carry a colour suffix (``2g``): its colour's
name; an unsuffixed block has ``None`` (black).

>>> [c for c, _ in clue_items([(3, "3, '1 1', 0  # the H"), (4, "  2g,")])]
[((3, None),), ((1, None), (1, None)), (), ((2, 'g'),)]
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import ClueLines, DIGITS, build, one_line, shown, to_int

_COMMENT = re.compile(r"[#;]")
_COLOURED = re.compile(r"([0-9]+)([A-Za-z_][\w-]*)")


def strip_comment(text: str) -> str:
    """``text`` without its ``#`` or ``;`` comment."""
    match = _COMMENT.search(text)
    return text if match is None else text[:match.start()]


ColouredClue = tuple[tuple[int, "str | None"], ...]
_DEF = re.compile(r"\(\s*([^)]*?)\s*\)\s*(\S)?\s*$")


def parse_item(item: str, line: int) -> ColouredClue:
    """One clue: block lengths (with an optional colour suffix) separated by spaces; a
    lone ``0`` is an empty line."""
    tokens = item.split()
    if not tokens:
        raise ParseError("empty clue between commas (write 0 for an empty line)", line=line)
    numbers: list[tuple[int, str | None]] = []
    for token in tokens:
        if DIGITS.fullmatch(token):
            numbers.append((to_int(token, line, "clue number"), None))
            continue
        coloured = _COLOURED.fullmatch(token)
        if coloured:
            numbers.append((to_int(coloured.group(1), line, "clue number"), coloured.group(2)))
            continue
        raise ParseError(f"clue number {shown(token)} is not a non-negative integer", line=line)
    if [n for n, _ in numbers] == [0]:
        return ()
    if any(n == 0 for n, _ in numbers):
        raise ParseError(f"block 0 inside the clue {shown(item.strip())} (a lone 0 means an "
                         "empty line)", line=line)
    return tuple(numbers)


def colour_def(text: str, line: int) -> tuple[tuple[int, int, int], str | None]:
    """``(blue) *``, ``(FF0000) %``, ``(0, 204, 0) &``: an RGB value and its symbol."""
    from nonolab.formats._colours import parse_rgb

    m = _DEF.match(text.strip())
    rgb = parse_rgb(m.group(1)) if m else None
    if rgb is None:
        raise ParseError(f"colour {shown(text.strip())} is not '(name, hex or r, g, b) symbol'", line=line)
    return rgb, m.group(2)  # type: ignore[union-attr]


def build_items(rows: list[tuple[ColouredClue, int]], cols: list[tuple[ColouredClue, int]],
                defs: Mapping[str, tuple[tuple[int, int, int], str | None]], size_line: int, **extra: Any) -> Puzzle:
    """The puzzle of clue items: black and white unless a colour is defined or used
    (an unsuffixed block is black; ``W``/``B`` name white and black, as in nonogrid)."""
    used = {c for clue, _ in rows + cols for _, c in clue if c is not None}
    plain = {"black", "white", "B", "W"}
    if not used - plain and not set(defs) - plain:
        return build([tuple(n for n, _ in c) for c, _ in rows], [tuple(n for n, _ in c) for c, _ in cols],
                     ClueLines(rows=[n for _, n in rows], columns=[n for _, n in cols], size=size_line), **extra)
    from nonolab.formats._colours import build_coloured

    alias = {"B": "black", "W": "white"}   # and no suffix: black
    unknown = sorted(used - set(defs) - plain)
    if unknown:
        line = next(n for c, n in rows + cols if any(k in unknown for _, k in c))
        raise ParseError(f"colour {unknown[0]!r} is not defined in [colors]", line=line)
    declared = {"white": ((255, 255, 255), None), "black": ((0, 0, 0), None), **defs}

    def blocks(items: list[tuple[ColouredClue, int]]) -> list[list[tuple[int, str]]]:
        return [[(n, "black" if c is None else alias.get(c, c)) for n, c in clue] for clue, _ in items]

    return build_coloured(blocks(rows), blocks(cols), "white", declared,
                          ClueLines(rows=[n for _, n in rows], columns=[n for _, n in cols], size=size_line), **extra)


def write_coloured(puzzle: Puzzle, indent: str = "    ", fits: Callable[[str], bool] | None = None
                   ) -> tuple[list[str], list[str], list[str]]:
    """A colour puzzle as colour definitions ``name = (RRGGBB) char`` and the two clue
    lists with suffixes (the suffix names the colour: a letter, ``c27`` past the 26th);
    each char one ``fits`` takes (by default one :func:`~nonolab.formats._colours.visible`)."""
    from nonolab.formats._colours import visible, written_chars

    palette = puzzle.palette
    assert palette is not None
    chars = written_chars(palette, fits or visible)
    # A letter a colour, then (past 26) ``c27``, ``c28``...: a suffix is a name, and any palette fits.
    suffix = list("abcdefghijklmnopqrstuvwxyz") + [f"c{i}" for i in range(27, len(palette))]
    defs = [f"{suffix[i - 1]} = ({palette.hex(i)}) {chars[i]}" for i in range(1, len(palette))]

    def lines(clues: Iterable[tuple[tuple[int, int], ...]]) -> list[str]:
        return [indent + (" ".join(f"{n}{suffix[c - 1]}" for n, c in line) or "0") for line in clues]

    return defs, lines(puzzle.coloured_columns), lines(puzzle.coloured_rows)


def clue_items(lines: Iterable[tuple[int, str]]) -> list[tuple[ColouredClue, int]]:
    """The clues of numbered lines ``(line, text)``, each with the line it is on."""
    out: list[tuple[ColouredClue, int]] = []
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
    """A title as a one-line comment (line breaks and control characters become spaces);
    none if unnamed."""
    title = one_line(name)
    return [f"{mark} {title}"] if title else []
