"""``check --why``: the ambiguity report on the command line, as text, JSON and pictures."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from nonolab.core import Puzzle
from nonolab.formats import dump, load

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
NONUNIQUE = str(PUZZLES / "hakank" / "nonunique.non")   # 43 solutions
T2 = str(PUZZLES / "hakank" / "t2.non")                 # one 2x2 switch
EDGE = str(PUZZLES / "webpbn" / "webpbn-00023-edge.non")
CONTRADICTION = str(PUZZLES / "nonolab" / "contradiction.non")


def test_why_on_the_43_solution_puzzle(run):
    result = run("check", "--why", NONUNIQUE)
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and lines[0] == "multiple"
    assert lines[1].startswith("43 solutions (exact count; backend cnf)")
    assert lines[2] == "backbone: 107 of 165 cells are the same in every solution (exact)"
    assert any(ln.startswith("givens (greedy, not a proven minimum): reveal ") for ln in lines)
    puzzle = load(NONUNIQUE)
    picture = lines[lines.index(next(ln for ln in lines if ln.startswith("reference solution"))) + 1:][:puzzle.height]
    assert all(len(row) == puzzle.width for row in picture)


def test_why_names_the_2x2_switch(run):
    result = run("check", T2, "--why")
    assert "  a: 2x2 switch at rows 3-4, columns 7-8" in result.stdout.splitlines()


def test_why_json_has_the_report_fields(run):
    result = run("check", "--why", "--json", NONUNIQUE)
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["file"] == NONUNIQUE and data["verdict"] == "multiple"
    assert data["status"] == "solved" and data["backend"] == "cnf"
    assert data["count"] == 43 and data["exact"] is True
    assert data["backbone"]["exact"] is True and data["backbone"]["size"] == 107 == len(data["backbone"]["cells"])
    assert len(data["free_cells"]) == 165 - 107 and data["undecided_cells"] == []
    assert data["regions"]["exact"] is True and data["regions"]["items"]
    assert {"kind", "cells", "arrangements", "arrangements_exact", "adjacent"} <= set(data["regions"]["items"][0])
    assert data["givens"]["method"] == "greedy" and data["givens"]["unique"] is True
    assert all(len(g) == 3 for g in data["givens"]["cells"])
    assert {"questions", "wall_time"} <= set(data["stats"])


def test_why_on_unique_and_contradiction(run):
    unique = run("check", "--why", EDGE)
    assert unique.exit_code == 0 and unique.stdout.splitlines() == [
        "unique", "backbone: all 110 cells (the solution is unique; exact count with cnf)"]
    data = json.loads(run("check", "--why", "--json", EDGE).stdout)
    assert data["verdict"] == "unique" and data["backbone"]["size"] == 110 and data["givens"]["cells"] == []
    none = run("check", "--why", CONTRADICTION)
    assert none.exit_code == 1 and none.stdout.splitlines()[0] == "contradiction"


def test_why_uses_a_backend_that_can_fix_cells(run):
    data = json.loads(run("check", "--why", "--json", T2, "--backend", "cpsat").stdout)
    assert data["backend"] == "cpsat" and data["status"] == "solved"
    data = json.loads(run("check", "--why", "--json", T2, "--backend", "native").stdout)
    assert data["backend"] == "native" and data["status"] == "solved"
    data = json.loads(run("check", "--why", "--json", T2, "--backend", "backtrack").stdout)
    assert data["backend"] == "cnf"       # backtrack cannot fix cells
    data = json.loads(run("check", "--why", "--json", T2).stdout)
    assert data["backend"] == "cnf"       # auto, a strategy, hands the report to cnf


def test_why_image_svg_is_valid_and_written_atomically(run, tmp_path):
    out = tmp_path / "regions.svg"
    result = run("check", NONUNIQUE, "--why-image", str(out))   # implies --why
    assert result.exit_code == 1 and result.stdout.startswith("multiple\n43 solutions")
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    data = json.loads(run("check", "--why", "--json", NONUNIQUE).stdout)
    groups = {g.get("class"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    size = float(groups["cells"].get("data-cell"))   # runs of same-coloured cells; white ones left blank
    coloured = sum(round(float(r.get("width")) / size) for r in groups["cells"])
    free = {tuple(rc) for rc in data["free_cells"]}
    assert coloured == len(free) + sum(row[c] == "#" and (r, c) not in free
                                       for r, row in enumerate(data["reference"]) for c in range(len(row)))
    assert len(groups["givens"]) == 2 * len(data["givens"]["cells"])      # a halo and a ring each
    assert [p.name for p in tmp_path.iterdir()] == ["regions.svg"]  # no temporary file left


def test_why_image_png(run, tmp_path):
    from PIL import Image

    out = tmp_path / "regions.png"
    assert run("check", "--why", T2, "--why-image", str(out)).exit_code == 1
    with Image.open(out) as image:
        image.verify()
        assert image.format == "PNG" and image.size[0] > 14 * 16


def test_why_with_a_time_limit_says_what_is_not_exact(run, tmp_path, monkeypatch):
    # 40! solutions and 1,600 cells: the first count finds hundreds of solutions, then the
    # limit comes (every later question of the report is cut: no clock, so a loaded
    # machine cannot turn "multiple" into "timeout" here).
    import nonolab.harness.ambiguity as ambiguity
    from fake_backends import QuestionsCut

    path = tmp_path / "perm40.non"
    dump(Puzzle(rows=((1,),) * 40, columns=((1,),) * 40), path)
    monkeypatch.setattr(ambiguity, "questioner", lambda solver, puzzle=None: QuestionsCut(1))
    result = run("check", "--why", str(path), "--time-limit", "60")
    assert result.exit_code == 1 and result.stdout.splitlines()[0] == "multiple"
    assert "not exact: the time, node or conflict limit came first" in result.stdout
    assert "backbone: 0 of 1600 cells" in result.stdout       # none is, and none is claimed
    monkeypatch.setattr(ambiguity, "questioner", lambda solver, puzzle=None: QuestionsCut(1))
    data = json.loads(run("check", "--why", "--json", str(path), "--time-limit", "60").stdout)
    assert data["status"] == "timeout" and data["backbone"]["size"] == 0


def test_check_without_why_is_unchanged(run):
    result = run("check", T2)
    assert result.stdout.splitlines()[0] == "multiple" and "cells differ" in result.stdout
    assert "backbone" not in result.stdout
    assert "backbone" not in json.loads(run("check", T2, "--json").stdout)


def test_why_image_says_why_no_picture_was_written_in_the_verdict_s_word(run, tmp_path, monkeypatch):
    # Audit 7: Knotty cut short by --time-limit said "no solution, so no picture written":
    # it has several; a timeout found none in time.
    import dataclasses

    from nonolab.harness import ambiguity
    from nonolab.harness.uniqueness import Verdict
    contradiction = PUZZLES / "nonolab" / "contradiction.non"
    result = run("check", contradiction, "--why-image", tmp_path / "x.svg")
    assert result.exit_code == 1 and not (tmp_path / "x.svg").exists()
    assert f"nonolab: contradiction: no solution, so no picture written to {tmp_path / 'x.svg'}" in result.stderr
    real = ambiguity.ambiguity_report
    monkeypatch.setattr(ambiguity, "ambiguity_report",
                        lambda *a, **k: dataclasses.replace(real(*a, **k), verdict=Verdict.TIMEOUT))
    result = run("check", contradiction, "--why-image", tmp_path / "x.svg")
    assert result.exit_code == 1 and not (tmp_path / "x.svg").exists()
    assert "nonolab: timeout: no solution found in time, so no picture written" in result.stderr, result.stderr
    assert "nonolab: no solution" not in result.stderr


def test_why_s_verdict_is_the_count_of_the_backend_asked_not_of_its_questioner(run, monkeypatch):
    # Audit 8: `check --why` of Knotty said "timeout: no solution found within the time
    # limit (cnf)" after 15 s, where `check` (auto) says multiple in 0.3 s: the report asked
    # cnf everything, the verdict too.  Here cnf answers no question at all (no clock):
    # the verdict and the two solutions are still auto's, as `check` gives them.
    import nonolab.harness.ambiguity as ambiguity
    from fake_backends import QuestionsCut

    monkeypatch.setattr(ambiguity, "questioner", lambda solver, puzzle=None: QuestionsCut(0))
    result = run("check", "--why", T2)
    assert result.exit_code == 1 and result.stdout.splitlines()[0] == "multiple", result.stdout
    assert result.stdout.splitlines()[1].startswith("at least 2 solutions (not all enumerated")
    monkeypatch.setattr(ambiguity, "questioner", lambda solver, puzzle=None: QuestionsCut(0))
    data = json.loads(run("check", "--why", "--json", T2).stdout)
    assert data["verdict"] == "multiple" and data["count"] >= 2
    # No question answered, yet the cells where the two known solutions differ are free:
    # the 2x2 switch at rows 3-4, columns 7-8 (0-based in JSON); nothing else is claimed.
    assert sorted(map(tuple, data["free_cells"])) == [(2, 6), (2, 7), (3, 6), (3, 7)]
    assert len(data["undecided_cells"]) == 84 - 4 and data["backbone"]["size"] == 0


@pytest.mark.parametrize("backend", ["auto", "native"])
@pytest.mark.parametrize("path", [NONUNIQUE, T2, str(PUZZLES / "nonolab" / "permutations-5.non")],
                         ids=["nonunique", "t2", "permutations-5"])
def test_why_s_reference_is_check_s_solution_1_and_its_givens_the_report_s(run, path, backend):
    # Before: `check` printed auto's first solution as "solution 1", and `check --why` a
    # "reference: the first solution found" that was cnf's (another picture, its questioner):
    # nonunique.non got 2 givens from check --why and repair --givens, 3 others from
    # check --report and the workbench, each "reveal N cells and the puzzle is unique".
    checked = json.loads(run("check", path, "-b", backend, "--json").stdout)
    why = json.loads(run("check", "--why", path, "-b", backend, "--json").stdout)
    report = json.loads(run("check", "--report", path, "-b", backend, "--json").stdout)
    assert why["reference"] == report["solution"] == checked["solutions"][0]
    assert why["givens"]["cells"] == report["givens"]["cells"]
    revealed = json.loads(run("repair", "--givens", path, "-b", backend, "--json", "--to", "json").stdout)
    assert revealed["givens"] == why["givens"]["cells"]


def test_why_of_a_grid_beyond_cnf_s_model_asks_native(run, tmp_path):
    # Audit 45: `check --why` of a 300x300 line-solvable puzzle ended "nonolab: error: backend
    # 'cnf': the 300x300 puzzle needs a model of 9,501,609 cells ...; use the native backend",
    # exit 2, where `check` says unique: the report asked cnf, a backend the user never named.
    # The same guard refused the designer's report's ambiguity part of a multiple grid.
    from nonolab.core import Solution
    from nonolab.solvers import get
    from nonolab.solvers.size import model_states

    n = 210
    rows = ["#" * (n // 2) + "." * (n - n // 2) if r % 2 == 0 else "." * (n // 3) + "#" * (n // 3) + "." * (n - 2 * (n // 3))
            for r in range(n)]
    puzzle = Puzzle.from_solution(Solution.from_rows(rows))
    assert model_states(puzzle) > get("cnf").max_states      # beyond cnf's guard
    path = tmp_path / "wide.non"
    dump(puzzle, path)
    result = run("check", "--why", path)
    assert result.exit_code == 0 and result.stdout.splitlines()[:2] == [
        "unique", f"backbone: all {n * n} cells (the solution is unique; exact count with native)"], result.output
