"""The SVG pictures keep what a reader needs: every clue, row and column numbers, and a
legend of exactly what is drawn; PNG and PDF come from the same SVG."""

from __future__ import annotations

import doctest
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from svg_reading import (PUZZLES, SVG, assert_every_clue_drawn, assert_labels_drawn, declared_size, legend, painted,
                         parse, png_size, texts)

import nonolab
from nonolab import render
from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument, MissingDependency, TooLarge
from nonolab.render.pictures import _tint
from nonolab.render.svg import MIN_CLUE_PT, PAGES, PALETTE

T2 = PUZZLES / "hakank" / "t2.non"                       # two solutions, one 2x2 switch, empty columns
CAT = PUZZLES / "webpbn" / "webpbn-00006-cat.non"       # clues of two digits
NONUNIQUE = PUZZLES / "hakank" / "nonunique.non"         # 43 solutions: one region, two givens
EDGE = PUZZLES / "webpbn" / "webpbn-00023-edge.non"      # unique


def _solutions(path, n=2):
    puzzle = nonolab.load(path)
    return puzzle, nonolab.solve(puzzle, "cnf", max_solutions=n).solutions


@pytest.mark.parametrize("path", [T2, CAT, NONUNIQUE, EDGE], ids=lambda p: p.stem)
def test_the_puzzle_and_its_solution_keep_every_clue(path):
    puzzle, (solution, *_) = _solutions(path, 1)
    for svg in (render.puzzle_svg(puzzle), render.puzzle_svg(puzzle, page="a4"),
                render.solution_svg(solution, puzzle), render.solution_svg(solution)):
        root = parse(svg)
        assert_every_clue_drawn(root, puzzle)
        assert legend(root) == []                     # nothing needs explaining
    # cells: the solution's filled cells are black, the others white; the puzzle's all white
    w = puzzle.width
    assert painted(parse(render.solution_svg(solution, puzzle))) == [
        {divmod(i, w): "#000000" for i, v in enumerate(solution.to_bytes()) if v}]
    assert painted(parse(render.puzzle_svg(puzzle))) == [{}]


def test_two_solutions_side_by_side_with_their_differences_framed():
    puzzle, (first, second) = _solutions(NONUNIQUE)
    root = parse(render.diff_svg(first, second, puzzle))
    assert_every_clue_drawn(root, puzzle, boards=2)
    assert_labels_drawn(root, puzzle, boards=2)
    differ = first.diff(second)
    frames = [r for g in root.iter(f"{SVG}g") if g.get("class") == "marks" for r in g]
    assert len(frames) == 2 * len(differ) > 0
    assert legend(root) == [f"red frame: the {len(differ)} cells where the two solutions differ"]
    assert [t.text for t in texts(root, "caption")] == ["solution 1", "solution 2"]


def test_the_ambiguity_map_has_clues_numbers_and_a_legend_of_what_it_draws():
    puzzle = nonolab.load(NONUNIQUE)
    report = nonolab.ambiguity_report(puzzle, "cnf")
    root = parse(render.ambiguity_svg(report, puzzle))
    assert_every_clue_drawn(root, puzzle)
    assert_labels_drawn(root, puzzle)
    entries = legend(root)
    assert entries[0] == "black / white: the same in every solution"
    assert [e for e in entries if re.match(r"[a-z]: ", e)] == [
        f"{chr(97 + k)}: {r.describe()}" for k, r in enumerate(report.regions)]
    assert entries[-1] == f"ring: a suggested given ({len(report.givens)} in all)"
    assert not any(e.startswith("grey") for e in entries)        # every cell was classified
    rings = [g for g in root.iter(f"{SVG}g") if g.get("class") == "givens"]
    assert [len(g) for g in rings] == [2 * len(report.givens)]        # a halo and a ring each
    colours = painted(root)[0]
    for k, region in enumerate(report.regions):                      # each region in its own colour
        colour = PALETTE[k % len(PALETTE)]
        assert {colours[cell] for cell in region.cells} <= {colour, _tint(colour, 0.3)}
        assert all(cell in colours for cell in region.cells)        # none left white


def test_a_unique_puzzle_has_no_region_legend():
    puzzle = nonolab.load(EDGE)
    root = parse(render.ambiguity_svg(nonolab.ambiguity_report(puzzle, "cnf"), puzzle))
    assert legend(root) == ["every cell is the same in every solution"]
    assert_every_clue_drawn(root, puzzle)
    assert_labels_drawn(root, puzzle)
    assert texts(root, "caption")[0].text == "unique: one solution"


def test_unclassified_cells_and_more_regions_than_the_legend_lists():
    solution = Solution.from_rows(["#." * 10, ".#" * 10] * 10)
    regions = [[(r, c) for r in (2 * k, 2 * k + 1) for c in (0, 1)] for k in range(10)] + [
        [(r, c) for r in (2 * k, 2 * k + 1) for c in (2, 3)] for k in range(5)]
    root = parse(render.regions_svg(solution, regions, undecided=[(0, 19)]))
    entries = legend(root)
    assert "grey: not classified (timeout: the time, node or conflict limit came first)" in entries
    assert entries.count("grey: not classified (timeout: the time, node or conflict limit came first)") == 1
    assert sum(bool(re.match(r"[a-z]: ", e)) for e in entries) == 12 and "... and 3 more regions" in entries
    assert not any(e.startswith("ring") for e in entries)        # no given drawn, none listed
    assert_every_clue_drawn(root, Puzzle.from_solution(solution))


def test_nothing_to_draw_without_a_solution():
    report = nonolab.ambiguity_report(nonolab.load(PUZZLES / "nonolab" / "contradiction.non"), "cnf")
    assert render.ambiguity_svg(report) is None


def test_png_and_pdf_from_the_same_svg():
    puzzle, (solution, _) = _solutions(T2)
    svg = render.solution_svg(solution, puzzle, cell=12)
    png, pdf = render.to_png(svg), render.to_pdf(svg)
    assert png_size(png) == declared_size(parse(svg))
    assert pdf.startswith(b"%PDF-")


def test_the_cell_option_sets_the_png_size():
    puzzle = nonolab.load(CAT)
    sizes = {cell: png_size(render.to_png(render.puzzle_svg(puzzle, cell=cell))) for cell in (10, 20, 40)}
    for cell in (20, 40):
        assert all(abs(big - 2 * small) <= 1 for big, small in zip(sizes[cell], sizes[cell // 2]))
    root = parse(render.puzzle_svg(puzzle, cell=13))
    assert {g.get("data-cell") for g in root.iter(f"{SVG}g") if g.get("class") == "cells"} == {"13"}


@pytest.mark.parametrize("cell", [5, 12, 40])
def test_the_legend_stays_readable_and_within_the_picture_at_any_cell_size(cell):
    """Audit 7: at --cell 5 the legend (9 px text on one line an entry) made the picture
    four times wider than the grid; at --cell 40 it still set the width, the grid in a
    third of it.  Its text is now at least 9 px (readable in a PNG) and wrapped to the
    width of the drawing (or 16 of its fonts, when the grid is narrower), nothing cut."""
    from svg_reading import entry_lines

    from nonolab.render.svg import LEGEND_MIN_EMS, LEGEND_MIN_FONT, text_width

    puzzle = nonolab.load(NONUNIQUE)
    report = nonolab.ambiguity_report(puzzle, "cnf")
    root = parse(render.ambiguity_svg(report, puzzle, cell=cell))
    width, height = declared_size(root)
    grid = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cells")
    grid_right = float(grid.get("data-x")) + puzzle.width * cell
    drawing_right = max(grid_right, max(float(t.get("x")) + text_width(t.text, 0.45 * cell)
                                        for t in texts(root, "label")))   # the row numbers
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    font = float(group.get("font-size"))
    assert font >= LEGEND_MIN_FONT and font >= 0.5 * cell
    lines_right = [float(t.get("x")) + text_width(line, font) for t in texts(root, "entry") for line in entry_lines(t)]
    assert max(lines_right) <= width                                     # no line cut off
    allowed = max(drawing_right, cell + LEGEND_MIN_EMS * font)           # the drawing, or 16 fonts
    assert max(lines_right) <= allowed + 1e-6
    assert width <= allowed + 1.5 * cell                # the legend widens nothing more (a pad, the labels' margin)
    assert legend(root)[-1] == f"ring: a suggested given ({len(report.givens)} in all)"   # nothing lost
    assert png_size(render.to_png(render.ambiguity_svg(report, puzzle, cell=cell))) == (width, height)


TALL = Puzzle.from_solution(Solution.from_rows(["#.#.#...#."[:8]] * 30))


@pytest.mark.parametrize("page", sorted(PAGES))
@pytest.mark.parametrize("puzzle, landscape", [(TALL, False), (nonolab.load(T2), True)], ids=["tall", "wide"])
def test_a_printed_page_fits_with_legible_clues(page, puzzle, landscape):
    svg = render.puzzle_svg(puzzle, page=page)
    root = parse(svg)
    width, height = sorted(PAGES[page], reverse=landscape)      # the page turns with the drawing
    assert root.get("width") == f"{width:g}pt" and root.get("height") == f"{height:g}pt"
    scale = float(re.search(r"scale\(([\d.]+)\)", svg).group(1))
    assert min(float(t.get("font-size")) for t in texts(root, "clue")) * scale >= MIN_CLUE_PT
    media = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", render.to_pdf(svg)).groups()
    assert [round(float(v)) for v in media] == [round(width), round(height)]


def test_too_large_to_print_legibly_or_to_draw():
    wide = Puzzle(rows=((1,),) * 150, columns=((1,),) * 150)
    with pytest.raises(TooLarge, match="a4"):
        render.puzzle_svg(wide, page="a4")
    assert parse(render.puzzle_svg(wide, cell=2))                 # on screen, any size the user picks
    with pytest.raises(TooLarge):
        render.puzzle_svg(Puzzle(rows=((),) * 600, columns=((),) * 600))
    with pytest.raises(InvalidArgument, match="page"):
        render.puzzle_svg(wide, page="a5")


def test_the_stepper_holds_one_frame_per_step_and_needs_no_network():
    puzzle = nonolab.load(T2)
    steps = [SimpleNamespace(cells=((0, c, 1),), describe=lambda c=c: f"line: column {c + 1}") for c in range(3)]
    page = render.steps_html(puzzle, steps)
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    root = parse(svg)
    frames = [g for g in root.iter(f"{SVG}g") if g.get("class") == "step"]
    assert [g.get("data-step") for g in frames] == ["1", "2", "3"]
    assert [len(g) for g in frames] == [1, 1, 1]
    assert_every_clue_drawn(root, puzzle)
    assert 'max="3"' in page and "line: column 3" in page
    assert not re.search(r"(src|href)\s*=|@import|url\(", page)     # nothing loaded from anywhere
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_png_without_cairosvg_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)          # as if it were not installed
    with pytest.raises(MissingDependency, match=r"nonolab\[pictures\]"):
        render.to_png(render.puzzle_svg(Puzzle(rows=((1,),), columns=((1,),))))


def test_the_old_names_still_work():
    from nonolab.render import PALETTE, diff_text, grid_text, regions_png, regions_svg, regions_text  # noqa: F401
    solution = Solution.from_rows(["#.", ".#"])
    assert regions_png(solution)[:8] == b"\x89PNG\r\n\x1a\n"
    assert regions_text(solution) == "#.\n.#"


@pytest.mark.parametrize("name", ["nonolab.render", "nonolab.render.svg", "nonolab.render.pictures",
                                  "nonolab.render.steps", "nonolab.render.convert", "nonolab.render.text",
                                  "nonolab.render.terminal", "nonolab.render.display",
                                  "nonolab.render.html"])
def test_doctests(name):
    assert doctest.testmod(importlib.import_module(name)).failed == 0


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_stepper_script_moves_through_the_frames(tmp_path):
    """The page's own script, run by node over a minimal DOM (tests/render/stepper_shim.js):
    ``-`` a hidden frame, ``+`` a shown one, ``*`` the current step's."""
    puzzle = nonolab.load(T2)
    steps = [SimpleNamespace(cells=((0, c, 1),), describe=lambda c=c: f"line: column {c + 1}") for c in range(3)]
    page = tmp_path / "steps.html"
    page.write_text(render.steps_html(puzzle, steps))
    shim = Path(__file__).with_name("stepper_shim.js")
    out = subprocess.run(["node", str(shim), str(page)], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.splitlines() == ["--- the empty grid", "*-- step 1: line: column 1", "+*- step 2 of 3",
                                       "++*", "+*-", "*--", "---"]


def test_the_stepper_of_a_colour_puzzle_keeps_each_cell_s_colour_and_frames_the_step():
    # Audit 7: the current step's cells were painted red (set) or pink (background) over their
    # colour: which colour a step set was hidden, and red is a palette colour too.
    picture = Solution.from_values([[1, 2], [2, 0]])
    puzzle = Puzzle.from_solution(picture, "two colours")
    steps = [SimpleNamespace(cells=((0, 0, 1), (0, 1, 2)), describe=lambda: "line: row 1"),
             SimpleNamespace(cells=((1, 0, 2), (1, 1, 0)), describe=lambda: "line: row 2")]
    page = render.steps_html(puzzle, steps)
    root = parse(page[page.index("<svg"):page.index("</svg>") + 6])
    frames = [g for g in root.iter(f"{SVG}g") if g.get("class") == "step"]
    inks = [f"#{puzzle.palette.hex(i)}" for i in range(len(puzzle.palette))]
    for frame, step in zip(frames, steps):
        cells = [r for r in frame if r.get("class") != "mark"]
        assert [r.get("fill").lower() for r in cells] == [inks[v].lower() for _, _, v in step.cells]
        assert [r.get("class") for r in frame].count("mark") == len(step.cells)   # a frame round each cell
    style = page[page.index("<style>"):page.index("</style>")]
    assert ".now .c{fill" not in style and ".now .mark" in style      # no fill put over a colour
    assert "red frame: changed by the step shown" in legend(root)
    # The buttons' glyphs are those DejaVu has (U+23EE/U+23ED drew as empty boxes in Chromium).
    assert "&#x23EE;" not in page and "&#x23ED;" not in page
    bw = render.steps_html(nonolab.load(T2), [SimpleNamespace(cells=((0, 0, 1),), describe=lambda: "x")])
    assert "red / pink: set by the step shown" in bw      # black and white: as explain's X and O


def test_the_stepper_shows_the_colours_a_step_rules_out_of_a_cell_it_leaves_open():
    # A colour step may only rule values out (the cells stay open, grey): later steps rest on
    # them, so its frame draws each as a struck-through square of that colour, in a frame.
    from nonolab.harness.explanation import explain

    puzzle = nonolab.load(Path(__file__).resolve().parents[1] / "data" / "colour" / "probe-six.xml")
    found = explain(puzzle)
    page = render.steps_html(puzzle, found.steps)
    root = parse(page[page.index("<svg"):page.index("</svg>") + 6])
    frames = [g for g in root.iter(f"{SVG}g") if g.get("class") == "step"]
    inks = [f"#{puzzle.palette.hex(i)}".lower() for i in range(len(puzzle.palette))]
    assert len(frames) == len(found.steps) and any(s.ruled_out and not s.cells for s in found.steps)
    for frame, step in zip(frames, found.steps):
        struck = [r.get("fill").lower() for r in frame.findall(f"{SVG}rect") if r.get("class") is None]
        assert struck == [inks[v] for _, _, v in step.ruled_out]
        assert len(frame.findall(f"{SVG}line")) == len(step.ruled_out)
        changed = {(r, c) for r, c, _ in step.cells} | {(r, c) for r, c, _ in step.ruled_out}
        assert [r.get("class") for r in frame].count("mark") == len(changed)
    assert "struck through: a colour ruled out of a cell still open" in legend(root)


def test_the_workbench_shows_the_stepper_s_frames_by_the_same_rules():
    # The page's own CSS draws the same frames: a rule missing there (the colour frames' .mark)
    # would show every step's frame at once in the workbench.
    from importlib import resources

    from nonolab.render.steps import FRAME_RULES
    css = (resources.files("nonolab.web") / "static" / "style.css").read_text(encoding="utf-8")
    for rule, body in FRAME_RULES:
        assert f"#steps-picture {rule}{{{body}}}" in css, rule


def test_the_stepper_s_step_0_of_a_puzzle_with_givens_says_so():
    # Audit 8: it said "the empty grid" over a grid that shows the givens decided.
    import json
    puzzle = nonolab.load(T2).with_(givens={(0, 0): 0, (0, 1): 0})
    page = render.steps_html(puzzle, [SimpleNamespace(cells=((0, 2, 1),), describe=lambda: "line: row 1")])
    told = json.loads(page[page.index('id="captions">') + len('id="captions">'):page.index("</script>")])
    assert told == {"start": "the grid with its 2 given cells", "steps": ["step 1: line: row 1"]}
    assert 'title="the grid with its 2 given cells"' in page
