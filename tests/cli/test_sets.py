"""A file holding several puzzles: every command answers for each (issue 13, item 1).

The set holds a unique puzzle then one with many solutions, in each form a set
takes (TAAI, a webpbn <puzzleset>, a JSON list); the expected answers come from
puzzles/index.csv.  Before sets were first-class, `check` said `unique`, exit 0.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from nonolab.formats import dumps_all, load, load_all, loads_all

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
    (["verify", "--backends", "native,cnf"], ["unique", "multiple"]),   # the words; agreement apart
])
def test_json_of_a_set_is_one_document_with_a_record_per_puzzle(run, two, command, verdicts):
    data = json.loads(run(*command, two, "--json").stdout)
    assert data["file"] == two and [r["index"] for r in data["puzzles"]] == [1, 2]
    assert [r["title"] for r in data["puzzles"]] == [p.name or None for p in load_all(two)]
    assert [r["verdict"] for r in data["puzzles"]] == verdicts
    assert data["summary"]["puzzles"] == 2


def test_grade_of_a_set_counts_outcome_words_and_gives_the_grade_apart(run, two):
    # Before: the summary counted grades as verdicts ("2 puzzles: 1 line, 1 search";
    # JSON "verdicts": {"line": 1, "search": 1}): a multiple puzzle was said to be "search".
    result = run("grade", two)
    assert result.stdout.splitlines()[-1] == "2 puzzles: 1 unique, 1 multiple", result.output
    second = next(line for line in result.stdout.splitlines() if line.startswith(_names(two)[1]))
    assert "grade: search" in second and "; multiple;" in second
    data = json.loads(run("grade", two, "--json").stdout)
    assert data["summary"]["verdicts"] == {"unique": 1, "multiple": 1}
    assert [(r["grade"], r["verdict"]) for r in data["puzzles"]] == [("line", "unique"), ("search", "multiple")]


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


@pytest.fixture
def one_too_big(tmp_path) -> tuple[str, list[str]]:
    """A JSON set of three whose second puzzle is beyond the cnf backend's ``max_states`` (a
    library error, TooLarge), and the options that set that limit between the puzzles' sizes."""
    from nonolab.solvers.size import model_states

    small, big = load(PUZZLES / UNIQUE), load(PUZZLES / "hakank" / "nonunique.non")
    assert model_states(small) < model_states(big)
    path = tmp_path / "three.json"
    path.write_text(dumps_all([small, big, small], "json"), encoding="utf-8")
    return str(path), ["-b", "cnf", "-O", f"max_states={model_states(small)}"]


REFUSED = "error: backend 'cnf': the 11x15 puzzle needs a model of"


@pytest.mark.parametrize("command", [("check",), ("check", "--why"), ("check", "--report"), ("count",), ("solve",),
                                     ("grade",)])
def test_a_library_error_on_one_puzzle_of_a_set_is_that_puzzle_s_answer_alone(run, one_too_big, command):
    # On b8e0014 the refusal of puzzle 2 ended the command with one error line: puzzle 3
    # was never answered, no summary was printed and --json printed nothing.
    path, refuse = one_too_big
    result = run(*command, *refuse, path)
    lines = result.stdout.splitlines()
    assert result.exit_code == 2, result.output
    named = [line.split(":")[0] for line in lines if re.match(r'#\d+ "', line)]
    assert named == ['#1 "heart"', '#2 "nonunique"', '#3 "heart"'], lines
    second = next(line for line in lines if line.startswith("#2"))
    assert second.startswith(f'#2 "nonunique": {REFUSED}') and "\n" not in second, lines
    third = next(line for line in lines if line.startswith("#3"))
    assert "error" not in third, lines
    # solve gives first solutions, uniqueness not asked: only the error is counted
    answered = {("solve",): ""}.get(command, ": 2 unique")
    assert lines[-1] == f"3 puzzles{answered}; could not be checked: 1", lines
    assert result.stderr == ""
    data = json.loads(run(*command, *refuse, path, "--json").stdout)
    assert [r["index"] for r in data["puzzles"]] == [1, 2, 3]
    assert data["puzzles"][1]["verdict"] is None and data["puzzles"][1]["error"].startswith(REFUSED[7:])
    assert "error" not in data["puzzles"][0] and "error" not in data["puzzles"][2]
    assert data["summary"]["errors"] == 1 and data["summary"]["exit_code"] == 2 and data["summary"]["puzzles"] == 3


def test_a_backend_that_refuses_one_puzzle_of_a_set_refuses_that_one_alone(run, tmp_path):
    heart = load(PUZZLES / UNIQUE)
    given = heart.with_(givens=[(0, 0, 1 if heart.goal.to_text()[0] == "#" else 0)])
    path = tmp_path / "three.json"
    path.write_text(dumps_all([heart, given, heart], "json"), encoding="utf-8")
    lines = run("check", "-b", "dlx", path).stdout.splitlines()   # dlx takes no given cells
    assert len(lines) == 4 and lines[0] == '#1 "heart": unique' and lines[2:] == ['#3 "heart": unique',
                                                                                 "3 puzzles: 2 unique; could not be checked: 1"]
    assert lines[1].startswith("#2 \"heart\": error: backend 'dlx' does not take given cells; puzzles with givens "
                               "need one of: auto, cnf"), lines


def test_repair_of_a_set_writes_every_puzzle_the_one_an_error_stopped_unchanged(run, one_too_big, tmp_path):
    path, refuse = one_too_big
    before = load_all(path)
    out = tmp_path / "out.json"
    result = run("repair", *refuse, path, "-o", out)
    lines = result.stdout.splitlines()
    assert result.exit_code == 2 and lines[1].startswith(f'#2 "nonunique": {REFUSED}'), result.output
    assert lines[-1] == "3 puzzles: 2 unique; could not be checked: 1"
    after = load_all(out)
    assert len(after) == 3 and after[1] == before[1]
    # To standard output: the puzzles there, each answer (the error too) on stderr in order.
    piped = run("repair", *refuse, path)
    assert piped.exit_code == 2 and len(loads_all(piped.stdout, "json")) == 3
    assert [line.split(":")[0] for line in piped.stderr.splitlines()] == ['#1 "heart"', '#2 "nonunique"', '#3 "heart"',
                                                                         "3 puzzles"]   # and the summary
    assert REFUSED in piped.stderr.splitlines()[1]


def test_a_single_puzzle_s_library_error_is_still_the_command_s_one_line_error(run, one_too_big):
    path, refuse = one_too_big
    result = run("check", *refuse, path, "--index", "2")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"nonolab: {REFUSED}") and result.stderr.count("\n") == 1
    data = run("check", *refuse, path, "--index", "2", "--json")
    assert data.exit_code == 2 and data.stdout == ""


def test_puzzles_the_clock_did_not_reach_each_have_a_timeout_record(run, two, monkeypatch):
    from nonolab.cli import clock

    monkeypatch.setattr(clock, "elapsed", lambda: 10.0 ** 6)   # the command's clock has run out
    data = json.loads(run("check", two, "--time-limit", "5", "--json").stdout)
    assert [(r["index"], r["verdict"], r["error"]) for r in data["puzzles"]] == [(1, "timeout", None),
                                                                                 (2, "timeout", None)]
    assert data["summary"]["verdicts"] == {"timeout": 2}


@pytest.mark.parametrize("command", [("convert",), ("solve", "-o"), ("repair", "-o")], ids=lambda c: c[0])
def test_a_set_written_to_a_format_of_one_puzzle_is_one_line_before_any_work(run, two, tmp_path, command):
    # Before: a ValueError traceback from dumps_all, after solving or repairing every puzzle.
    out = tmp_path / "out.tatham"
    result = run(command[0], two, *command[1:], out)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"nonolab: error: {out}: the 'tatham' format holds one puzzle, and there are 2 "
                                    "to write (formats holding several: "), result.stderr
    assert result.stderr.count("\n") == 1 and not out.exists()
    if command[0] != "convert":   # one puzzle of the set fits
        assert run(command[0], two, *command[1:], out, "--index", "1").exit_code == 0 and out.exists()


def test_solve_of_a_set_to_standard_output_in_a_format_of_one_puzzle_is_refused_before_solving(run, two):
    result = run("solve", two, "--to", "tatham")
    assert result.exit_code == 2 and result.stdout == "" and "--index N" in result.stderr
    assert result.stderr.startswith(f"nonolab: error: {two}: the 'tatham' format holds one puzzle")


@pytest.mark.parametrize("name, word, code", [("hakank/nonunique.non", "multiple", 0),
                                               ("nonolab/contradiction.non", "contradiction", 1)])
def test_solve_check_writing_the_puzzle_to_standard_output_says_its_verdict_on_stderr(run, name, word, code):
    """Audit 7: `solve --check --to non` (standard output) said nothing of a multiple puzzle, and
    nothing at all of a contradiction (exit 1, both streams empty); with -o FILE it said it."""
    result = run("solve", PUZZLES / name, "--check", "--to", "non")
    assert result.exit_code == code
    assert result.stderr.startswith(word + " ("), result.stderr
    assert ("width" in result.stdout) == (word != "contradiction")   # the puzzle, and the verdict beside it


def test_solve_of_a_set_to_standard_output_says_each_verdict_on_stderr(run, two):
    result = run("solve", two, "--check", "--to", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)
    lines = result.stderr.splitlines()
    assert lines[0].startswith("#1") and ": unique (" in lines[0], result.stderr
    assert lines[1].startswith("#2") and ": multiple (" in lines[1], result.stderr
    assert lines[2] == "2 puzzles: 1 unique, 1 multiple", result.stderr


@pytest.mark.parametrize("command", [("render",), ("render", "--solution"), ("render", "--to", "pdf"),
                                     ("export", "--to", "dzn")])
def test_a_command_that_makes_one_thing_refuses_a_set_without_index_and_takes_the_one_named(run, two, command):
    # Audit 7: render and export took the set's first puzzle and said nothing (and had no --index).
    result = run(*command, two)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith(f"nonolab: error: {two} holds 2 puzzles"), result.stderr
    assert "--index N" in result.stderr
    second = run(*command, two, "--index", "2", *(["-o", two + ".pdf"] if "pdf" in command else []))
    assert second.exit_code == 0, second.output
    title = load_all(two)[1].name   # the second puzzle's ("$2" in TAAI)
    if command[0] == "export":
        assert "rows = 5;" in second.stdout and f'% title: "{title}"' in second.stdout
    elif "pdf" not in command:
        assert title in second.stdout
