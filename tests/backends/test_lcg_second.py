"""The second solution: lcg's blocking clause over fewer decisions, and the switch search
(``solvers/switch.py``) that ends a count to 2 next to the first solution.

Both could change a count, so both are held to brute force here (beside the wall, which
runs them as declared variants).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of, violations
from nonolab.formats import load
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.switch import single_moves, switch_solution
from reference import count_by_rows, n_dom

try:
    from nonolab.solvers import lcg
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@st.composite
def pictures(draw):
    h = draw(st.integers(1, 5))
    w = draw(st.integers(1, 5))
    flat = draw(st.lists(st.integers(0, 1), min_size=h * w, max_size=h * w))
    picture = Solution.from_flat(flat, w)
    return Puzzle(rows=tuple(clues_of(r) for r in picture),
                  columns=tuple(clues_of(picture.column(c)) for c in range(w))), picture


def _all_solutions(puzzle: Puzzle) -> set[Solution]:
    result = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    assert result.complete
    return set(result.solutions)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures())
def test_decisive_blocking_keeps_counts_and_solutions_exact(case):
    puzzle, _ = case
    expected = count_by_rows(puzzle.rows, puzzle.columns)
    result = lcg.LcgSolver(decisive_block=True).solve(puzzle, Limits(max_solutions=None))
    assert result.complete and result.count == expected and result.status is Status.SOLVED
    assert set(result.solutions) == _all_solutions(puzzle)


def test_decisive_blocking_blocks_with_fewer_literals():
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    off = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    on = lcg.LcgSolver(decisive_block=True).solve(puzzle, Limits(max_solutions=None))
    assert on.complete and on.count == off.count == 43 and set(on.solutions) == set(off.solutions)
    assert on.stats.counters["blocking_clauses"] == off.stats.counters["blocking_clauses"] == 43
    assert on.stats.counters["blocking_literals"] < off.stats.counters["blocking_literals"]


def test_decisive_blocking_keeps_a_uniqueness_proof_and_a_count_of_120():
    # (colour puzzles: tests/backends/test_lcg_colour.py runs the option against brute force)
    rows, cols = n_dom(6)
    assert lcg.LcgSolver(decisive_block=True).solve(Puzzle(rows=rows, columns=cols), Limits(2)).unique
    permutations = load(PUZZLES / "nonolab" / "permutations-5.non")
    result = lcg.LcgSolver(decisive_block=True).solve(permutations, Limits(max_solutions=None))
    assert result.complete and result.count == 120


@pytest.mark.parametrize("seed", range(4))
def test_single_moves_are_exactly_the_swaps_that_keep_the_runs(seed):
    rnd = random.Random(seed)
    for _ in range(400):
        line = bytes(rnd.randint(0, 1) for _ in range(rnd.randint(1, 10)))
        wanted: dict[int, list[int]] = {}
        for a in range(len(line)):
            for b in range(len(line)):
                if line[a] and not line[b]:
                    moved = bytearray(line)
                    moved[a], moved[b] = 0, 1
                    if clues_of(moved) == clues_of(line):
                        wanted.setdefault(a, []).append(b)
        assert {k: sorted(v) for k, v in single_moves(line).items()} == wanted, line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures())
def test_a_switch_gives_another_solution_and_finds_every_two_by_two(case):
    puzzle, picture = case
    others = _all_solutions(puzzle) - {picture}
    for rows in (2, 3):
        found = switch_solution(puzzle, picture, rows)
        if found is not None:
            assert found in others and not violations(puzzle, found)
    if switch_solution(puzzle, picture, 2) is None:
        # No other solution differs from the picture in a 2x2 checkerboard.
        for other in others:
            cells = [(r, c) for r in range(picture.height) for c in range(picture.width) if other[r][c] != picture[r][c]]
            assert not (len(cells) == 4 and len({r for r, _ in cells}) == 2 and len({c for _, c in cells}) == 2)


def test_a_switch_ends_a_count_to_2_and_nothing_else():
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    two = lcg.LcgSolver(switch=True).solve(puzzle, Limits(2))
    assert two.status is Status.SOLVED and len(two.solutions) == 2 and not two.complete
    assert two.stats.counters["switches"] == 1
    every = lcg.LcgSolver(switch=True).solve(puzzle, Limits(max_solutions=None))
    assert every.complete and every.count == 43 and every.stats.counters["switches"] == 0
    rows, cols = n_dom(6)
    unique = lcg.LcgSolver(switch=True).solve(Puzzle(rows=rows, columns=cols), Limits(2))
    assert unique.unique and unique.stats.counters["switches"] == 0
