"""Column clue numbers of three digits and more: each stands apart from its neighbour's in a
PNG (105 above 105 read "105105"), and a print holds them, too, to its smallest clue size."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from nonolab.core import Puzzle, Solution
from nonolab.render import encode, puzzle_svg
from nonolab.render.printing import print_pages
from nonolab.render.svg import MIN_CLUE_PT

CLUE = r'<text class="clue" data-column="\d+" x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"[^>]*>{}</text>'


def _full_columns(width: int, height: int) -> Puzzle:
    return Puzzle.from_solution(Solution.from_rows(["#" * width] * height), name="tall")


def test_three_digit_column_clues_are_parted_by_blank_pixels_in_a_png():
    pytest.importorskip("cairosvg", reason="PNG pictures need the pictures extra")
    from PIL import Image
    svg = puzzle_svg(_full_columns(4, 105))   # every column's clue: 105; cell 20 px
    found = [tuple(map(float, m)) for m in re.findall(CLUE.format(105), svg)]
    assert len(found) == 4
    pixels = np.asarray(Image.open(io.BytesIO(encode(svg, "png"))).convert("L"))
    x, y, font = found[0]
    inked = (pixels[int(y - 0.75 * font):int(y) + 1] < 128).any(axis=0)   # the clue row's inked columns
    for (left, _, _), (right, _, _) in zip(found, found[1:]):
        between = inked[int(left):int(right) + 1]
        runs = [len(r) for r in "".join(".#"[int(v)] for v in between).split("#")]
        assert max(runs) >= 4, f"clues at x={left} and x={right} are {max(runs)} px apart"   # a fifth of the cell


def test_a_print_holds_every_clue_number_column_clues_too_at_its_smallest_size():
    pages = print_pages(_full_columns(20, 200), page="a4")   # columns of 200: at 5.3 pt before
    sizes = [float(s) for page in pages for s in re.findall(r'<text class="clue"[^>]*font-size="([\d.]+)"', page)]
    assert sizes and min(sizes) >= MIN_CLUE_PT - 1e-6, min(sizes)
