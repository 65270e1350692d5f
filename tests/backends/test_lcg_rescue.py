"""lcg's late rescue (``rescue=N``, ``rescue_with``; ``rescue.py``, ``interleave.py``): the
default search alone for N conflicts, then other searches join it in turns of conflicts
until one finds the first solution; that one counts alone.

The contract, property and wall suites run the declared variant ``rescue=3``; here: counts
against brute force (black and white, colour) with the rescue joining after one conflict,
each search exactly the search it is alone (the default's conflicts unchanged below N),
proofs that check whichever search wins, determinism, the memory declared.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import InvalidArgument
from nonolab.formats import load
from nonolab.solvers import build, bytes_per_cell, declared_bytes_per_cell
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.lcg.rescue import RESCUES, rescues
from reference import count_by_rows
from tests.backends.test_lcg import small_puzzles
from tests.backends.test_lcg_interleave import _picture
from tests.certify.test_proving import PUZZLES, _refutes
from tests.colour import brute
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_the_rescue_joining_at_once(puzzle):
    truth = count_by_rows(puzzle.rows, puzzle.columns)
    for name in RESCUES:
        result = lcg.LcgSolver(rescue=1, rescue_with=name).solve(puzzle, Limits(max_solutions=None))
        assert result.complete and result.count == truth, name
        assert result.status is (Status.SOLVED if truth else Status.UNSAT)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_the_rescue(puzzle):
    truth = brute.solutions(puzzle)
    for name in ("stable", "stable+binaries"):
        result = lcg.LcgSolver(rescue=1, rescue_with=name).solve(puzzle, Limits(max_solutions=None))
        assert result.complete and set(result.solutions) == truth, name


@pytest.mark.parametrize("seed", range(8))
def test_larger_puzzles_give_the_same_solutions_with_the_rescue(seed):
    # 9x9 sparse pictures: dozens to thousands of solutions, so the searches take turns.
    puzzle = _picture(seed, 9)
    alone = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    for name in ("stable", "binaries+hints"):
        result = lcg.LcgSolver(rescue=1, rescue_with=name).solve(puzzle, Limits(max_solutions=None))
        assert result.complete and set(result.solutions) == set(alone.solutions), name
        two = lcg.LcgSolver(rescue=2, rescue_with=name).solve(puzzle, Limits(max_solutions=2))
        assert len(two.solutions) == min(2, alone.count) and set(two.solutions) <= set(alone.solutions)


def test_each_search_is_the_search_it_is_alone_and_each_wins_somewhere():
    # The turns only pause an engine, so the winner finds the first solution after the
    # conflicts it needs alone (the default: lcg; the rescue: lcg with its options), the
    # counters add up, and both the default and the rescue win on some of these grids.
    winners = set()
    for seed in range(30):
        puzzle = _picture(seed, 12)
        result = lcg.LcgSolver(rescue=2).solve(puzzle, Limits(max_solutions=1))
        counters = result.stats.counters
        winner = counters["rescue_winner"]
        alone = lcg.LcgSolver(**(rescues("stable")[0] if winner == 1 else {})).solve(puzzle, Limits(max_solutions=1))
        assert counters["conflicts_rescue" if winner == 1 else "conflicts_default"] == alone.stats.counters["conflicts"]
        assert result.solutions == alone.solutions
        assert counters["conflicts"] == counters["conflicts_default"] + counters["conflicts_rescue"]
        winners.add(winner)
    assert winners == {0, 1}


def test_below_its_threshold_the_default_search_is_untouched():
    # A puzzle the default finds within N conflicts: the same search to the counter, and
    # the rescue never built; with N below its conflicts the rescue joins.
    puzzle = _picture(1, 25, 0.5)   # 44 conflicts to the first solution
    keys = ("conflicts", "decisions", "line_runs", "restarts", "hint_rounds")
    default = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=2))
    needed = default.stats.counters["conflicts"]
    assert needed > 20
    late = lcg.LcgSolver(rescue=needed + 1).solve(puzzle, Limits(max_solutions=2))
    assert {k: late.stats.counters[k] for k in keys} == {k: default.stats.counters[k] for k in keys}
    assert late.solutions == default.solutions and late.stats.counters["conflicts_rescue"] == 0
    early = lcg.LcgSolver(rescue=needed // 4).solve(puzzle, Limits(max_solutions=1))
    assert early.stats.counters["conflicts_rescue"] > 0


def test_three_searches_take_turns():
    turned = 0
    for seed in range(10):
        result = lcg.LcgSolver(rescue=1, rescue_with="stable+binaries").solve(_picture(seed, 12), Limits(1))
        counters = result.stats.counters
        assert counters["conflicts"] == sum(counters[f"conflicts_{n}"] for n in ("default", "rescue", "rescue2"))
        turned += counters["conflicts_rescue2"] > 0
    assert turned


def test_the_rescue_is_deterministic():
    puzzle = _picture(5, 14)
    keys = ("conflicts_default", "conflicts_rescue", "rescue_turns", "rescue_winner", "decisions", "line_runs")
    runs = [build("lcg:rescue=2,rescue_with=stable+hints").solve(puzzle, Limits(max_solutions=2)) for _ in range(2)]
    assert {k: runs[0].stats.counters[k] for k in keys} == {k: runs[1].stats.counters[k] for k in keys}
    assert runs[0].solutions == runs[1].solutions


def test_proofs_check_whichever_search_wins(tmp_path):
    # The winner's proof ends at the proof's path; the others' temporary files are gone.
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    winners = set()
    for name in RESCUES:
        folder = tmp_path / name
        folder.mkdir()
        proof = folder / "proof.drat"
        result = build(f"lcg:rescue=1,rescue_with={name}").prove(puzzle, Limits(max_solutions=None), proof)
        assert result.complete and result.count == 43
        assert os.listdir(folder) == ["proof.drat"]
        assert _refutes(puzzle, result.solutions, proof), name
        assert not _refutes(puzzle, result.solutions[:-1], proof), name
        winners.add(result.stats.counters["rescue_winner"])
    assert winners - {0}, "no rescue search won: the test checks only the default's proof"


def test_a_cancel_set_before_the_start_gives_interrupted():
    import threading
    cancel = threading.Event()
    cancel.set()
    result = lcg.LcgSolver(rescue=1).solve(_picture(5, 12), Limits(max_solutions=1, cancel=cancel))
    assert result.status is Status.INTERRUPTED and not result.solutions


def test_each_search_declares_its_memory_and_interleave_excludes_the_rescue():
    puzzle = _picture(1, 5)
    one = bytes_per_cell(build("lcg"), puzzle)
    assert bytes_per_cell(build("lcg:rescue=50"), puzzle) == 2 * one
    assert declared_bytes_per_cell("lcg:rescue=50,rescue_with=stable+binaries", puzzle) == 3 * one
    colour = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]), palette=Palette.default_for(2))
    assert bytes_per_cell(build("lcg:rescue=50"), colour) == 2 * bytes_per_cell(build("lcg"), colour)
    with pytest.raises(InvalidArgument, match="interleave and rescue"):
        build("lcg:interleave=5,rescue=5")
