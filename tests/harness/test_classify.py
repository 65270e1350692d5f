"""grade: the weakest technique that solves a puzzle."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.formats import load
from nonolab.harness.classify import Grade, grade

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
CORPUS = ROOT.parent / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not (CORPUS / "index.csv").exists(), reason="../shared/corpus is not beside the repo")


@pytest.mark.parametrize("file, expected, verdict", [
    ("webpbn/webpbn-00006-cat.non", Grade.LINE, "unique"),
    ("webpbn/webpbn-00023-edge.non", Grade.CONTRADICTION_PROBE, "unique"),
    ("nonolab/probe-contradiction.non", Grade.CONTRADICTION_PROBE, "unique"),
    ("hakank/nonunique.non", Grade.SEARCH, "multiple"),
    ("nonolab/switch.non", Grade.SEARCH, "multiple"),
    ("nonolab/contradiction.non", None, "contradiction"),   # no solution: not graded
])
def test_shipped_puzzles_grade(file, expected, verdict):
    result = grade(load(PUZZLES / file))
    assert result.grade is expected and result.verdict == verdict
    if expected is Grade.CONTRADICTION_PROBE:
        assert result.harder_than is Grade.LINE and result.steps["contradiction-probe"] >= 1


def test_line_steps_count_the_lines_that_changed_something():
    # Row 1 fills its cell, row 2 and column 2 empty theirs: every line of the 2x2
    # changes a cell once, except the one whose cells the others already set.
    result = grade(Puzzle(rows=((1,), ()), columns=((1,), ())))
    assert result.grade is Grade.LINE and result.steps == {"line": 3}


@needs_corpus
def test_depth2_puzzle_needs_depth2_and_no_more():
    result = grade(load(CORPUS / "hakank-classic" / "difficult.non"))
    assert result.grade is Grade.DEPTH2 and result.harder_than is Grade.FULL_PROBE
    assert result.verdict == "unique" and result.steps["depth-2-probe"] >= 1


def test_up_to_stops_early_without_an_answer():
    result = grade(load(PUZZLES / "webpbn" / "webpbn-00023-edge.non"), up_to=Grade.LINE)
    # Uniqueness was not asked: no word for it (not "unknown", which is no outcome).
    assert result.grade is None and result.harder_than is Grade.LINE and result.verdict is None
    assert result.as_dict()["verdict"] is None


def test_time_limit_gives_no_grade_rather_than_a_guess():
    # A 12x12 permutation puzzle: deduction learns nothing, and counting to 2 is quick,
    # so use a tiny limit: whatever level it reached, no grade is claimed.
    n = 12
    puzzle = Puzzle.from_solution(Solution.from_rows(["." * i + "#" + "." * (n - 1 - i) for i in range(n)]))
    result = grade(puzzle, time_limit=1e-6)
    assert result.grade is None and result.verdict == "timeout"


@needs_corpus
def test_line_solvable_exactly_where_pbnsolve_says_so():
    # Issue 5: "line" for exactly the corpus puzzles pbnsolve classes line-solvable.
    rows = list(csv.DictReader((CORPUS / "index.csv").open(encoding="utf-8")))
    wrong = []
    for row in rows:
        result = grade(load(CORPUS / row["file"]), up_to=Grade.LINE)
        if (result.grade is Grade.LINE) != (row["pbnsolve_class"] == "unique, line-solvable"):
            wrong.append(row["file"])
    assert len(rows) > 200 and wrong == []
