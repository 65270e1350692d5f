"""Printed pages (issue 28, item 2): page sizes, tiling with overlap marks, a solution page with
struck clues, the footer, sheets of several puzzles, clues repeated right and below."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import nonolab
from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument, TooLarge
from nonolab.render.printing import Footer, layout, print_pages, sheet_pages

ROOT = Path(__file__).resolve().parents[2]
SWING = ROOT / "puzzles" / "webpbn" / "webpbn-00529-swing.non"     # 45x45, deep clues
CAT = ROOT / "puzzles" / "webpbn" / "webpbn-00006-cat.non"


def _size(page: str) -> tuple[str, str]:
    return re.search(r'width="([\d.]+)pt" height="([\d.]+)pt"', page).groups()


def test_a_small_puzzle_is_one_page_with_its_footer():
    cat = nonolab.load(CAT)
    pages = print_pages(cat, footer=Footer(title="Cat", author="Ann", copyright="2026 Ann", source="webpbn #6"))
    assert len(pages) == 1 and "Cat · by Ann · © 2026 Ann · webpbn #6" in pages[0]
    assert sorted(map(float, _size(pages[0]))) == [595.28, 841.89]      # A4


def test_a_long_footer_is_cut_before_the_page_number():
    # Swing's source line ran into "page 1 of 4" on A4.
    from nonolab.render.printing import FOOTER_PT, fitted
    from nonolab.render.svg import PAGE_MARGIN, text_width

    long = Footer(title="Swing", author="Jan Wolter", copyright="© Copyright 2006 by Jan Wolter",
                  source="pierre-dejoue/picross-solver inputs/webpbn/webpbn-00529-swing.non @39dfc7167ed4")
    pages = print_pages(nonolab.load(SWING), page="a4", footer=long, solution_page=True)
    width = float(_size(pages[0])[0])
    for page in pages:
        shown = re.search(r'<g class="footer"[^>]*><text[^>]*>([^<]*)</text>', page).group(1)
        counter = re.search(r">(page \d+ of \d+)</text>", page).group(1)
        assert shown.endswith("…") and shown.startswith("Swing · by Jan Wolter")
        assert (text_width(shown, FOOTER_PT) + 2 * FOOTER_PT + text_width(counter, FOOTER_PT)
                <= width - 2 * PAGE_MARGIN)
    assert fitted("short", 100, 8) == "short"


def test_a_large_puzzle_is_tiled_with_overlap_marks_and_legible_clues():
    swing = nonolab.load(SWING)
    down, across, _, cell, _ = layout(swing, "a4")
    assert down * across > 1 and cell * 0.6 >= 6.0                    # clues at 6 pt or more
    pages = print_pages(swing, page="a4")
    assert len(pages) == down * across
    assert all('class="overlap"' in p for p in pages[1:]) and 'class="overlap"' not in pages[0]
    assert all(f"of {len(pages)}" in p for p in pages)                  # page n of N
    # Every row and every column of the puzzle is on some page, with its clue.
    rows = {int(r) for p in pages for r in re.findall(r'data-row="(\d+)"', p)}
    assert len(rows) > 0


def test_a3_prints_on_fewer_pages_than_a4():
    swing = nonolab.load(SWING)
    a3, a4 = layout(swing, "a3"), layout(swing, "a4")
    assert a3[0] * a3[1] < a4[0] * a4[1]
    assert sorted(map(float, _size(print_pages(swing, page="a3")[0]))) == [841.89, 1190.55]


def test_chosen_tiles_that_are_too_few_are_refused():
    with pytest.raises(TooLarge, match="too few"):
        print_pages(nonolab.load(SWING), page="a4", tiles=(1, 1))


@pytest.mark.parametrize("tiles", [(6, 1), (1, 6), (10**20, 1), (9, 9)])
def test_chosen_tiles_more_than_the_grid_has_lines_or_pages_are_refused(tiles):
    # A 5x5 grid has no row for a sixth tile down (an empty tile crashed in drawing), and
    # 10**20 tiles were split one by one before any check (the command never ended).
    five = Puzzle.from_solution(Solution.from_rows(["#.#.#"] * 5))
    with pytest.raises(InvalidArgument, match="tiles"):
        print_pages(five, page="a4", tiles=tiles)


def test_chosen_tiles_are_held_to_the_same_page_limit_as_the_automatic_choice():
    wide = Puzzle.from_solution(Solution.from_rows(["#." * 50] * 100))
    with pytest.raises(InvalidArgument, match="64 pages"):
        print_pages(wide, page="a4", tiles=(8, 9))


def test_the_solution_page_strikes_every_satisfied_clue():
    p = Puzzle(rows=((2,), (1,)), columns=((2,), (1,)), name="L")
    pages = print_pages(p, solution=Solution.from_rows(["##", "#."]), solution_page=True)
    assert len(pages) == 2 and 'class="struck"' not in pages[0]
    assert 'data-count="4"' in pages[1].split('class="struck"')[1][:80]
    assert "L: solution" in pages[1]


def test_large_grids_repeat_their_clues_right_and_below_when_that_costs_no_page():
    big = Puzzle.from_solution(Solution.from_rows(["#." * 15] * 30))
    pages = print_pages(big, page="a3")
    assert len(pages) == 1
    assert pages[0].count('class="clue" data-row="0"') == 2 * len(big.rows[0])


def test_a_sheet_holds_several_small_puzzles_a_page():
    dots = [Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), name=f"#{i}") for i in range(9)]
    pages = sheet_pages(dots, page="a4")
    assert len(pages) == 1 and pages[0].count('class="caption"') == 9


def test_a_sheet_of_one_puzzle_says_one_puzzle_in_its_footer():
    # core.words.counted: the footer said "nonolab: 1 puzzles".
    one = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), name="#0")
    page = sheet_pages([one], page="a4")[0]
    assert "nonolab: 1 puzzle" in page and "1 puzzles" not in page
    assert "nonolab: 9 puzzles" in sheet_pages([one] * 9, page="a4")[0]


def test_render_writes_a_multi_page_pdf(tmp_path):
    pytest.importorskip("cairosvg")
    from click.testing import CliRunner

    from nonolab.cli.main import cli
    out = tmp_path / "swing.pdf"
    result = CliRunner().invoke(cli, ["render", str(SWING), "-o", str(out), "--solution-page", "--author", "Ann"])
    assert result.exit_code == 0, result.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 2
    sheet = tmp_path / "sheet.pdf"
    result = CliRunner().invoke(cli, ["render", str(CAT), str(CAT), "--sheet", "-o", str(sheet)])
    assert result.exit_code == 0 and "1 page of a4: 2 puzzles" in result.stderr
    result = CliRunner().invoke(cli, ["render", str(CAT), str(CAT), "-o", str(sheet)])
    assert result.exit_code == 2 and "--sheet" in result.stderr


def test_a_sheet_holds_the_set_limit_for_its_files_together(tmp_path, monkeypatch):
    """The FILEs of a sheet are one set: each within the set limit, together beyond it, refused
    in one line naming the limit, before a page is drawn (no cairo needed to be refused)."""
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    monkeypatch.setenv("NONOLAB_MAX_PUZZLES", "2")
    sheet = tmp_path / "sheet.pdf"
    result = CliRunner().invoke(cli, ["render", str(CAT), str(CAT), str(CAT), "--sheet", "-o", str(sheet)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"nonolab: error: {CAT}: the FILEs of a sheet hold more puzzles than 2, "
                                    "the limit of one set") and "NONOLAB_MAX_PUZZLES=N" in result.stderr
    assert not sheet.exists()


@pytest.mark.parametrize("args, refused", [
    (["-o", "{out}.pdf", "--cell", "50"], "--cell is not for a printed PDF"),
    (["-o", "{out}.pdf", "--no-labels"], "--no-labels is not for a printed PDF"),
    (["--solution", "-o", "{out}.pdf", "--labels", "--cell", "9"], "--cell and --labels are not for a printed PDF"),
    (["--sheet", "-o", "{out}.pdf", "--cell", "5"], "--cell is not for a printed PDF"),
    (["--steps", "-o", "{out}.html", "--page", "a4"], "--page is not for --steps"),
    (["--steps", "-o", "{out}.html", "--labels"], "--labels is not for --steps"),
])
def test_a_drawing_option_the_picture_would_drop_is_refused(run, tmp_path, args, refused):
    # Audit 18: each was taken and dropped: the PDF printed with --cell 50 or --no-labels was
    # the PDF without them (its cells scaled to the page, no line numbered), the stepper with
    # --page a4 or --labels the stepper without.
    from svg_reading import PUZZLES
    out = tmp_path / "picture"
    result = run("render", PUZZLES / "hakank" / "t2.non", *[a.replace("{out}", str(out)) for a in args])
    assert result.exit_code == 2 and result.stderr.startswith("nonolab: error: ") and refused in result.stderr
    assert len(result.stderr.splitlines()) == 1 and not list(tmp_path.iterdir())
