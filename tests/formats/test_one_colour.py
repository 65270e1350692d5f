"""A puzzle in one colour that is not black (a webpbn puzzle drawn in red) is black and
white to every solver, but its file says red: every writer that holds colour kept it, and
the pictures drew it red.  Before, every writer wrote it black and every picture drew it
black (the palette was on the Puzzle, and only ``is_colour`` was asked)."""

from __future__ import annotations

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.formats import colour_formats, dumps, loads

RED = Palette.of(("red", (255, 0, 0), "r"))
PICTURE = Solution.from_rows(["##.", ".#."])
PUZZLE = Puzzle.from_solution(PICTURE).with_(palette=RED)
WRITERS = [f for f in colour_formats() if f not in ("png", "emoji", "ctu")]   # (pictures; letters only)


def test_the_puzzle_is_black_and_white_and_keeps_its_red():
    assert not PUZZLE.is_colour and PUZZLE.keeps_palette


@pytest.mark.parametrize("fmt", WRITERS)
def test_every_colour_writer_keeps_the_one_colour(fmt):
    back = loads(dumps(PUZZLE, fmt), fmt)
    assert (back.rows, back.columns) == (PUZZLE.rows, PUZZLE.columns) and not back.is_colour
    assert back.palette is not None and back.palette[1].rgb == (255, 0, 0), fmt


def test_the_pictures_draw_it_in_its_colour():
    from nonolab.render import puzzle_svg, solution_svg
    assert 'fill="#FF0000"' in solution_svg(PICTURE, PUZZLE)
    assert "#000000" not in solution_svg(PICTURE, PUZZLE).split('class="cells"')[1].split("</g>")[0]
    assert 'fill="#FF0000"' in puzzle_svg(PUZZLE)      # the clue numbers' swatches


def test_plain_black_and_white_is_unchanged():
    plain = Puzzle.from_solution(PICTURE).with_(palette=Palette.black_and_white())
    assert not plain.keeps_palette and dumps(plain, "non") == dumps(Puzzle.from_solution(PICTURE), "non")
