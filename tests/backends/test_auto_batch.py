"""auto's solve_many: native's batch entry first, for batch_slice seconds, then auto's strategy."""

from __future__ import annotations

from nonolab.generate.grids import puzzle_from_array, random_grid
from nonolab.solvers import get
from nonolab.solvers.base import Limits, SolveResult


def _phases(results: list) -> list[str]:
    assert all(isinstance(r, SolveResult) and r.stats.backend == "auto" for r in results)
    return [r.stats.counters["phase"] for r in results]


def test_small_puzzles_are_settled_by_the_batch_entry_and_labelled_auto():
    puzzles = [puzzle_from_array(random_grid(5, 5, 0.5, seed=s)) for s in range(12)]
    results = list(get("auto").solve_many(puzzles, Limits(2)))
    assert _phases(results) == ["native batch"] * len(puzzles)
    assert [r.count for r in results] == [get("auto").solve(p, Limits(2)).count for p in puzzles]


def test_what_the_batch_entry_leaves_goes_to_auto_s_strategy():
    # No slice at all in the batch entry: every puzzle is auto's strategy's.
    puzzles = [puzzle_from_array(random_grid(6, 6, 0.5, seed=s)) for s in range(6)]
    auto = get("auto")
    auto.batch_slice = 1e-9
    results = list(auto.solve_many(puzzles, Limits(2)))
    assert "native batch" not in _phases(results)
    assert [r.count for r in results] == [auto.solve(p, Limits(2)).count for p in puzzles]


def test_a_zero_slice_turns_the_batch_entry_off_and_an_error_keeps_its_place():
    from nonolab.core import Puzzle
    calls: list[Puzzle] = []

    def rest(puzzle: Puzzle, limits: Limits) -> SolveResult:
        calls.append(puzzle)
        if len(calls) == 2:
            from nonolab.errors import InvalidPuzzle
            raise InvalidPuzzle("refused for the test")
        return get("auto").solve(puzzle, limits)
    puzzles = [puzzle_from_array(random_grid(4, 4, 0.5, seed=s)) for s in range(3)]
    results = list(get("auto", batch_slice=0).solve_many(puzzles, Limits(2), rest))
    assert calls == puzzles
    assert [type(r).__name__ for r in results] == ["SolveResult", "InvalidPuzzle", "SolveResult"]
