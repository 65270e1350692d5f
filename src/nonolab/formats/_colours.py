"""Colours as the formats write them, and colour clues turned into a Puzzle.

Every colour reader collects its declared colours (name, RGB, char) and its clues as
``(length, colour name)`` blocks, and hands them to :func:`build_coloured`: the palette
keeps the background and the colours the clues (or the goal) use, in declaration
order, so a file that declares colours but uses one is a black-and-white puzzle.

>>> parse_rgb("#f00"), parse_rgb("00A000"), parse_rgb("(0, 204, 0)"), parse_rgb("brown")
((255, 0, 0), (0, 160, 0), (0, 204, 0), (165, 42, 42))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain, count
from typing import Any, Callable, Mapping, Sequence

from nonolab.core.grid import Solution
from nonolab.core.palette import RGB, Colour, Palette
from nonolab.core.puzzle import Puzzle
from nonolab.core.used_colours import over_used_colours
from nonolab.errors import InvalidPuzzle, ParseError
from nonolab.formats._common import ClueLines, build, shown

# The SVG/X11 names the real files use, and the usual others.
NAMED: dict[str, RGB] = {
    "white": (255, 255, 255), "black": (0, 0, 0), "red": (255, 0, 0), "green": (0, 128, 0),
    "lime": (0, 255, 0), "blue": (0, 0, 255), "yellow": (255, 255, 0), "orange": (255, 165, 0),
    "brown": (165, 42, 42), "purple": (128, 0, 128), "pink": (255, 192, 203), "grey": (128, 128, 128),
    "gray": (128, 128, 128), "cyan": (0, 255, 255), "magenta": (255, 0, 255), "navy": (0, 0, 128),
    "maroon": (128, 0, 0), "olive": (128, 128, 0), "teal": (0, 128, 128), "silver": (192, 192, 192),
    "gold": (255, 215, 0), "violet": (238, 130, 238), "darkgreen": (0, 100, 0), "darkblue": (0, 0, 139),
    "darkred": (139, 0, 0), "lightblue": (173, 216, 230), "lightgreen": (144, 238, 144),
    "lightgray": (211, 211, 211), "lightgrey": (211, 211, 211), "darkgray": (169, 169, 169),
    "darkgrey": (169, 169, 169), "beige": (245, 245, 220), "tan": (210, 180, 140),
    "skyblue": (135, 206, 235), "khaki": (240, 230, 140), "salmon": (250, 128, 114),
    "turquoise": (64, 224, 208), "indigo": (75, 0, 130), "crimson": (220, 20, 60),
    "chocolate": (210, 105, 30), "coral": (255, 127, 80), "tomato": (255, 99, 71),
}
_HEX = re.compile(r"#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})")
_TRIPLE = re.compile(r"\(?\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*\)?")
# Chars given to colours whose file names none (or one already taken).
_SPARE = "#abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWYZ*%@&+=$~^"


class Declared(dict):
    """A file's colour declarations, ``{name: value}``, as a colour reader collects them: a
    name declared again with another value is an error naming both lines, where a dict
    kept the last in silence (two ``<color name="a">`` of different RGB, or two colours
    whose names a writer's format could not tell apart and merged); the same value again
    is no conflict.

    >>> d = Declared()
    >>> d.declare("red", ((255, 0, 0), "r"), 3); d.declare("red", ((255, 0, 0), "r"), 4)
    >>> d.declare("red", ((9, 9, 9), "r"), 7)
    Traceback (most recent call last):
    ...
    nonolab.errors.ParseError: line 7: colour 'red' declared twice, differently (first on line 3)
    """

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[str, int | None] = {}
        self._agreeing: dict[str, Any] = {}

    def declare(self, name: str, value: Any, line: int | None, same: Any = None) -> None:
        """Declare ``name`` as ``value`` on ``line``; ``same`` (default ``value``) is what must
        agree with an earlier declaration of the name."""
        same = value if same is None else same
        if name in self:
            if self._agreeing[name] != same:
                first = self.lines[name]
                where = f" (first on line {first})" if first is not None and first != line else ""
                raise ParseError(f"colour {shown(name)} declared twice, differently{where}", line=line)
            return
        self[name] = value
        self.lines[name] = line
        self._agreeing[name] = same


def visible(char: str) -> bool:
    """Whether ``char`` can stand for a colour in a line of text: printable, not white space
    (a line break, a tab or a control character is layout, or no text at all).

    >>> visible("a"), visible("?"), visible("\\n"), visible(" "), visible("\\x01")
    (True, True, False, False, False)
    """
    return char.isprintable() and not char.isspace()


def written_chars(palette: Palette, fits: Callable[[str], bool] = visible) -> list[str]:
    """The char of each colour of ``palette`` as a writer puts it in its text: the palette's
    own where the format takes it (``fits``), else a spare one no other colour has (``.`` for
    the background when free).  A palette's chars are any single characters (a JSON or XML
    file may give ``?``, ``|`` or a line break), and a writer that wrote them as they are
    wrote files its own reader refuses (a webpbn image cut at ``|``, a JSON goal row split at
    the line break); the chars only draw the colours, so another one keeps the puzzle.

    >>> p = Palette.of(("red", (255, 0, 0), "|"), ("blue", (0, 0, 255), "\\n"), background=("w", (9, 9, 9), "a"))
    >>> written_chars(p, lambda ch: visible(ch) and ch != "|")
    ['a', '#', 'b']
    """
    chars = [c.char if fits(c.char) else None for c in palette]
    taken = {ch for ch in chars if ch is not None}
    spares = (ch for ch in chain(".", _SPARE, map(chr, count(0x100))) if ch not in taken and fits(ch))
    out = []
    for i, ch in enumerate(chars):
        if ch is None:
            ch = next(spares) if i == 0 else next(c for c in spares if c != ".")
            taken.add(ch)
        out.append(ch)
    return out


def parse_rgb(text: str) -> RGB | None:
    """RGB from ``#RRGGBB``, ``RRGGBB``, ``#RGB``, ``(r, g, b)`` or a colour name; else None."""
    text = text.strip()
    m = _HEX.fullmatch(text)
    if m and (text.startswith("#") or len(m.group(1)) == 6 or text.lower() not in NAMED):
        digits = m.group(1)
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
    m = _TRIPLE.fullmatch(text)
    if m:
        values = tuple(int(v) for v in m.groups())
        return values if all(v <= 255 for v in values) else None  # type: ignore[return-value]
    return NAMED.get(text.lower().replace(" ", ""))


def make_palette(background: str, declared: Mapping[str, tuple[RGB, str | None]],
                 used: Sequence[str]) -> Palette:
    """The background and the ``used`` colours (in declaration order), each with its RGB
    and char; a missing or repeated char is replaced by a spare one."""
    order = [name for name in declared if name in used and name != background]
    order += [name for name in dict.fromkeys(used) if name not in declared and name != background]
    if not order:   # nothing filled: black and white
        order = ["black"] if background != "black" else ["white"]
    taken: set[str] = set()
    colours = []
    for name in [background] + order:
        rgb, char = declared.get(name, (NAMED.get(name.lower(), (0, 0, 0)), None))
        if char is None or len(char) != 1 or char in taken:
            char = "." if name == background and "." not in taken else next(c for c in _SPARE if c not in taken)
        taken.add(char)
        colours.append(Colour(name, rgb, char))
    return Palette(tuple(colours))


@dataclass(frozen=True)
class CharGoal:
    """A colour goal as its file writes it: one character a cell, row after row, and the
    colour name of each character (every character of ``chars`` is a key of ``names``).

    A reader hands this to :func:`build_coloured` instead of rows of names, so a large
    goal is turned into cell values by ``str.translate`` (4 M cells in a few tens of ms)
    rather than a name a cell.
    """

    chars: str
    width: int
    names: Mapping[str, str]

    def used(self) -> list[str]:
        """The colour names of the goal, in the order of their first cell."""
        return [self.names[ch] for ch in sorted(set(self.chars), key=self.chars.index)]

    def values(self, index: Mapping[str, int]) -> bytes:
        """The cells as colour indices (``index`` maps a name to its index)."""
        return self.chars.translate({ord(ch): index[name] for ch, name in self.names.items()}).encode("latin-1")


def build_coloured(rows: Sequence[Sequence[tuple[int, str]]], columns: Sequence[Sequence[tuple[int, str]]],
                   background: str, declared: Mapping[str, tuple[RGB, str | None]], lines: ClueLines, *,
                   goal: Sequence[Sequence[str]] | CharGoal | None = None, name: str = "",
                   metadata: Mapping[str, str] | None = None, given: Sequence[str] = ()) -> Puzzle:
    """A puzzle from blocks ``(length, colour name)`` (and a goal of colour names, as rows
    or a :class:`CharGoal`), with every problem pinned to its line (see
    :func:`~nonolab.formats._common.build`).  ``given``: the declared colours the file's
    givens name; the palette keeps them even when no clue uses one (such a given leaves the
    puzzle no solution, and the puzzle must read back as it was written: audit 14)."""
    used = [c for line in list(rows) + list(columns) for _, c in line]
    used += [c for c in given if c in declared and c != background]
    if isinstance(goal, CharGoal):
        used += [c for c in goal.used() if c != background]
    elif goal is not None:
        used += [c for row in goal for c in row if c != background]
    palette = make_palette(background, declared, used)
    index = {colour.name: i for i, colour in enumerate(palette)}
    picture = None
    if isinstance(goal, CharGoal):
        if not goal.chars or goal.width <= 0 or len(goal.chars) % goal.width:
            raise ParseError("the goal picture is empty or not a rectangle", line=lines.goal or lines.size)
        picture = Solution.from_bytes(goal.values(index), goal.width, colours=True)
        if len(palette) == 2:
            picture = Solution.from_bytes(picture.to_bytes(), picture.width)
    elif goal is not None:
        if not goal or not goal[0] or any(len(r) != len(goal[0]) for r in goal):
            raise ParseError("the goal picture is empty or not a rectangle", line=lines.goal or lines.size)
        picture = Solution.from_bytes(bytes(index[c] for row in goal for c in row), len(goal[0]), colours=True)
        if len(palette) == 2:
            picture = Solution.from_bytes(picture.to_bytes(), picture.width)
    return build([tuple(n for n, _ in line) for line in rows], [tuple(n for n, _ in line) for line in columns],
                 lines, name=name, metadata=metadata, goal=picture, palette=palette,
                 row_colours=[tuple(index[c] for _, c in line) for line in rows],
                 column_colours=[tuple(index[c] for _, c in line) for line in columns])


def blocks_of(puzzle: Puzzle, kind: str) -> list[list[tuple[int, Colour]]]:
    """A puzzle's row (``kind="rows"``) or column blocks as ``(length, Colour)`` pairs, for
    writers; black and white gives the palette's (or black's) one colour."""
    palette = puzzle.palette or Palette.black_and_white()
    lines = puzzle.coloured_rows if kind == "rows" else puzzle.coloured_columns
    return [[(n, palette[c]) for n, c in line] for line in lines]


def fitted(puzzle: Puzzle, limit: int, fmt: str, why: str) -> Puzzle:
    """The puzzle a writer whose format tells ``limit`` foreground colours apart writes:
    ``puzzle`` itself when its palette fits, else the puzzle over the colours it uses (what the
    format's reader makes of the file anyway, see :func:`build_coloured`).

    Raises:
        InvalidPuzzle: the puzzle uses more than ``limit`` colours; ``why`` says what bounds them.

    >>> wide = Puzzle.from_solution(Solution.from_values([[5, 0, 30]]), palette=Palette.default_for(40))
    >>> fitted(wide, 8, "emoji", "its coloured squares").colours
    2
    >>> fitted(Puzzle.from_solution(Solution.from_values([list(range(1, 10))])), 8, "emoji", "its coloured squares")
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidPuzzle: the 'emoji' format holds at most 8 colours (its coloured squares), and the puzzle uses 9
    """
    if not puzzle.is_colour or puzzle.colours <= limit:
        return puzzle
    small = over_used_colours(puzzle)
    if small.colours > limit:
        raise InvalidPuzzle(f"the {fmt!r} format holds at most {limit} colours ({why}), and the puzzle uses "
                            f"{small.colours}", kind="palette")
    return small
