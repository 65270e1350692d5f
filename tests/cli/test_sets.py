"""A file holding several puzzles: every command answers for each (issue 13, item 1).

The set holds a unique puzzle then one with many solutions, in each form a set
takes (TAAI, a webpbn <puzzleset>, a JSON list); the expected answers come from
puzzles/index.csv.  Before sets were first-class, `check` said `unique`, exit 0.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from nonolab.formats import dumps_all, load, load_all

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
UNIQUE, MANY, THIRD = "nonolab/heart.non", "nonolab/permutations-5.non", "nonolab/probe-merge.non"


def _solutions(name: str) -> int:
    with open(PUZZLES / "index.csv", encoding="utf-8") as f:
        return next(int(row["solutions"]) for row in csv.DictReader(f) if row["file"] == name)


@pytest.fixture(params=[("taai", ".taai"), ("webpbn", ".xml"), ("json", ".json"), ("non", ".non")],
                ids=lambda p: p[0])
def two(request, tmp_path) -> str:
    """A two-puzzle set whose second puzzle is not unique (``non``: two files concatenated)."""
    assert _solutions(UNIQUE) == 1 and _solutions(MANY) > 1
    fmt, suffix = request.param
    path = tmp_path / f"two{suffix}"
    if fmt == "non":
        text = "".join((PUZZLES / name).read_text(encoding="utf-8") for name in (UNIQUE, MANY))
    else:
        text = dumps_all([load(PUZZLES / UNIQUE), load(PUZZLES / MANY)], fmt)
    path.write_text(text, encoding="utf-8")
    return str(path)


def _names(path: str) -> list[str]:
    return [f'#{i} "{p.name}"' if p.name else f"#{i}" for i, p in enumerate(load_all(path), 1)]


def test_check_answers_for_every_puzzle_and_exits_with_the_worst(run, two):
    result = run("check", two)
    first, second = _names(two)
    lines = result.stdout.splitlines()
    assert result.exit_code == 1
    assert lines[0] == f"{first}: unique" and lines[1] == f"{second}: multiple"
    assert lines[-1] == "2 puzzles: 1 unique, 1 multiple"


def test_index_answers_for_one_puzzle_as_a_single_file_does(run, two):
    one = run("check", two, "--index", "1")
    assert one.exit_code == 0 and one.stdout == "unique\n"
    other = run("check", two, "--index", "2")
    assert other.exit_code == 1 and other.stdout.splitlines()[0] == "multiple"
    record = json.loads(run("check", two, "--index", "2", "--json").stdout)
    assert (record["index"], record["verdict"], record["file"]) == (2, "multiple", two) and "puzzles" not in record


@pytest.mark.parametrize("index", ["3", "0", "-1"])
def test_index_out_of_range_is_one_line_naming_the_file(run, two, index):
    result = run("check", two, "--index", index)
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert "\n" not in message and two in message and "holds 2 puzzles" in message


@pytest.mark.parametrize("command, first, second, code", [
    (["check", "--why"], "unique", "multiple", 1),
    (["solve"], "uniqueness not asked", "uniqueness not asked", 0),  # a first solution each
    (["solve", "--check"], "unique", "multiple", 0),  # solve fails only without a solution
    (["count"], "1", str(_solutions(MANY)), 0),
    (["grade"], "grade: line", "grade: search", 1),
    (["explain", "--no-grid"], "unique", "multiple", 1),    # the verdict of a count to 2, not "solved"
    (["verify", "--backends", "native"], None, None, 0),
    (["info"], None, None, 0),
])
def test_every_command_answers_for_every_puzzle(run, two, command, first, second, code):
    result = run(*command, two)
    assert result.exit_code == code, result.output
    out = result.stdout
    for name, word in zip(_names(two), (first, second)):
        assert name in out
        if word is not None:
            line = next(x for x in out.splitlines() if x.startswith(name))
            assert line.startswith(f"{name}: {word}"), line
    assert out.splitlines()[-1].startswith("2 puzzles")


@pytest.mark.parametrize("command, verdicts", [
    (["check"], ["unique", "multiple"]),
    (["check", "--why"], ["unique", "multiple"]),
    (["solve"], [None, None]),                # a first solution each: uniqueness not asked
    (["solve", "--check"], ["unique", "multiple"]),
    (["count"], ["unique", "multiple"]),     # the outcome words, not "exact"
    (["verify", "--backends", "native,cnf"], ["agree", "agree"]),
])
def test_json_of_a_set_is_one_document_with_a_record_per_puzzle(run, two, command, verdicts):
    data = json.loads(run(*command, two, "--json").stdout)
    assert data["file"] == two and [r["index"] for r in data["puzzles"]] == [1, 2]
    assert [r["title"] for r in data["puzzles"]] == [p.name or None for p in load_all(two)]
    assert [r["verdict"] for r in data["puzzles"]] == verdicts
    assert data["summary"]["puzzles"] == 2


def test_why_image_on_a_set_asks_for_an_index(run, two, tmp_path):
    result = run("check", two, "--why-image", tmp_path / "x.svg")
    assert result.exit_code == 2 and "--index" in result.stderr and not (tmp_path / "x.svg").exists()


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_batch_gives_one_record_per_puzzle_and_resumes_by_file_and_index(run, tmp_path):
    three = tmp_path / "three.taai"
    three.write_text(dumps_all([load(PUZZLES / p) for p in (UNIQUE, MANY, THIRD)], "taai"), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    first = run("batch", three, "--out", out, "-b", "native", "--no-progress")
    assert first.exit_code == 0, first.output
    records = _records(out)
    assert sorted(r["index"] for r in records) == [1, 2, 3]
    assert {r["index"]: r["verdict"] for r in records} == {1: "unique", 2: "multiple", 3: "unique"}
    # Lose the second puzzle's record: --resume runs that one only, by its (file, index) key.
    out.write_text("".join(json.dumps(r) + "\n" for r in records if r["index"] != 2), encoding="utf-8")
    again = run("batch", three, "--out", out, "-b", "native", "--no-progress", "--resume")
    assert again.exit_code == 0 and "2 puzzles already in the results file; 1 to run" in again.stderr
    after = _records(out)
    assert len(after) == 3 and after[-1]["index"] == 2 and after[-1]["verdict"] == "multiple"


def test_solve_writes_every_puzzle_of_a_set_with_its_solution(run, two, tmp_path):
    out = tmp_path / "solved.json"
    result = run("solve", two, "--to", "json", "-o", out)
    solved = load_all(out)
    assert result.exit_code == 0 and len(solved) == 2
    assert all(p.goal is not None for p in solved)
    assert [p.rows for p in solved] == [p.rows for p in load_all(two)]


def test_solve_of_a_set_prints_each_solution_under_its_name(run, two):
    from nonolab.solvers.base import Limits
    from nonolab.solvers.native import NativeSolver

    # The set's second puzzle has many solutions and auto prints whichever of its
    # racing parts answers first: each puzzle's printed grid is one of its own.
    out = run("solve", two).stdout
    sections = out.split('#2 "')
    assert len(sections) == 2, out
    for puzzle, section in zip(load_all(two), sections):
        every = NativeSolver().solve(puzzle, Limits(max_solutions=None)).solutions
        assert sum("\n" + s.to_text() + "\n" in section for s in every) == 1, section
