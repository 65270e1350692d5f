"""lcg's interleaved searches (``interleave=N``): two engines in one thread, in turns of
conflicts, until the first solution; the one that found it counts alone.

The contract, property and wall suites run it too (the declared variant ``interleave=3``);
here: counts against brute force with turns small enough that both searches run, each
search exactly the search it is alone (the slices only pause it), determinism, the
memory it declares, and the conflict budget of the bare engine.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.solvers import build, bytes_per_cell, declared_bytes_per_cell
from nonolab.solvers.base import Limits, Status
from reference import count_by_rows
from tests.backends.test_lcg import small_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    ENGINE = lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)


def _picture(seed: int, size: int, density: float = 0.35) -> Puzzle:
    """A sparse random picture's clues: many solutions, found with a few conflicts."""
    rng = random.Random(seed)
    flat = [1 if rng.random() < density else 0 for _ in range(size * size)]
    picture = Solution.from_flat(flat, size)
    return Puzzle(rows=tuple(clues_of(r) for r in picture),
                  columns=tuple(clues_of(picture.column(c)) for c in range(size)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_interleaved_counts_equal_brute_force(puzzle):
    truth = count_by_rows(puzzle.rows, puzzle.columns)
    result = lcg.LcgSolver(interleave=1, interleave_ratio=1).solve(puzzle, Limits(max_solutions=None))
    assert result.complete and result.count == truth
    assert result.status is (Status.SOLVED if truth else Status.UNSAT)


@pytest.mark.parametrize("seed", range(12))
def test_interleaved_solutions_and_counts_equal_one_search_on_larger_puzzles(seed):
    # 9x9 sparse pictures: dozens to thousands of solutions, so both searches run turns
    # (interleave=1) before either finds the first; the winner's count is the whole set.
    puzzle = _picture(seed, 9)
    alone = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    both = lcg.LcgSolver(interleave=1, interleave_ratio=2).solve(puzzle, Limits(max_solutions=None))
    assert both.complete and set(both.solutions) == set(alone.solutions)
    two = lcg.LcgSolver(interleave=1, interleave_ratio=2).solve(puzzle, Limits(max_solutions=2))
    assert len(two.solutions) == min(2, alone.count) and set(two.solutions) <= set(alone.solutions)


def test_each_search_is_the_search_it_is_alone():
    # The turns only pause an engine (Engine.run's conflict budget), so the search that
    # finds the first solution finds it after the conflicts it needs alone: B (hints) as
    # the default lcg, A as lcg without hints; and both win somewhere.
    winners = set()
    for seed in range(40):
        puzzle = _picture(seed, 12)
        result = lcg.LcgSolver(interleave=2, interleave_ratio=1).solve(puzzle, Limits(max_solutions=1))
        counters = result.stats.counters
        winner = counters["interleave_winner"]
        alone = lcg.LcgSolver(hint_rounds=50 if winner == 1 else 0).solve(puzzle, Limits(max_solutions=1))
        assert counters["conflicts_b" if winner == 1 else "conflicts_a"] == alone.stats.counters["conflicts"]
        assert result.solutions == alone.solutions
        assert counters["conflicts"] == counters["conflicts_a"] + counters["conflicts_b"]
        winners.add(winner)
    assert winners == {0, 1}


def test_interleaving_is_deterministic():
    puzzle = _picture(5, 14)
    runs = [lcg.LcgSolver(interleave=3, interleave_ratio=2).solve(puzzle, Limits(max_solutions=2)) for _ in range(2)]
    keys = ("conflicts_a", "conflicts_b", "interleave_turns", "interleave_winner", "decisions", "line_runs")
    assert [{k: r.stats.counters[k] for k in keys} for r in runs][0] == {k: runs[1].stats.counters[k] for k in keys}
    assert runs[0].solutions == runs[1].solutions


def test_an_easy_puzzle_never_builds_the_second_search():
    result = lcg.LcgSolver(interleave=50).solve(_picture(2, 12), Limits(max_solutions=1))
    counters = result.stats.counters
    assert counters["interleave_winner"] == 0 and counters["conflicts_b"] == 0 and counters["hint_rounds"] == 0


def test_a_cancel_set_before_the_start_gives_interrupted():
    import threading
    cancel = threading.Event()
    cancel.set()
    result = lcg.LcgSolver(interleave=1).solve(_picture(5, 12), Limits(max_solutions=1, cancel=cancel))
    assert result.status is Status.INTERRUPTED and not result.solutions


def test_colour_and_proofs_run_one_search(tmp_path):
    from nonolab.core import Palette
    rng = random.Random(3)
    cells = [[rng.randint(1, 3) if rng.random() < 0.3 else 0 for _ in range(6)] for _ in range(6)]
    colour = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(3))
    result = lcg.LcgSolver(interleave=1).solve(colour, Limits(max_solutions=None))
    assert result.complete and "interleave_turns" not in result.stats.counters
    proved = lcg.LcgSolver(interleave=1).prove(_picture(5, 9), Limits(max_solutions=None), proof=tmp_path / "p.drat")
    assert proved.complete and "interleave_turns" not in proved.stats.counters


def test_two_engines_declare_twice_the_memory():
    puzzle = _picture(1, 5)
    one = bytes_per_cell(build("lcg"), puzzle)
    assert bytes_per_cell(build("lcg:interleave=50"), puzzle) == 2 * one
    assert declared_bytes_per_cell("lcg:interleave=50", puzzle) == 2 * one
    assert declared_bytes_per_cell("lcg:interleave=0", puzzle) == one
    from nonolab.core import Palette
    colour = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]), palette=Palette.default_for(2))
    assert bytes_per_cell(build("lcg:interleave=50"), colour) == bytes_per_cell(build("lcg"), colour)  # (one search)


def test_the_engine_pauses_on_its_conflict_budget_and_resumes_the_same_search():
    puzzle = _picture(3, 10)   # 111 solutions, 26 conflicts

    def engine():
        return ENGINE.Engine(puzzle.width, puzzle.height, puzzle.rows, puzzle.columns, (), 2, 0, 0, 10_000,
                             hint_rounds=50, hint_conflicts=10_000)

    whole, sliced = engine(), engine()
    found_whole, found_sliced = [], []
    while (outcome := whole.run(60.0)) != 2:
        found_whole.append(whole.solution())
    pauses = 0
    while (outcome := sliced.run(60.0, 1)) != 2:
        if outcome == 1:
            found_sliced.append(sliced.solution())
        else:
            pauses += 1
    assert found_sliced == found_whole and sliced.stats() == whole.stats()
    assert pauses >= whole.stats()["conflicts"] - len(found_whole)   # (a pause at each conflict but a solution's)
