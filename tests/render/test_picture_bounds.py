"""What a picture may be asked for: a cell size that is a number, and a PNG within the pixel
budget every image nonolab reads is held to (audit 18)."""

from __future__ import annotations

import pytest
from svg_reading import PUZZLES

import nonolab
from nonolab.errors import InvalidArgument
from nonolab.render import puzzle_svg

HEART = PUZZLES / "nonolab" / "heart.non"


@pytest.mark.parametrize("cell", ["nan", "NaN", "-nan"])
def test_a_cell_size_that_is_no_number_is_one_line_naming_the_option(run, tmp_path, cell):
    # click's FloatRange let nan through (every comparison with it is false): a ValueError
    # traceback from inside the drawing ("cannot convert float NaN to integer"), exit 1.
    result = run("render", HEART, "--cell", cell, "-o", tmp_path / "heart.png")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "--cell" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "heart.png").exists()


@pytest.mark.parametrize("cell", [float("nan"), float("inf"), 0, -3])
def test_the_library_refuses_a_cell_that_is_not_a_positive_finite_number(cell):
    with pytest.raises(InvalidArgument, match="cell size"):
        puzzle_svg(nonolab.load(HEART), cell=cell)
