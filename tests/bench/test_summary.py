"""The figures of a benchmark on hand-made rows: PAR-2, the virtual best solver, wins, ratios, judgement."""

from __future__ import annotations

import math

import pytest

from nonolab.bench.summary import judge, puzzle_time, puzzle_times, ratio, summarise


def row(puzzle, solver, verdict, time, repeat=1, kind="nonolab"):
    return {"puzzle": puzzle, "solver": solver, "kind": kind, "verdict": verdict, "repeat": repeat,
            "solved": verdict in ("unique", "multiple", "contradiction", "solved"), "wall": time, "cpu": time / 2}


ROWS = [row("p1", "a", "unique", 1.0), row("p1", "b", "unique", 4.0),
        row("p2", "a", "timeout", 10.0), row("p2", "b", "multiple", 3.0),
        row("p3", "a", "unique", 2.0), row("p3", "b", None, 0.1)]


def test_par2_counts_an_unsolved_puzzle_twice_the_limit():
    figures = summarise(ROWS, ["a", "b"], time_limit=10, measure="wall")
    a, b = figures["solvers"]
    assert (a["solved"], a["timeouts"], a["errors"]) == (2, 1, 0)
    assert a["par2"] == pytest.approx((1.0 + 20.0 + 2.0) / 3)
    assert (b["solved"], b["timeouts"], b["errors"]) == (2, 0, 1)
    assert b["par2"] == pytest.approx((4.0 + 3.0 + 20.0) / 3)
    assert (a["total"], a["median"], a["max"]) == (3.0, 1.5, 2.0)


def test_the_virtual_best_takes_the_best_time_of_any_solver_and_wins_are_counted():
    figures = summarise(ROWS, ["a", "b"], time_limit=10, measure="wall")
    vbs = figures["virtual_best"]
    assert vbs["solved"] == 3
    assert vbs["par2"] == pytest.approx((1.0 + 3.0 + 2.0) / 3)
    assert [s["wins"] for s in figures["solvers"]] == [2, 1]


def test_the_measure_chooses_the_column():
    figures = summarise(ROWS, ["a", "b"], time_limit=10, measure="cpu")
    assert figures["solvers"][0]["total"] == 1.5


def test_without_a_limit_there_is_no_par2():
    assert summarise(ROWS, ["a", "b"], time_limit=None)["solvers"][0]["par2"] is None


def test_the_time_of_a_puzzle_is_the_median_of_its_repetitions():
    rows = [row("p", "a", "unique", t, repeat=r) for r, t in enumerate((5.0, 1.0, 3.0), 1)]
    rows += [row("q", "a", v, 1.0, repeat=r) for r, v in enumerate(("unique", "timeout", "timeout"), 1)]
    figures = summarise(rows, ["a"], time_limit=10)
    assert figures["solvers"][0]["total"] == 3.0 and figures["solvers"][0]["solved"] == 1


def test_ratio_per_repetition_with_its_spread_and_the_geometric_mean():
    rows = []
    for repeat, (mine, theirs) in enumerate(((1.0, 2.0), (3.0, 2.0)), 1):
        rows += [row("p", "new", "unique", mine, repeat), row("p", "old", "unique", theirs, repeat),
                 row("q", "new", "unique", 1.0, repeat), row("q", "old", "unique", 1.0, repeat)]
    rows += [row("r", "new", "timeout", 9.0), row("r", "old", "unique", 1.0)]  # not solved by both: left out
    found = ratio(rows, "new", "old", "wall")
    assert found["puzzles"] == 2 and found["repeats"] == 2
    # per repetition: (1 + 1) / (2 + 1) and (3 + 1) / (2 + 1)
    assert (found["low"], found["ratio"], found["high"]) == pytest.approx((2 / 3, 1.0, 4 / 3), abs=1e-4)
    # A puzzle's time is the one of every figure, the upper median of its repetitions
    # (puzzle_time): p is 3.0 against 2.0, q 1.0 against 1.0 (the mean of two gave p 2.0, a geomean of 1.0).
    assert found["geomean"] == pytest.approx(math.sqrt(1.5), abs=1e-4)
    times = puzzle_times(rows, "wall")
    each = [times["new"][p] / times["old"][p] for p in ("p", "q")]
    assert found["geomean"] == pytest.approx(math.prod(each) ** (1 / len(each)), abs=1e-4)


def test_a_puzzles_time_is_the_upper_median_of_its_repetitions():
    """One definition, which every figure and the geometric mean use: a time that was measured
    (the upper of the two middle ones), an unsolved repetition infinite, so two runs solve a
    puzzle only when both do."""
    assert puzzle_time([1.0, 3.0]) == 3.0 and puzzle_time([3.0, 1.0, 2.0]) == 2.0
    assert puzzle_time([1.0, math.inf]) == math.inf and puzzle_time([1.0, 2.0, math.inf]) == 2.0


def test_a_verified_witness_refutes_and_every_disagreement_is_listed():
    rows = [row("p", "nl", "multiple", 1.0), row("p", "x", "unique", 1.0, kind="external"),
            row("q", "nl", "unique", 1.0), row("q", "x", "contradiction", 1.0, kind="external"),
            row("r", "nl", "unique", 1.0), row("r", "x", "multiple", 1.0, kind="external"),
            row("s", "nl", "unique", 1.0), row("s", "x", "timeout", 1.0, kind="external")]
    disagreements, refuted = judge(rows, "check")
    assert [d["puzzle"] for d in disagreements] == ["p", "q", "r"]  # a timeout claims nothing
    # r: nl's "unique" is a complete search's proof, x's "multiple" a claim with no solution shown
    assert set(refuted) == {1, 3, 5}
    assert refuted[1] == "refuted by 2 checked solutions (nl)" and refuted[3] == "refuted by a checked solution (nl)"
    assert refuted[5] == "refuted by nl's complete search (unique)"
    figures = summarise(rows, ["nl", "x"], time_limit=10)
    assert figures["solvers"][1]["wrong"] == 3 and len(figures["wrong"]) == 3
    assert figures["solvers"][0]["wrong"] == 0


def answers(*rows_, task="check"):
    """judge's verdict on one puzzle's rows: (the refuted solvers, what was proven, whether listed)."""
    disagreements, wrong = judge(list(rows_), task)
    refuted = sorted({rows_[i]["solver"] for i in wrong})
    return refuted, (disagreements[0]["proof"] if disagreements else None), bool(disagreements)


def nl(verdict, solver="native", checked=None, **more):
    found = row("p", solver, verdict, 1.0)
    found.update({"exact": verdict in ("unique", "contradiction"), **more})
    if checked is not None:
        found["checked"] = checked
    return found


def ext(verdict, solver="x", checked=0, **more):
    return dict(row("p", solver, verdict, 1.0, kind="external"), checked=checked, **more)


@pytest.mark.parametrize("external", ["unique", "multiple"])
def test_a_complete_searchs_contradiction_makes_an_externals_claim_of_solutions_wrong(external):
    assert answers(nl("contradiction", checked=0), ext(external)) == (
        ["x"], "native's complete search (contradiction)", True)


def test_a_complete_searchs_unique_makes_an_externals_multiple_or_contradiction_wrong():
    assert answers(nl("unique", checked=1), ext("multiple"))[0] == ["x"]
    assert answers(nl("unique", checked=1), ext("contradiction")) == (["x"], "native's complete search (unique)", True)


def test_an_externals_checked_grid_refutes_a_complete_searchs_contradiction():
    """A checked solution is the stronger proof: the search that said contradiction is the wrong one."""
    assert answers(nl("contradiction", checked=0), ext("unique", checked=1)) == (
        ["native"], "a checked solution (x)", True)


def test_a_run_that_ran_out_of_time_after_a_checked_solution_refutes_contradiction():
    assert answers(nl("timeout", checked=1), ext("contradiction")) == (["x"], "a checked solution (native)", True)
    assert answers(nl("timeout", checked=0), ext("contradiction")) == ([], None, False)


def test_complete_searches_that_disagree_prove_nothing_beyond_their_checked_solutions():
    """native and lcg count differently (no solution list settles it): a disagreement, nobody
    refuted by the other's count, an external claim judged by the checked solutions alone."""
    rows = (nl("multiple", count=3, exact=True, checked=3), nl("multiple", "lcg", count=4, exact=True, checked=3),
            ext("multiple"))
    assert answers(*rows, task="count") == ([], None, True)
    rows = (nl("multiple", count=3, exact=True, checked=3), nl("multiple", "lcg", count=2, exact=True, checked=2),
            ext("unique"))
    # lcg's count of 2 is refuted by native's 3 checked solutions; native's count then stands alone
    assert answers(*rows, task="count") == (["lcg", "x"], "native's complete search (3 solutions)", True)


def test_an_exact_count_and_the_word_it_means_agree():
    assert answers(nl("unique", count=1, exact=True, checked=1), ext("unique"), task="count") == ([], None, False)
    assert answers(nl("unique", count=1, exact=True, checked=1), ext("multiple"), task="count") == (
        ["x"], "native's complete search (1 solutions)", True)


def test_solve_a_first_solution_against_a_proven_contradiction():
    assert answers(nl("contradiction", checked=0), ext("solved"), task="solve")[0] == ["x"]
    assert answers(nl("solved", checked=1), ext("contradiction"), task="solve")[0] == ["x"]


def test_a_row_of_an_older_child_without_checked_counts_the_solutions_its_verdict_comes_with():
    assert answers(nl("multiple"), ext("unique")) == (["x"], "2 checked solutions (native)", True)
    assert answers(ext("unique", solver="y"), ext("contradiction")) == ([], None, True)   # two claims, no proof


def test_a_refused_puzzle_is_out_of_the_solvers_par2_and_counted_as_refused():
    """b does not accept p3 (a declared limit: status refused, every repetition): not a
    timeout, not an error.  b's PAR-2 is over p1 and p2 alone; a's is unchanged; the
    virtual best takes p3 from a.  Counted as unsolved, b's PAR-2 would be (4 + 3 + 20) / 3."""
    rows = [row("p1", "a", "unique", 1.0), row("p1", "b", "unique", 4.0),
            row("p2", "a", "timeout", 10.0), row("p2", "b", "multiple", 3.0),
            row("p3", "a", "unique", 2.0)]
    rows += [dict(row("p3", "b", None, 0.1, repeat=r), status="refused") for r in (1, 2)]
    a, b = summarise(rows, ["a", "b"], time_limit=10)["solvers"]
    assert (b["puzzles"], b["solved"], b["refused"], b["timeouts"], b["errors"]) == (2, 2, 1, 0, 0)
    assert b["par2"] == 3.5 and b["total"] == 7.0
    assert (a["puzzles"], a["refused"], a["par2"]) == (3, 0, pytest.approx(23 / 3))
    best = summarise(rows, ["a", "b"], time_limit=10)["virtual_best"]
    assert (best["puzzles"], best["solved"], best["par2"]) == (3, 3, 2.0)   # p1 1.0, p2 3.0, p3 2.0


def test_a_puzzle_refused_in_some_repetitions_only_is_unsolved_there():
    """Refusal is by a declared limit, the same every time; a puzzle refused in one run but
    answered in another is scored as any other (the refused run unsolved), never dropped."""
    rows = [row("p", "a", "unique", 1.0, repeat=1), dict(row("p", "a", None, 0.1, repeat=2), status="refused"),
            dict(row("p", "a", None, 0.1, repeat=3), status="refused")]
    (a,) = summarise(rows, ["a"], time_limit=10)["solvers"]
    assert (a["puzzles"], a["refused"], a["solved"], a["par2"]) == (1, 0, 0, 20.0)


def test_a_puzzle_that_could_not_be_read_is_listed_and_in_no_solvers_figures():
    """Its rows (status error, given to no solver) would count as every solver's error and
    unsolved puzzle; it says nothing about a solver, so the figures are those without it."""
    unread_rows = [dict(row("bad", s, None, 0.0), status="error", wall="", cpu="",
                        error="could not be read: set.taai:3: puzzle 2: row 1: clue 77 ...") for s in ("a", "b")]
    without = summarise(ROWS, ["a", "b"], time_limit=10, measure="wall")
    counted = summarise(ROWS + unread_rows, ["a", "b"], time_limit=10, measure="wall")
    assert [s["errors"] for s in counted["solvers"]] == [1, 2]   # what the rows alone would say
    figures = summarise(ROWS + unread_rows, ["a", "b"], time_limit=10, measure="wall",
                        unread={"bad": "set.taai:3: puzzle 2: row 1: clue 77 ..."})
    assert figures["solvers"] == without["solvers"] and figures["virtual_best"] == without["virtual_best"]
    assert figures["unread"] == [{"puzzle": "bad", "error": "set.taai:3: puzzle 2: row 1: clue 77 ..."}]
    assert without["unread"] == []


def test_the_charts_leave_out_a_puzzle_that_could_not_be_read():
    from nonolab.bench.summary import puzzle_times

    rows = ROWS + [dict(row("bad", "a", None, 0.0), status="error")]
    assert "bad" in puzzle_times(rows, "wall")["a"]
    assert "bad" not in puzzle_times(rows, "wall", {"bad"})["a"]
