"""The PNG picture format through pillow: any PNG pillow decodes reads (palette, grey,
alpha, interlaced, 16-bit), damage is one line, and without pillow the error names the extra."""

from __future__ import annotations

import io
import sys

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import MissingDependency, NonolabError
from nonolab.formats import dumps, load, loads

Image = pytest.importorskip("PIL.Image")

CELLS = [[0, 1, 2], [2, 1, 0]]
RGB = {0: (255, 255, 255), 1: (200, 0, 0), 2: (0, 0, 200)}


def _png(image, **options) -> str:
    out = io.BytesIO()
    image.save(out, "PNG", **options)
    return out.getvalue().decode("latin-1")


def _rgb_image(mode="RGB"):
    image = Image.new("RGB", (3, 2))
    image.putdata([RGB[v] for row in CELLS for v in row])
    return image.convert(mode)


@pytest.mark.parametrize("mode,options", [("RGB", {}), ("RGBA", {}), ("RGB", {"interlace": 1}),
                                          ("P", {}), ("P", {"interlace": 1})])
def test_pictures_pillow_writes_read_as_their_cells(mode, options):
    image = _rgb_image() if mode != "P" else _rgb_image().quantize(colors=3)
    puzzle = loads(_png(image.convert(mode) if mode != "P" else image, **options), "png")
    assert puzzle.goal.cells == tuple(map(tuple, CELLS))
    assert [c.rgb for c in puzzle.palette] == [RGB[0], RGB[1], RGB[2]]


def test_grey_16_bit_and_transparency():
    grey = Image.new("I;16", (2, 1))
    grey.putdata([65535, 0])   # white, black
    assert loads(_png(grey), "png").goal.cells == ((0, 1),)
    clear = Image.new("RGBA", (2, 1))
    clear.putdata([(0, 0, 0, 0), (0, 0, 0, 255)])   # a transparent pixel is background, whatever its RGB
    assert loads(_png(clear), "png").goal.cells == ((0, 1),)


def test_written_pngs_read_back_and_are_8_bit_rgb(tmp_path):
    puzzle = Puzzle.from_solution(Solution.from_values(CELLS))
    text = dumps(puzzle, "png")
    with Image.open(io.BytesIO(text.encode("latin-1"))) as image:
        assert (image.mode, image.size) == ("RGB", (3, 2))
    assert loads(text) == puzzle
    (tmp_path / "p.png").write_bytes(text.encode("latin-1"))
    assert load(tmp_path / "p.png").goal == puzzle.goal


def test_damaged_pngs_fail_with_one_line():
    whole = dumps(Puzzle.from_solution(Solution.from_values(CELLS)), "png")
    for cut in (len(whole) // 3, len(whole) * 2 // 3):
        with pytest.raises(NonolabError) as info:
            loads(whole[:cut], "png")
        assert "\n" not in str(info.value)


def test_without_pillow_the_error_names_the_extra(monkeypatch):
    text = dumps(Puzzle.from_solution(Solution.from_values(CELLS)), "png")
    monkeypatch.setitem(sys.modules, "PIL", None)   # as if pillow were not installed
    with pytest.raises(MissingDependency, match=r"nonolab\[png\]"):
        loads(text, "png")
    with pytest.raises(MissingDependency, match=r"nonolab\[png\]"):
        dumps(Puzzle.from_solution(Solution.from_values(CELLS)), "png")


def _inks(count: int, white: bool):
    """A picture of ``count`` distinct colours none of them white, and a white pixel if ``white``."""
    colours = [(i % 256, i // 256, 7) for i in range(count)] + ([(255, 255, 255)] if white else [])
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    return image


@pytest.mark.parametrize("count,white", [(256, False), (256, True), (300, False)])
def test_a_png_of_more_colours_than_a_puzzle_holds_is_one_line(count, white):
    # Before: 256 colours none of them white passed the count of keys (white included, at
    # most 256) and then overflowed the cell values: OverflowError, a traceback in the CLI
    # (`nonolab check /usr/share/icons/hicolor/64x64/apps/zutty.png`).
    with pytest.raises(NonolabError, match=f"the PNG has {count} colours besides white; a puzzle holds at most 255"):
        loads(_png(_inks(count, white)), "png")


def test_a_png_of_255_colours_besides_white_reads_every_one():
    puzzle = loads(_png(_inks(255, True)), "png")
    assert len(puzzle.palette) == 256 and puzzle.goal.cells[0][:3] == (1, 2, 3) and puzzle.goal.cells[0][-1] == 0
