"""Names and titles with any characters are written so their file reads back to the same
puzzle (audit 18b): webpbn wrote two colour names that differ only by a character XML
cannot hold or by a tab or line break (read as a space) as one, and the puzzle came back
black and white without a word; ``.g`` wrote a colour's name as its declaration's comment,
so a name with a line break, or starting with ``<`` or ``>`` (a glue triangle's), made a
file its own reader refused; a title with a control character made a TOML comment TOML
refuses."""

from __future__ import annotations

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import NonolabError
from nonolab.formats import colour_formats, dump_bytes, load_bytes_all, names

PICTURE = Solution.from_values([[1, 2, 0], [0, 2, 1], [2, 2, 0]])
AWKWARD = ["a\nb", "a\rb", "a\tb", "<x", ">y", "\x00", "a\x01", "x\x7f", "\u2028", " lead", "trail ",
           "\ufffe", "é日", "&amp;", '"q"']
PICTURES = {"png", "emoji"}     # a picture is its goal
# Two names that a format which drops or folds characters could make one.
PAIRS = [("a\x01", "a"), ("p\tq", "p q"), ("p\nq", "p q"), ("x\x00", "x"), ("c2", "z\n")]


def _reads_back(puzzle: Puzzle, fmt: str) -> bool:
    try:
        back = load_bytes_all(dump_bytes(puzzle, fmt), f"x.{fmt}", fmt)
    except NonolabError:
        return False
    return len(back) == 1 and back[0].canonical() == puzzle.canonical()


@pytest.mark.parametrize("fmt", colour_formats())
def test_colour_names_of_any_characters_read_back(fmt):
    wrong = []
    for first, second in [(name, "plain") for name in AWKWARD] + PAIRS:
        palette = Palette.of((first, (1, 2, 3), "X"), (second, (4, 5, 6), "Y"))
        puzzle = Puzzle.from_solution(PICTURE, palette=palette, name="n")
        for p in (puzzle,) if fmt in PICTURES else (puzzle, puzzle.with_(goal=None)):
            if not _reads_back(p, fmt):
                wrong.append((first, second, p.goal is not None))
    assert not wrong


@pytest.mark.parametrize("fmt", names())
def test_titles_of_any_characters_read_back(fmt):
    wrong = []
    for title in AWKWARD:
        for picture in (PICTURE, Solution.from_values([[1, 1, 0], [0, 1, 1], [1, 1, 0]])):
            puzzle = Puzzle.from_solution(picture, name=title)
            if (puzzle.is_colour and fmt not in colour_formats()) or fmt == "taai" and puzzle.height != puzzle.width:
                continue
            if not _reads_back(puzzle, fmt):
                wrong.append((title, puzzle.is_colour))
    assert not wrong
