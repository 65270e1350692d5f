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


def _native_runs(monkeypatch) -> list[tuple[str, int, int]]:
    """Every native search the grading runs: (its probing, its nodes, its probes), as it ends."""
    from nonolab.solvers.native import NativeSolver

    runs: list[tuple[str, int, int]] = []
    solve = NativeSolver.solve

    def counted(self, puzzle, limits=None, given=None):
        result = solve(self, puzzle, limits, given) if limits is not None else solve(self, puzzle)
        runs.append((self.probing.value, result.stats.counters["nodes"], result.stats.counters["probes"]))
        return result

    monkeypatch.setattr(NativeSolver, "solve", counted)
    return runs


@pytest.mark.parametrize("nodes", [1, 2, 3, 4, 40])
def test_the_backends_node_limit_bounds_the_whole_ladder(monkeypatch, nodes):
    """9-Dom beside a switch: deduction stalls at every level, depth-2 probing at its root
    took 1.6 M probes, and the ladder ran it whatever node limit the backend had.  Now each
    level is a native node of the limit and the count to 2 has what is left: at most N
    nodes in all, then timeout, no grade, as far as it got."""
    from search_puzzles import dominoes_and_a_switch

    runs = _native_runs(monkeypatch)
    result = grade(dominoes_and_a_switch(), f"native:node_limit={nodes}")
    assert result.grade is None and result.verdict == "timeout" and result.limited
    assert sum(n for _, n, _ in runs) <= nodes, runs
    assert [p for p, _, _ in runs if p == "depth-2"] == []   # never reached: the count before it used the rest
    assert result.harder_than is [Grade.LINE, Grade.CONTRADICTION_PROBE, Grade.FULL_PROBE][min(nodes, 3) - 1]


def test_a_level_within_the_node_limit_grades_as_without_it(monkeypatch):
    """edge needs contradiction probing: two root nodes (line, then probing) grade it; one does not."""
    edge = load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")
    assert grade(edge, "native:node_limit=2").grade is Grade.CONTRADICTION_PROBE
    runs = _native_runs(monkeypatch)
    cut = grade(edge, "native:node_limit=1")
    assert (cut.grade, cut.verdict, cut.harder_than, cut.limited) == (None, "timeout", Grade.LINE, True)
    assert [(p, n) for p, n, _ in runs] == [("none", 1)]


@pytest.mark.parametrize("conflicts", [1, 30])
def test_lcg_s_conflict_limit_bounds_the_whole_grading(monkeypatch, conflicts):
    """The ladder counted to 2 before depth-2 probing and, that count stopped by its limit,
    counted again at the end: 2N conflicts for lcg's N, and the depth-2 probing between (1.6 M
    probes here).  The work limit is read by its declaration (``spends``): N in all, then
    timeout, before depth-2."""
    from search_puzzles import dominoes_and_a_switch
    from nonolab.solvers.lcg import LcgSolver

    spent: list[int] = []
    solve = LcgSolver.solve

    def counted(self, puzzle, limits=None, given=None, **keywords):
        result = solve(self, puzzle, limits, given, **keywords)
        spent.append(result.stats.counters["conflicts"])
        return result

    monkeypatch.setattr(LcgSolver, "solve", counted)
    native = _native_runs(monkeypatch)
    result = grade(dominoes_and_a_switch(), f"lcg:conflict_limit={conflicts}")
    assert result.grade is None and result.verdict == "timeout" and result.limited
    assert sum(spent) == conflicts and len(spent) == 1, spent
    assert [p for p, _, _ in native if p == "depth-2"] == []
    assert grade(dominoes_and_a_switch(), "lcg").verdict == "multiple"
