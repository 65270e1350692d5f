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


def _noise(tmp_path, side: int):
    import random
    rng = random.Random(side)
    path = tmp_path / f"noise-{side}.txt"
    path.write_text("\n".join("".join(rng.choice("#.") for _ in range(side)) for _ in range(side)) + "\n")
    return path


@pytest.mark.parametrize("mode", [(), ("--solution",), ("--diff",)])
def test_a_png_beyond_the_pixel_limit_is_refused_in_one_line_before_the_search(run, tmp_path, monkeypatch, mode):
    # A 100x100 puzzle at --cell 200 drew 27324x25560 pixels: 2.8 GB and 40 s in cairo; a
    # side beyond 32,767 pixels (500x500 at --cell 200) was a CairoError traceback, exit 1.
    # Every PNG now keeps the pixel limit of the images nonolab reads.  The solver is
    # replaced: a refusal after a search would call it.
    import re
    monkeypatch.setattr(nonolab, "check", lambda *a, **k: pytest.fail("searched before refusing"))
    monkeypatch.setattr(nonolab, "solve", lambda *a, **k: pytest.fail("searched before refusing"))
    out = tmp_path / "noise.png"
    result = run("render", _noise(tmp_path, 100), *mode, "--cell", 200, "-o", out)
    assert result.exit_code == 2, result.stderr
    assert re.match(r"nonolab: error: the PNG would be \d{5}x\d{5} = [\d,]{11} pixels, beyond the limit of "
                    r"25,000,000 pixels: draw it smaller", result.stderr)
    assert result.stderr.count("\n") == 1 and "NONOLAB_MAX_PIXELS" in result.stderr and not out.exists()


def test_every_png_keeps_the_active_pixel_limit(monkeypatch):
    from nonolab.errors import TooLarge
    from nonolab.render import to_png
    from nonolab.render.convert import png_size
    pytest.importorskip("cairosvg")
    svg = puzzle_svg(nonolab.load(HEART))
    width, height = png_size(svg)
    assert to_png(svg)[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setenv("NONOLAB_MAX_PIXELS", str(width * height - 1))
    with pytest.raises(TooLarge, match="the PNG would be"):
        to_png(svg)
    with pytest.raises(TooLarge, match="the PNG would be"):
        to_png(puzzle_svg(nonolab.load(HEART), cell=10), scale=2.01)   # the scale counts too
