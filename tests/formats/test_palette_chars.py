"""A palette's chars are any single characters (a JSON or webpbn file may give ``?``, ``|``,
``<`` or a line break); every colour writer writes a file its reader gives back the same
puzzle from, whatever chars the palette has (audit 18b: ``convert q.json q.xml`` with a
colour drawn ``|`` wrote an image nonolab refused; ``?`` did the same in ``.non``, a line
break in JSON and ``.g``, ``'`` or a control character in TOML)."""

from __future__ import annotations

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import NonolabError
from nonolab.formats import colour_formats, dump_bytes, load_bytes_all

PICTURE = Solution.from_values([[1, 2, 0], [0, 2, 1], [2, 2, 0]])
# Every ASCII character, and the line breaks, spaces and marks beyond it.
CHARS = [chr(i) for i in range(128)] + list("é€日\u00a0\u2028\u2029\u0085\ufeff\ufffe\U0001F7E5")
KEEPS_GOAL = {"webpbn", "json", "non"}


def _puzzle(char: str, where: int) -> Puzzle:
    background = ("white", (255, 255, 255), char if where == 0 else ".")
    first = ("red", (200, 0, 0), char if where == 1 else "Q")
    second = ("blue", (0, 0, 200), "Z" if char == "Y" else "Y")
    if background[2] == first[2]:
        first = ("red", (200, 0, 0), "R")
    return Puzzle.from_solution(PICTURE, palette=Palette.of(first, second, background=background))


@pytest.mark.parametrize("fmt", colour_formats())
@pytest.mark.parametrize("where", [0, 1], ids=["background", "colour"])
def test_any_palette_char_is_written_so_it_reads_back(fmt, where):
    wrong = []
    for char in CHARS:
        puzzle = _puzzle(char, where)
        try:
            back = load_bytes_all(dump_bytes(puzzle, fmt), f"x.{fmt}", fmt)
        except NonolabError:
            back = []
        same = len(back) == 1 and back[0].canonical() == puzzle.canonical()
        if same and fmt in KEEPS_GOAL:
            same = back[0].goal is not None and back[0].goal.to_bytes() == puzzle.goal.to_bytes()
        if not same:
            wrong.append(char)
    assert not wrong


def test_a_char_the_format_cannot_carry_gets_a_spare_one_no_colour_has():
    from nonolab.formats._colours import visible, written_chars

    palette = Palette.of(("a", (1, 1, 1), "|"), ("b", (2, 2, 2), "#"), ("c", (3, 3, 3), "\n"),
                         background=("w", (9, 9, 9), "\t"))
    chars = written_chars(palette, lambda ch: visible(ch) and ch != "|")
    assert chars[2] == "#" and len(set(chars)) == 4 and all(visible(ch) and ch != "|" for ch in chars)
    assert chars[0] == "."
