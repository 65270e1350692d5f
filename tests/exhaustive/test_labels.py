"""Labels for a set of puzzles (issue 30, item 5): nonolab.exhaustive.labels and `nonolab label`."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import nonolab
from nonolab.cli.main import cli
from nonolab.exhaustive import labels as labels_module
from nonolab.exhaustive.labels import label_many
from nonolab.generate.grids import puzzle_from_array, random_grid
from nonolab.harness.classify import grade

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def test_labels_agree_with_check_and_grade():
    puzzles = [puzzle_from_array(random_grid(n, n, 0.5, seed=s)) for n in (4, 6, 9) for s in range(10)]
    puzzles.append(nonolab.load(PUZZLES / "nonolab" / "contradiction.non"))
    for puzzle, label in zip(puzzles, label_many(iter(puzzles))):
        checked = nonolab.check(puzzle, backend="native")
        assert label["verdict"] == checked.verdict.value
        graded = grade(puzzle, backend="native").grade  # None for a contradiction: nothing to solve
        assert label["grade"] == (graded.value if graded else None)
        assert label["line_solvable"] == (label["grade"] == "line" and label["verdict"] == "unique")
        shown = [nonolab.Solution.from_rows(rows) for rows in label["solutions"]]
        assert len(shown) == {"unique": 1, "multiple": 2}.get(label["verdict"], 0)
        assert all(nonolab.violations(puzzle, s) == [] for s in shown) and len(set(shown)) == len(shown)


def test_colour_puzzles_and_givens_are_labelled_too():
    heart = nonolab.load(PUZZLES / "nonolab" / "heart.non")
    given = heart.with_(givens={(0, 0): int(heart.goal.to_bytes()[0])}) if heart.goal else heart
    for label in label_many([heart, given]):
        assert label["verdict"] == "unique" and label["grade"] is not None


def test_a_wrong_solution_from_the_batch_entry_is_caught(monkeypatch):
    real = labels_module.check_arrays

    def flipped(*args, **kwargs):
        answers = real(*args, **kwargs)
        answers.grids = 3 - answers.grids  # every cell of every grid flipped (0 stays out of range)
        return answers

    monkeypatch.setattr(labels_module, "check_arrays", flipped)
    label, = label_many([nonolab.Puzzle(rows=((1,), ()), columns=((1,), ()))])
    assert label["verdict"] is None and "wrong solution" in label["error"]     # caught: this puzzle's error


def test_the_command_labels_the_shipped_puzzles():
    with open(PUZZLES / "index.csv", newline="", encoding="utf-8") as f:
        expected = {str(PUZZLES / row["file"]): int(row["solutions"]) for row in csv.DictReader(f)}
    result = CliRunner().invoke(cli, ["label", str(PUZZLES)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    verdicts = {r["file"]: r["verdict"] for r in records if r["file"] in expected}
    assert verdicts == {f: "unique" if n == 1 else "multiple" if n else "contradiction" for f, n in expected.items()}


def test_the_command_reads_a_json_lines_stream():
    one = nonolab.dumps(nonolab.Puzzle(rows=((1,),), columns=((1,),)), "json").replace("\n", "")
    two = nonolab.dumps(nonolab.Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), "json").replace("\n", "")
    result = CliRunner().invoke(cli, ["label", "-"], input=f"{one}\n\n{two}\n")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["file"], r["index"], r["verdict"]) for r in records] == [("-", 1, "unique"), ("-", 3, "multiple")]
    bad = CliRunner().invoke(cli, ["label", "-"], input=f"not json\n{one}\n")
    assert bad.exit_code == 1      # some puzzle not labelled; the ones after it are
    first, second = (json.loads(line) for line in bad.output.splitlines())
    assert (first["index"], first["verdict"]) == (2 - 1, None) and "stdin line 1" in first["error"]
    assert (second["index"], second["verdict"], second["error"]) == (2, "unique", None)


def test_the_command_reads_a_json_lines_file(tmp_path):
    one = nonolab.dumps(nonolab.Puzzle(rows=((1,),), columns=((1,),)), "json").replace("\n", "")
    (tmp_path / "set.jsonl").write_text(f"{one}\n{one}\n")
    result = CliRunner().invoke(cli, ["label", str(tmp_path / "set.jsonl")])
    assert [json.loads(line)["index"] for line in result.output.splitlines()] == [1, 2]
    missing = CliRunner().invoke(cli, ["label", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "none.jsonl" in missing.output
