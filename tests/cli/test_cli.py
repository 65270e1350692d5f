"""The command line: answers, exit codes, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.formats import load

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
CAT = str(PUZZLES / "webpbn" / "webpbn-00006-cat.non")
KNOT = str(PUZZLES / "webpbn" / "webpbn-00016-knot.non")
SIMPLE2 = str(PUZZLES / "hakank" / "simple2.non")
NONUNIQUE = str(PUZZLES / "hakank" / "nonunique.non")
CONTRADICTION = str(PUZZLES / "nonolab" / "contradiction.non")


def test_solve_prints_the_solution(run):
    result = run("solve", CAT, "--check")
    assert result.exit_code == 0
    grid = result.stdout.strip().splitlines()
    puzzle = load(CAT)
    assert len(grid) == puzzle.height and all(len(r) == puzzle.width for r in grid)
    assert "unique" in result.stderr


def test_solve_writes_a_solution_file(run, tmp_path):
    out = tmp_path / "cat.non"
    result = run("solve", CAT, "--to", "non", "-o", str(out))
    assert result.exit_code == 0
    solved = load(str(out))
    assert solved.goal is not None and solved.rows == load(CAT).rows


def test_solve_json(run):
    data = json.loads(run("solve", SIMPLE2, "--json", "--check").stdout)
    assert data["verdict"] == "multiple" and data["count"] == 2 and len(data["solutions"]) == 2


@pytest.mark.parametrize("backend", ["auto", "native", "lcg", "cnf"])
def test_solve_stops_at_the_first_solution_and_claims_no_uniqueness(run, backend):
    # simple2 has two solutions: without --check, solve finds one and says nothing of the other.
    result = run("solve", SIMPLE2, "-b", backend, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["verdict"] is None and data["count"] == 1 and not data["exact"] and data["status"] == "solved"
    for counted in (["--check"], ["--max-solutions", "2"]):  # counting to 2 says it
        data = json.loads(run("solve", SIMPLE2, "-b", backend, "--json", *counted).stdout)
        assert data["verdict"] == "multiple" and data["count"] == 2
    summary = run("solve", SIMPLE2, "-b", backend)
    assert summary.stderr.startswith("uniqueness not asked") and "multiple" not in summary.stderr


def test_check_and_max_solutions_below_2_are_refused(run):
    result = run("solve", SIMPLE2, "--check", "--max-solutions", "1")
    assert result.exit_code == 2 and result.stderr.startswith("nonolab: error: --check")
    assert "\n" not in result.stderr.strip()


def test_solve_without_solution_exits_1(run):
    result = run("solve", CONTRADICTION)
    assert result.exit_code == 1 and "contradiction" in result.stdout


@pytest.mark.parametrize("path, word, code", [
    (CAT, "unique", 0), (SIMPLE2, "multiple", 1), (CONTRADICTION, "contradiction", 1)])
def test_check_words_and_exit_codes(run, path, word, code):
    result = run("check", path)
    assert result.exit_code == code
    assert result.stdout.splitlines()[0] == word


def test_check_multiple_shows_second_solution_and_differing_cells(run):
    result = run("check", SIMPLE2)
    lines = result.stdout.splitlines()
    assert lines[0] == "multiple"
    assert "cells differ" in lines[1] and "*" in result.stdout
    data = json.loads(run("check", SIMPLE2, "--json").stdout)
    first, second = data["solutions"]
    differing = {(r, c) for r in range(len(first)) for c in range(len(first[0])) if first[r][c] != second[r][c]}
    assert differing == {tuple(rc) for rc in data["differing_cells"]}


def _hard_puzzle(tmp_path) -> str:
    from nonolab.core import Puzzle
    from nonolab.formats import dump
    from reference import n_dom
    rows, cols = n_dom(14)  # unique, and far beyond a second of depth-first search
    path = tmp_path / "dom14.non"
    dump(Puzzle(rows=rows, columns=cols), path)
    return str(path)


def test_check_timeout_is_reported_honestly(run, tmp_path):
    result = run("check", _hard_puzzle(tmp_path), "--time-limit", "0.5")
    assert result.exit_code == 1 and result.stdout.strip() == "timeout"


def test_count_exact_and_at_least(run):
    assert run("count", NONUNIQUE).stdout.strip() == "43"  # Gecode's documentation says 43
    limited = run("count", NONUNIQUE, "--limit", "5")
    assert limited.stdout.strip() == "at least 5" and limited.exit_code == 0
    data = json.loads(run("count", NONUNIQUE, "--limit", "5", "--json").stdout)
    assert data["count"] == 5 and data["exact"] is False and data["stopped_by"] == "limit"


def test_count_timeout_exits_1(run, tmp_path):
    from nonolab.core import Puzzle
    from nonolab.formats import dump
    path = tmp_path / "perm12.non"
    dump(Puzzle(rows=((1,),) * 12, columns=((1,),) * 12), path)  # 12! solutions
    result = run("count", str(path), "--time-limit", "0.3")
    assert result.exit_code == 1
    assert result.stdout.startswith("at least ") and result.stdout.strip().endswith("(timeout)")


def test_explain_prints_steps_and_grids(run):
    result = run("explain", CAT, "--every", "5")
    assert result.exit_code == 0
    assert result.stdout.startswith("step 1: line: ")
    assert result.stdout.strip().splitlines()[-1].startswith("unique: ")
    data = json.loads(run("explain", CAT, "--json").stdout)
    assert data["steps"] and all(s["technique"] == "line" for s in data["steps"])


def test_convert_between_formats_round_trips(run, tmp_path):
    xml = tmp_path / "cat.xml"
    back = tmp_path / "cat.non"
    assert run("convert", CAT, str(xml)).exit_code == 0
    assert run("convert", str(xml), str(back)).exit_code == 0
    assert load(str(back)) == load(CAT)
    tatham = tmp_path / "cat.id"
    assert run("convert", CAT, str(tatham), "--to", "tatham").exit_code == 0
    assert load(str(tatham), "tatham") == load(CAT)


def test_info(run):
    result = run("info", CAT)
    assert result.exit_code == 0 and "width:" in result.stdout
    data = json.loads(run("info", CAT, "--json").stdout)
    assert (data["width"], data["height"], data["format"]) == (20, 20, "non")


def test_help_lists_the_commands(run):
    out = run("--help").stdout
    for command in ("solve", "check", "count", "explain", "convert", "info"):
        assert command in out


@pytest.mark.parametrize("backend, option", [("cnf", "solver=glucose4"), ("cpsat", "workers=2"),
                                             ("native", "probing=contradiction")])
def test_backend_and_options(run, backend, option):
    result = run("count", NONUNIQUE, "--backend", backend, "-O", option, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["count"] == 43 and data["stats"]["backend"] == backend


def test_bad_backend_option_is_a_usage_error():
    result = CliRunner().invoke(cli, ["check", CAT, "-O", "nonsense"])
    assert result.exit_code == 2
    result = CliRunner().invoke(cli, ["check", CAT, "-O", "bogus=1"])
    assert result.exit_code == 2 and "unknown option 'bogus'" in result.stderr


def test_solve_of_one_puzzle_builds_no_text_or_record_it_does_not_print(run, monkeypatch):
    # Without --json a single puzzle's grid is printed by echo_grid: the solution as text
    # lines and the JSON record (16 MB strings each at 4000x4000) are not built, and
    # the printed grid is still the solution, byte for byte.
    from nonolab.cli import records
    from nonolab.solvers.base import Limits
    from nonolab.solvers.native import NativeSolver

    for path in (CAT, KNOT):
        puzzle = load(path)
        expected = records.picture_text(puzzle, NativeSolver().solve(puzzle, Limits(max_solutions=2)).solution)

        def unused(*args, **kwargs):
            raise AssertionError("built for nothing")
        with monkeypatch.context() as patched:
            patched.setattr(records, "picture_text", unused)
            patched.setattr(records, "result_fields", unused)
            result = run("solve", path)
        assert result.exit_code == 0 and result.stdout == expected + "\n"
        # --json still carries every solution as text.
        assert json.loads(run("solve", path, "--json").stdout)["solutions"] == [expected.splitlines()]


@pytest.mark.parametrize("name", ["same", "dot", "symlink", "hardlink"])
def test_convert_onto_its_own_source_is_refused_and_the_source_kept(run, tmp_path, monkeypatch, name):
    # Before, `convert a.non a.non` rewrote the file from the parsed puzzle: its comment
    # lines were gone; through a link named .json, the .non file became JSON.
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "a.non"
    text = "# the designer's notes, which no format keeps\n" + Path(CAT).read_text(encoding="utf-8")
    source.write_text(text, encoding="utf-8")
    target = {"same": "a.non", "dot": "./a.non", "symlink": "b.json", "hardlink": "c.non"}[name]
    if name == "symlink":
        (tmp_path / target).symlink_to(source)
    elif name == "hardlink":
        (tmp_path / target).hardlink_to(source)
    result = run("convert", "a.non", target)
    assert result.exit_code == 2 and "\n" not in result.stderr.strip(), result.output
    assert result.stderr.startswith(f"nonolab: error: TARGET {target}: is the input file a.non")
    assert source.read_text(encoding="utf-8") == text and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {"a.non", target.lstrip("./")})
    assert run("convert", "a.non", "other.non").exit_code == 0   # another file: converted


def test_convert_to_standard_output_says_so_not_dash(run):
    # Audit 7: "wrote 1 puzzle to -".
    result = run("convert", CAT, "-", "--to", "json")
    assert result.exit_code == 0 and result.stdout.startswith("{")
    assert result.stderr == "wrote 1 puzzle to standard output\n"
