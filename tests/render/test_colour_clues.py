"""A colour puzzle's clues are drawn in their colours in every picture of it (the printed
puzzle, its PNG and PDF, the notebook view), each number readable on its swatch; a
puzzle's givens are drawn; colour values are drawn as text with the palette's chars."""

from __future__ import annotations

import io
import json

import pytest
from svg_reading import SVG, assert_every_clue_drawn, painted, parse, texts

from nonolab.core import Palette, Puzzle, Solution
from nonolab.render import diff_text, puzzle_svg, solution_svg
from nonolab.render.display import html_of, svg_of
from nonolab.render.svg import _luminance

# Four colours, one of them light (yellow on white reads at 1.3:1): a 4x4 picture with
# two solutions (a colour switch), so every picture of it has something to show.
PALETTE = Palette.of(("black", (0, 0, 0), "#"), ("red", (220, 30, 30), "r"), ("yellow", (255, 221, 0), "y"),
                     ("navy", (0, 0, 128), "n"))
PICTURE = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [3, 3, 0, 4], [0, 3, 4, 4]])
PUZZLE = Puzzle.from_solution(PICTURE, "colours", PALETTE)


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _swatches(root) -> list:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "swatch"]


@pytest.mark.parametrize("draw", [lambda p: puzzle_svg(p), lambda p: puzzle_svg(p, page="a4"),
                                  lambda p: svg_of(p), lambda p: solution_svg(PICTURE, p)],
                         ids=["puzzle", "printed", "notebook", "solution"])
def test_every_clue_number_stands_on_its_colour_and_reads(draw):
    # a2cd917 drew the printed puzzle's clues all in black: a colour puzzle that cannot be solved on paper.
    root = parse(draw(PUZZLE))
    assert_every_clue_drawn(root, PUZZLE)
    clues = texts(root, "clue")
    inks = {f"#{PALETTE.hex(i)}" for i in range(1, len(PALETTE))}
    wanted = [f"#{PALETTE.hex(c)}" for blocks in (*PUZZLE.coloured_rows, *PUZZLE.coloured_columns)
              for _, c in blocks]
    assert sorted(t.get("data-colour") for t in clues) == sorted(wanted)
    assert sorted(r.get("fill") for r in _swatches(root)) == sorted(wanted) and set(wanted) == inks
    for text in clues:                          # WCAG AA for text: 4.5:1 at least
        assert _contrast(text.get("fill"), text.get("data-colour")) >= 4.5, text.attrib


def test_the_png_shows_the_clue_colours():
    pil = pytest.importorskip("PIL.Image")
    from nonolab.render import to_png
    image = pil.open(io.BytesIO(to_png(puzzle_svg(PUZZLE, cell=30)))).convert("RGB")
    seen = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    for colour in PALETTE.foreground:
        assert colour.rgb in seen, colour          # the empty grid's only colours are its clues'


def test_a_black_and_white_puzzle_keeps_its_plain_clues():
    root = parse(puzzle_svg(Puzzle.from_solution(Solution.from_rows(["#.", "##"]))))
    assert not _swatches(root) and all(t.get("fill") is None for t in texts(root, "clue"))


def test_the_notebook_view_of_a_colour_puzzle_has_its_colours():
    page = html_of(PUZZLE)
    for colour in PALETTE.foreground:
        assert f'fill="#{PALETTE.hex(PALETTE.index(colour.name))}"' in page


def test_the_puzzle_picture_draws_its_givens():
    given = PUZZLE.with_(givens={(0, 0): 1, (0, 1): 0, (2, 3): 4})
    root = parse(puzzle_svg(given))
    cells = painted(root)[0]
    assert cells == {(0, 0): f"#{PALETTE.hex(1)}", (2, 3): f"#{PALETTE.hex(4)}"}
    dots = [g for g in root.iter(f"{SVG}g") if g.get("class") == "given-empty"]
    assert len(dots) == 1 and len(list(dots[0])) == 1 and dots[0].get("data-count") == "1"
    assert any("given" in (t.text or "") for t in texts(root, "entry"))
    assert painted(parse(puzzle_svg(PUZZLE)))[0] == {}       # without givens, the empty grid


def test_two_colour_solutions_as_text_in_the_palette_s_chars():
    other = Solution.from_values([[0, 1, 2, 2], [1, 0, 2, 0], [3, 3, 0, 4], [0, 3, 4, 4]])
    assert diff_text(PICTURE, other, PUZZLE.chars).splitlines()[0] == "#.rr  .#rr  **.."
    assert diff_text(PICTURE, other).splitlines()[0] == "1.22  .122  **.."     # no chars given: no IndexError


def test_check_answers_every_puzzle_of_a_colour_set(run, tmp_path):
    # a2cd917: IndexError in diff_text on the second puzzle (black-and-white chars for colour
    # values); the puzzles after it were never answered and --json printed nothing.
    from nonolab.formats import dumps_all
    unique = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]), "unique", PALETTE)
    path = tmp_path / "set.xml"
    path.write_text(dumps_all([unique, PUZZLE, unique], "webpbn"))
    result = run("check", path)
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and lines[-1] == "3 puzzles: 2 unique, 1 multiple"
    assert '#2 "colours": multiple' in lines and '#3 "unique": unique' in lines
    shown = lines[lines.index("solution 1, solution 2, differing cells (*):") + 1]
    assert set(shown.replace(" ", "").replace("*", "")) <= set(PUZZLE.chars)
    data = json.loads(run("check", path, "--json").stdout)
    assert [r["verdict"] for r in data["puzzles"]] == ["unique", "multiple", "unique"]
