"""A set with one bad puzzle: the good ones are answered, the bad one is its own located error.

Every multi-puzzle form nonolab reads (TAAI, a webpbn <puzzleset>, a JSON list, JSON Lines,
concatenated .non files, a .nonpack bundle) holds two unique puzzles of ``puzzles/`` with a
1x1 puzzle between them whose row clue is 77: impossible.  Before ``formats.load_each``,
the whole file was refused: ``check`` printed one error, ``--index 1`` too, ``batch`` made
one error record of the file.  A broken structure (what holds the set together) is still
the whole file's error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import nonolab
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidPuzzle, ParseError
from nonolab.formats import dumps, dumps_all, load, load_all, load_each, loads

from one_line import one_line_error

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
FIRST, THIRD = load(PUZZLES / "nonolab/heart.non"), load(PUZZLES / "nonolab/probe-merge.non")   # both unique
ONE = loads("1x1:1/1")


def _set_text(form: str) -> str:
    """The three-puzzle set in ``form``, its second puzzle's row clue 77 (the only 77 in it)."""
    if form == "taai":
        bad = dumps_all([ONE], "taai").replace("$1\n1\n1\n", "$2\n1\n77\n")
        return dumps_all([FIRST], "taai") + bad + dumps_all([THIRD], "taai").replace("$1", "$3")
    if form in ("json", "jsonl"):
        data = json.loads(dumps_all([FIRST, ONE, THIRD], "json"))
        data[1]["rows"] = [[77]]
        lines = [json.dumps(d) for d in data]   # a puzzle a line: an error names its puzzle's line
        return "[\n" + ",\n".join(lines) + "\n]\n" if form == "json" else "".join(x + "\n" for x in lines)
    if form == "webpbn":
        text = dumps_all([FIRST, ONE, THIRD], "webpbn")
        starts = [m.start() for m in re.finditer("<puzzle ", text)]
        second = text[starts[1]:starts[2]]
        head, _, tail = second.rpartition("<count>1</count>")   # the last clue of the 1x1: its row
        return text[:starts[1]] + head + "<count>77</count>" + tail + text[starts[2]:]
    bad = dumps(ONE, "non").replace("rows\n1\n", "rows\n77\n")
    texts = [dumps(FIRST, "non"), bad, dumps(THIRD, "non")]
    return "".join(texts) if form == "non" else "====\n".join(texts)


FORMS = {"taai": ".taai", "webpbn": ".xml", "json": ".json", "jsonl": ".jsonl", "non": ".non", "nonpack": ".nonpack"}


@pytest.fixture(params=sorted(FORMS))
def bad_set(request, tmp_path) -> tuple[str, int]:
    """(path, the line of the bad clue) of the set in each form."""
    text = _set_text(request.param)
    path = tmp_path / f"three{FORMS[request.param]}"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), 1) if "77" in x)
    return str(path), line


def _located(path: str, line: int) -> str:
    return f"{path}:{line}: puzzle 2: row 1: clue 77 needs 77 cells"


def test_load_each_gives_each_puzzle_or_its_located_error(bad_set):
    path, line = bad_set
    first, bad, third = load_each(path)
    assert (first.rows, third.rows) == (FIRST.rows, THIRD.rows)
    assert isinstance(bad, InvalidPuzzle) and (bad.path, bad.line) == (path, line)
    assert str(bad).startswith(_located(path, line)) and "\n" not in str(bad)


def test_the_python_api_reads_the_first_puzzle_and_refuses_the_set_read_whole(bad_set):
    path, line = bad_set
    assert nonolab.load(path).rows == FIRST.rows        # the first puzzle, as --index 1
    with pytest.raises(InvalidPuzzle) as info:
        load_all(path)                                  # every puzzle, or the first bad one's error
    assert str(info.value).startswith(_located(path, line))


@pytest.mark.parametrize("command, word", [(["check"], "unique"), (["solve"], "uniqueness not asked"),
                                           (["count"], "1")])
def test_check_and_solve_of_the_set_answer_the_good_ones_and_locate_the_bad_one(run, bad_set, command, word):
    path, line = bad_set
    result = run(*command, path)
    assert result.exit_code == 2, result.output
    lines = [x for x in result.stdout.splitlines() if re.match(r"#[0-9]", x)]
    first, _, third = load_each(path)   # the names, as the format keeps them (TAAI: $1, $3)
    names = [f'#1 "{first.name}"', "#2", f'#3 "{third.name}"']
    assert [x.split(":")[0] for x in lines] == names
    assert lines[0].startswith(f"{names[0]}: {word}") and lines[2].startswith(f"{names[2]}: {word}")
    assert lines[1].startswith("#2: error: " + _located(path, line))
    assert result.stdout.splitlines()[-1].endswith("could not be checked: 1")
    assert "Traceback" not in result.output


def test_the_json_document_holds_the_bad_puzzles_error_record(run, bad_set):
    path, line = bad_set
    result = run("check", path, "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert [(r["index"], r["verdict"]) for r in data["puzzles"]] == [(1, "unique"), (2, None), (3, "unique")]
    assert data["puzzles"][1]["error"].startswith(_located(path, line))
    assert data["summary"]["exit_code"] == 2


@pytest.mark.parametrize("index", ["1", "3"])
def test_index_of_a_good_puzzle_answers_it(run, bad_set, index):
    result = run("check", bad_set[0], "--index", index)
    assert result.exit_code == 0 and result.stdout == "unique\n", result.output


def test_index_of_the_bad_puzzle_is_its_one_line_located_error(run, bad_set):
    path, line = bad_set
    for command in (["check"], ["solve"], ["render", "--to", "svg"], ["info"]):
        one_line_error(run(*command, path, "--index", "2"), _located(path, line))


def test_render_of_a_good_puzzle_of_the_set_draws_it(run, bad_set, tmp_path):
    out = tmp_path / "third.svg"
    result = run("render", bad_set[0], "--index", "3", "-o", out)
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<")


def test_batch_checks_the_good_ones_and_records_the_bad_one_with_its_index_and_line(run, bad_set, tmp_path):
    path, line = bad_set
    out = tmp_path / "out.jsonl"
    result = run("batch", path, "--out", out, "-b", "native", "--no-progress")
    records = {r["index"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert sorted(records) == [1, 2, 3]
    assert (records[1]["verdict"], records[3]["verdict"]) == ("unique", "unique")
    assert (records[2]["status"], records[2]["verdict"]) == ("error", None)
    assert records[2]["error"].startswith(_located(path, line))
    assert "could not be checked: 1" in result.stdout


BROKEN = {   # what holds each set together, broken: the whole file's error
    "taai": lambda text: text.replace("$3", "$x"),
    "webpbn": lambda text: text.replace("</puzzleset>", ""),
    "json": lambda text: text.rstrip()[:-1],
    "jsonl": lambda text: text[:10] + "\n" + text.split("\n", 1)[1],   # its first line cut: no JSON Lines
    "non": lambda text: "\n",
    "nonpack": lambda text: "\n",
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_broken_structure_still_refuses_the_whole_file(run, tmp_path, form):
    path = tmp_path / f"broken{FORMS[form]}"
    path.write_text(BROKEN[form](_set_text(form)), encoding="utf-8")
    with pytest.raises(ParseError):
        load_each(path)
    for command in (["check"], ["check", "--index", "1"]):
        result = run(*command, path)
        one_line_error(result, str(path))
        assert result.stdout == ""
    out = tmp_path / "out.jsonl"
    run("batch", path, "--out", out, "-b", "native", "--no-progress")
    records = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["index"], r["status"]) for r in records] == [(1, "error")]


def test_crosscheck_and_info_answer_the_good_ones(run, tmp_path):
    path = tmp_path / "three.taai"
    path.write_text(_set_text("taai"), encoding="utf-8")
    for command in (["verify", "--backends", "native"], ["info"]):
        result = run(*command, path)
        assert result.exit_code == 2, result.output
        assert sum("error: " in x and "puzzle 2: row 1: clue 77" in x for x in result.stdout.splitlines()) == 1
        assert result.stdout.count('"$3"') == 1


def test_bench_runs_the_good_ones_and_gives_the_bad_one_its_rows_with_its_located_error(tmp_path):
    """The bad puzzle is where a user looks: its rows in runs.csv (status error, given to no
    solver), named in summary.md and summary.json; the solvers' figures are of the good ones."""
    import csv

    from nonolab import bench

    path = tmp_path / "three.taai"
    path.write_text(_set_text("taai"), encoding="utf-8")
    out = tmp_path / "bench"
    result = bench.run([str(path)], ["native", "lcg"], [], out, time_limit=30.0, repeat=2)
    located = f"{path}:{_line(path)}: puzzle 2: row 1: clue 77"
    with (out / "runs.csv").open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [r["puzzle"] for r in table] == [r["puzzle"] for r in result.records]
    assert [r["puzzle"] for r in table].count(f"{path}#2") == 4   # two solvers, two repetitions
    for r in table:
        if r["puzzle"] == f"{path}#2":
            assert (r["status"], r["verdict"], r["solved"], r["wall"], r["width"]) == ("error", "", "False", "", "")
            assert r["error"].startswith("could not be read: " + located), r["error"]
        else:
            assert (r["status"], r["verdict"]) == ("ok", "unique")
    document = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert document["puzzles"] == 3 and document["skipped"] == []
    assert [u["puzzle"] for u in document["results"]["unread"]] == [f"{path}#2"]
    assert document["results"]["unread"][0]["error"].startswith(located)
    assert [(s["solver"], s["puzzles"], s["solved"], s["errors"]) for s in document["results"]["solvers"]] == \
        [("native", 2, 2, 0), ("lcg", 2, 2, 0)]
    assert document["results"]["virtual_best"]["puzzles"] == 2
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "check on 3 puzzles (1 could not be read" in summary.splitlines()[0]
    assert f"- {path}#2: {located}" in summary
    assert result.ok


def test_bench_of_a_set_none_of_whose_puzzles_can_be_read_is_refused(tmp_path):
    from nonolab import bench
    from nonolab.errors import BenchError

    path = tmp_path / "bad.taai"
    path.write_text("$1\n1\n77\n$2\n1\n66\n", encoding="utf-8")
    with pytest.raises(BenchError, match="none of its 2 could be read: .*puzzle 1: row 1: clue 77"):
        bench.run([str(path)], ["native"], [], None, time_limit=30.0)


def _line(path: Path) -> int:
    return next(n for n, x in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "77" in x)


def test_label_reads_each_puzzle_of_a_set_on_its_own(tmp_path):
    from nonolab.exhaustive.reading import read_puzzles

    path = tmp_path / "three.json"
    path.write_text(_set_text("json"), encoding="utf-8")
    found = [(index, type(p)) for _, index, p in read_puzzles([str(path)])]
    assert [index for index, _ in found] == [1, 2, 3]
    assert [kind for _, kind in found] == [Puzzle, InvalidPuzzle, Puzzle]


def test_solve_writes_the_good_ones_and_says_the_bad_one_is_not_written(run, tmp_path):
    path = tmp_path / "three.json"
    path.write_text(_set_text("json"), encoding="utf-8")
    out = tmp_path / "solved.json"
    result = run("solve", path, "--to", "json", "-o", out)
    assert result.exit_code == 2
    assert [p.rows for p in load_all(out)] == [FIRST.rows, THIRD.rows]
    assert "1 of 3 puzzles could not be read and are not written" in result.stderr
    assert "no solution found" not in result.stderr
