"""The one contract every backend keeps (see nonolab.solvers.base)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution, verify
from nonolab.formats import load
from nonolab.solvers.base import Capability, Given, Limits, Status, capabilities

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def _all(solver, puzzle, **limits):
    return solver.solve(puzzle, Limits(max_solutions=limits.get("max_solutions"),
                                       time_limit=limits.get("time_limit")))


def _assert_verified(puzzle, result):
    assert len(set(result.solutions)) == result.count
    for s in result.solutions:
        assert verify(puzzle, s) == []


def test_solves_a_unique_puzzle(solver):
    puzzle = load(PUZZLES / "nonolab" / "heart.non")
    result = solver.solve(puzzle)
    assert result.status is Status.SOLVED and result.unique
    assert result.solution == puzzle.goal
    assert result.stats.backend == solver.name and result.stats.wall_time >= 0


@pytest.mark.parametrize("file, expected", [
    ("hakank/nonunique.non", 43), ("nonolab/permutations-5.non", 120), ("nonolab/switch.non", 2),
    ("hakank/t2.non", 2), ("webpbn/webpbn-00023-edge.non", 1)])
def test_exact_count(solver, file, expected):
    puzzle = load(PUZZLES / file)
    result = _all(solver, puzzle)
    assert result.complete and result.count == expected
    _assert_verified(puzzle, result)


def test_unsatisfiable_clues(solver):
    result = _all(solver, load(PUZZLES / "nonolab" / "contradiction.non"))
    assert result.status is Status.UNSAT and result.complete and result.count == 0


def test_empty_lines(solver):
    picture = Solution.from_rows(["....", ".#..", "....", "##.#"])
    puzzle = Puzzle.from_solution(picture)
    result = _all(solver, puzzle)
    assert result.complete and result.solutions == (picture,)


@pytest.mark.parametrize("rows", [["#.##.#"], ["#", ".", "#", "#"], ["...."], ["#"], ["."]])
def test_single_row_and_single_column(solver, rows):
    picture = Solution.from_rows(rows)
    result = _all(solver, Puzzle.from_solution(picture))
    assert result.complete and result.solutions == (picture,)


@pytest.mark.parametrize("fill", ["#", "."])
def test_all_filled_and_all_empty(solver, fill):
    picture = Solution.from_rows([fill * 7] * 5)
    result = _all(solver, Puzzle.from_solution(picture))
    assert result.complete and result.solutions == (picture,)


def test_max_solutions_is_honoured(solver):
    puzzle = load(PUZZLES / "nonolab" / "permutations-5.non")
    result = solver.solve(puzzle, Limits(max_solutions=7))
    assert result.count == 7 and not result.complete and result.status is Status.SOLVED
    _assert_verified(puzzle, result)
    two = solver.solve(puzzle)  # the default limit: 2
    assert two.count == 2 and not two.unique


def test_time_limit_gives_timeout_never_a_wrong_verdict(solver):
    puzzle = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)  # 12! solutions
    start = time.perf_counter()
    result = solver.solve(puzzle, Limits(max_solutions=None, time_limit=0.3))
    assert time.perf_counter() - start < 5
    assert result.status is Status.TIMEOUT and not result.complete and not result.unique
    _assert_verified(puzzle, result)


def test_fixed_cells_restrict_the_count(solver):
    # A backend that declares GIVEN_CELLS must count only the solutions that agree
    # with them, and report none when they contradict the clues.
    if Capability.GIVEN_CELLS not in capabilities(solver):
        pytest.skip("this backend does not declare given cells")
    puzzle = Puzzle.from_solution(Solution.from_rows(["#..", ".#.", "..#"]))  # 6 permutation matrices
    everything = Limits(max_solutions=None)
    assert solver.solve(puzzle, everything, given=Given.of({(0, 0): 1})).count == 2
    narrowed = solver.solve(puzzle, everything, given=Given.of({(0, 0): 1, (1, 2): 1}))
    assert narrowed.complete and [s.to_text() for s in narrowed.solutions] == ["#..\n..#\n.#."]
    clash = solver.solve(puzzle, everything, given=Given.of({(0, 0): 1, (0, 1): 1}))
    assert clash.complete and clash.status is Status.UNSAT
