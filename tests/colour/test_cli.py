"""Colour puzzles on the command line: solve, count, check, verify, grade, explain,
pictures."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.formats import load
from nonolab.solvers import get
from nonolab.solvers.base import Limits

COLOUR = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus-colour"
RAINBOW = COLOUR / "nonny" / "rainbow.xml"
VICERES = COLOUR / "olsak-grid" / "viceres.xml"
pytestmark = pytest.mark.skipif(not RAINBOW.is_file(), reason=f"the colour corpus is not at {COLOUR}")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_solve_prints_the_picture_in_the_palettes_chars():
    puzzle = load(RAINBOW)
    result = run("solve", RAINBOW, "--check")
    assert result.exit_code == 0
    assert result.output.splitlines()[:5] == puzzle.goal.to_text(chars=puzzle.palette.chars).splitlines()
    assert "unique" in result.output


def test_count_check_and_verify():
    assert run("count", VICERES).output.strip() == "4"
    assert run("check", RAINBOW).output.strip() == "unique"
    result = run("verify", RAINBOW)
    assert result.exit_code == 0 and "AGREE" in result.output and "cpsat" in result.output


def test_the_svg_draws_the_palette(tmp_path):
    out = tmp_path / "r.svg"
    assert run("solve", RAINBOW, "--to", "svg", "-o", out).exit_code == 0
    svg = out.read_text()
    for colour in load(RAINBOW).palette.foreground:
        assert f'fill="#{"%02X%02X%02X" % colour.rgb}"' in svg


def test_grade_of_a_colour_puzzle_names_its_level_and_verdict():
    result = run("grade", RAINBOW)
    assert result.exit_code == 0 and result.output.startswith("grade: line") and "unique" in result.output
    result = run("grade", VICERES)      # four solutions: search, and exit code 1 (not unique)
    assert result.exit_code == 1 and result.output.startswith("grade: search") and "multiple" in result.output


@pytest.mark.parametrize("backend", ["native", "auto"])
def test_explain_of_a_colour_puzzle_ends_at_the_goal_in_the_palettes_chars(backend):
    puzzle = load(RAINBOW)
    result = run("explain", RAINBOW, "-b", backend)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1].startswith("unique: ") and "line" in lines[-1]
    last_grid = [line.split("  ")[0] for line in lines[-2 - puzzle.height:-2]]
    assert last_grid == puzzle.goal.to_text(chars=puzzle.palette.chars).splitlines()


def test_explain_json_of_a_colour_puzzle_has_colour_values():
    import json
    data = json.loads(run("explain", RAINBOW, "--json").output)
    values = {cell[2] for step in data["steps"] for cell in step["cells"]}
    assert values == set(range(load(RAINBOW).colours + 1))


def test_explain_refuses_a_backend_without_steps_in_one_line():
    result = CliRunner().invoke(cli, ["explain", str(RAINBOW), "-b", "cpsat"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_the_colour_puzzle_converts_between_formats(tmp_path):
    out = tmp_path / "r.non"
    assert run("convert", RAINBOW, out).exit_code == 0
    assert load(out) == load(RAINBOW)


@pytest.mark.parametrize("args", [("export", "--to", "dimacs", RAINBOW),
                                  ("export", "--to", "dzn", RAINBOW), ("convert", RAINBOW, "out.nin")])
def test_black_and_white_only_paths_refuse_colour_in_one_line(args, tmp_path, monkeypatch):
    # Writing lengths only would silently make another (black-and-white) puzzle.
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and "black-and-white" in result.output
    assert not (tmp_path / "out.nin").exists()


def test_repair_of_a_real_colour_puzzle_changes_the_fewest_cells_and_is_unique(tmp_path):
    out = tmp_path / "fixed.xml"
    result = run("repair", VICERES, "-o", out)
    assert result.exit_code == 0 and "(the fewest; unique by an exact count)" in result.output
    fixed, before = load(out), load(VICERES)
    changes = len(result.output.split(" and "))
    # the picture changed is one of the puzzle's solutions, in exactly the reported cells
    solutions = get("native").solve(before, Limits(None)).solutions
    assert fixed.is_colour and min(len(fixed.goal.diff(s)) for s in solutions) == changes
    for backend in ("native", "cnf"):
        assert get(backend).solve(fixed, Limits(None)).count == 1


def test_a_colour_repair_names_its_colour_as_the_palette_does(tmp_path):
    # audit 9: "flip (3,4) to %" with no word that % is blue, in repair, check --report and
    # the workbench.  A colour is named as the terminal picture's legend names it: blue (%).
    repaired = run("repair", VICERES, "-o", tmp_path / "fixed.xml")
    assert "flip (3,4) to blue (%)" in repaired.output, repaired.output
    report = run("check", "--report", VICERES)
    assert "  1. flip (3,4) to blue (%): unique" in report.output.splitlines(), report.output
    assert " to %" not in report.output


def test_check_why_on_colour_names_the_switches_in_the_palettes_chars(tmp_path):
    puzzle = load(VICERES)
    picture = tmp_path / "why.svg"
    result = run("check", "--why", VICERES, "--why-image", picture)
    assert result.exit_code == 1                      # not unique
    lines = result.output.splitlines()
    assert lines[0] == "multiple" and "4 solutions (exact count" in lines[1]
    assert sum("rectangle switch" in line for line in lines) == 2
    grid = lines[lines.index(next(x for x in lines if x.startswith("reference solution"))) + 1:][:puzzle.height]
    chars = set(puzzle.palette.chars)
    assert all(ch in chars or ch in "abAB" for row in grid for ch in row)
    svg = picture.read_text()
    for colour in puzzle.palette.foreground:       # the clue numbers in their colours
        assert f"#{'%02X%02X%02X' % colour.rgb}" in svg.upper()


def test_check_why_json_on_colour_has_its_regions():
    import json
    data = json.loads(run("check", "--why", VICERES, "--json").output)
    cells = {tuple(c) for region in data["regions"]["items"] for c in region["cells"]}
    assert data["count"] == 4 and data["exact"] and len(cells) == 8 and data["regions"]["exact"]
    assert {tuple(c) for c in data["free_cells"]} == cells


def test_check_report_on_colour_shows_both_solutions_in_the_palettes_chars():
    result = run("check", "--report", VICERES)
    assert result.exit_code == 1, result.output
    out = result.output
    assert out.startswith("multiple") and "grade: search" in out and "rectangle switch" in out
    assert "%" in out and "#" not in out.split("solution 1, solution 2")[1].split("4 solutions")[0]
    given = out.split("--given '")[1].split("'")[0]
    counted = run("count", VICERES, "--given", given)   # the suggested givens, as --given reads them
    assert counted.output.strip() == "1"


def test_render_steps_of_a_colour_puzzle_draws_its_palette(tmp_path):
    out = tmp_path / "steps.svg"
    assert run("render", RAINBOW, "--steps", "--to", "svg", "-o", out).exit_code == 0
    svg = out.read_text().upper()
    for colour in load(RAINBOW).palette.foreground:
        assert f'FILL="#{"%02X%02X%02X" % colour.rgb}"' in svg


def test_the_givens_check_why_prints_read_back_as_given():
    # Audit 10: `check --why viceres.xml` printed "(1,1)=%  (2,2)=." and --given (whose help says
    # "as check --why prints them") refused '%': "expected R,C=# or R,C=. or R,C=N".
    why = run("check", "--why", VICERES)
    given = why.output.splitlines()[-1].strip()
    assert "%" in given, why.output
    checked = run("check", VICERES, "--given", given)
    assert (checked.exit_code, checked.output.strip()) == (0, "unique"), checked.output


def test_a_given_character_is_the_colour_the_pictures_draw_with_it():
    # nonny's test.xml draws black as X and red as #: the solution shows '#' at (2,1), and
    # `--given 2,1=#` meant colour 1 (black, X) there, so check said "contradiction".
    test = COLOUR / "nonny" / "test.xml"
    solved = run("solve", test)
    assert solved.output.splitlines()[:2] == ["X$", "#@"], solved.output
    for given in ("2,1=#", "1,1=X", "(1,2)=$ (2,2)=@", "2,1=2"):
        checked = run("check", test, "--given", given)
        assert (checked.exit_code, checked.output.strip()) == (0, "unique"), (given, checked.output)
    assert run("check", test, "--given", "2,1=X").output.strip() == "contradiction"
    refused = run("check", test, "--given", "1,1=%")
    assert refused.exit_code == 2
    assert refused.stderr.splitlines() == ["nonolab: error: --given (1,1)=%: '%' draws no colour of this puzzle "
                                           "(its characters: .X#@$)"]
