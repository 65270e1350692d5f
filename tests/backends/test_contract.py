"""The one contract every backend keeps (see nonolab.solvers.base).

What a backend must show depends on what it declares, never on its name: one that
declares ``EXACT_COUNT`` must exhaust its search and say so; one that does not must
never claim an exhausted search, and whatever it returns must still be right.  A toy
backend that declares nothing runs the whole suite (``toy`` below).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution, violations
from nonolab.formats import load
from nonolab.solvers.base import Capability, Given, Limits, Status, capabilities

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def _all(solver, puzzle, **limits):
    return solver.solve(puzzle, Limits(max_solutions=limits.get("max_solutions"),
                                       time_limit=limits.get("time_limit")))


def _assert_verified(puzzle, result):
    # A model counter (MODEL_COUNT) lists a few of the solutions it counts (its ``total``).
    assert len(set(result.solutions)) == len(result.solutions)
    assert len(result.solutions) == result.count if result.total is None else len(result.solutions) <= result.total
    for s in result.solutions:
        assert violations(puzzle, s) == []


def _exact(solver) -> bool:
    return Capability.EXACT_COUNT in capabilities(solver)


def _answers(solver, puzzle, result, everything: set[Solution]):
    """``result`` is right for a puzzle whose solutions are ``everything``: exactly them,
    exhausted, from a backend that counts exactly; some of them, never called
    exhausted, from one that does not."""
    _assert_verified(puzzle, result)
    assert set(result.solutions) <= everything
    if _exact(solver):
        assert result.complete and result.count == len(everything)
        if Capability.MODEL_COUNT not in capabilities(solver):
            assert set(result.solutions) == everything
        assert result.status is (Status.SOLVED if everything else Status.UNSAT)
    else:
        assert not result.complete and not result.unique and result.status is not Status.UNSAT


def test_solves_a_unique_puzzle(solver):
    puzzle = load(PUZZLES / "nonolab" / "heart.non")
    result = solver.solve(puzzle)
    _answers(solver, puzzle, result, {puzzle.goal})
    assert result.unique == _exact(solver)
    assert result.stats.backend == solver.name and result.stats.wall_time >= 0


@pytest.mark.parametrize("file, expected", [
    ("hakank/nonunique.non", 43), ("nonolab/permutations-5.non", 120), ("nonolab/switch.non", 2),
    ("hakank/t2.non", 2), ("webpbn/webpbn-00023-edge.non", 1)])
def test_exact_count(solver, file, expected):
    puzzle = load(PUZZLES / file)
    result = _all(solver, puzzle)
    _assert_verified(puzzle, result)
    if _exact(solver):
        assert result.complete and result.count == expected
    else:
        assert not result.complete and result.count <= expected


def test_unsatisfiable_clues(solver):
    puzzle = load(PUZZLES / "nonolab" / "contradiction.non")
    _answers(solver, puzzle, _all(solver, puzzle), set())


def test_empty_lines(solver):
    picture = Solution.from_rows(["....", ".#..", "....", "##.#"])
    puzzle = Puzzle.from_solution(picture)
    _answers(solver, puzzle, _all(solver, puzzle), {picture})


@pytest.mark.parametrize("rows", [["#.##.#"], ["#", ".", "#", "#"], ["...."], ["#"], ["."]])
def test_single_row_and_single_column(solver, rows):
    picture = Solution.from_rows(rows)
    puzzle = Puzzle.from_solution(picture)
    _answers(solver, puzzle, _all(solver, puzzle), {picture})


@pytest.mark.parametrize("fill", ["#", "."])
def test_all_filled_and_all_empty(solver, fill):
    picture = Solution.from_rows([fill * 7] * 5)
    puzzle = Puzzle.from_solution(picture)
    _answers(solver, puzzle, _all(solver, puzzle), {picture})


def test_max_solutions_is_honoured(solver):
    puzzle = load(PUZZLES / "nonolab" / "permutations-5.non")
    result = solver.solve(puzzle, Limits(max_solutions=7))
    _assert_verified(puzzle, result)
    assert result.count <= 7 and not result.complete
    if _exact(solver):
        assert result.count == 7 and result.status is Status.SOLVED
    two = solver.solve(puzzle)  # the default limit: 2
    assert two.count <= 2 and not two.unique and (two.count == 2 or not _exact(solver))


def test_time_limit_gives_timeout_never_a_wrong_verdict(solver):
    puzzle = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)  # 12! solutions
    result = solver.solve(puzzle, Limits(max_solutions=None, time_limit=0.3))
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


def _busy(stop) -> None:
    """Burn CPU in Python (taking the GIL back and forth) until ``stop`` is set."""
    while not stop.is_set():
        sum(range(10_000))


def test_a_reproducible_backend_repeats_its_solutions_in_the_same_order(solver):
    # REPRODUCIBLE: the same solutions in the same order on every call, however the clock
    # runs: again under a (generous) time limit, which changes how a search is sliced,
    # while another thread competes for the processor and the GIL.
    import threading

    from nonolab.generate.grids import puzzle_from_array, random_grid
    if Capability.REPRODUCIBLE not in capabilities(solver):
        pytest.skip("this backend does not declare reproducibility")
    puzzles = [load(PUZZLES / "nonolab" / "permutations-5.non"), load(PUZZLES / "hakank" / "nonunique.non"),
               *(puzzle_from_array(random_grid(12, 11, 0.25, seed=s)) for s in range(3))]
    limits = Limits(max_solutions=40)
    first = [solver.solve(p, limits).solutions for p in puzzles]
    stop = threading.Event()
    rival = threading.Thread(target=_busy, args=(stop,), daemon=True)
    rival.start()
    try:
        again = [solver.solve(p, Limits(max_solutions=40, time_limit=600)).solutions for p in puzzles]
    finally:
        stop.set()
        rival.join()
    assert again == first
    assert all(len(s) > 1 for s in first)


def test_a_batch_backend_answers_each_puzzle_as_solve_does(solver):
    # BATCH: solve_many(puzzles, limits) gives, in order, what solve gives each puzzle: the
    # same count, the same exhaustion, checked solutions (every one of a puzzle's few).
    from nonolab.generate.grids import puzzle_from_array, random_grid
    if Capability.BATCH not in capabilities(solver):
        pytest.skip("this backend does not declare a batch entry")
    puzzles = [load(PUZZLES / "nonolab" / "heart.non"), load(PUZZLES / "nonolab" / "contradiction.non"),
               load(PUZZLES / "nonolab" / "switch.non"),
               *(puzzle_from_array(random_grid(6, 5, 0.5, seed=s)) for s in range(20)),
               *(_with_givens(seed, 1)[0] for seed in range(12))]  # givens are part of the puzzle
    for limits in (Limits(), Limits(max_solutions=None), Limits(max_solutions=1)):
        many = list(solver.solve_many(iter(puzzles), limits))
        assert len(many) == len(puzzles)
        for puzzle, result in zip(puzzles, many):
            alone = solver.solve(puzzle, limits)
            _assert_verified(puzzle, result)
            assert (result.count, result.complete, result.status) == (alone.count, alone.complete, alone.status)
            if result.complete:
                assert set(result.solutions) == set(alone.solutions)


def _with_givens(seed: int, colours: int) -> tuple[Puzzle, int]:
    """A random small puzzle (two rows swapped now and then, which often leaves several
    solutions or none) with some cells given, and its count by brute force: every
    picture of its clues, kept when it has the given values (no code of a backend)."""
    import random

    from tests.colour import brute

    rng = random.Random(seed)
    h, w = rng.randint(1, 4), rng.randint(1, 4)
    values = [[rng.randint(1, colours) if rng.random() < 0.5 else 0 for _ in range(w)] for _ in range(h)]
    picture = Solution.from_values(values) if colours > 1 else Solution(values)
    puzzle = Puzzle.from_solution(picture).with_(goal=None)
    cells = [(r, c) for r in range(h) for c in range(w)]
    # Givens from the picture or any value: some leave its solutions, some none.
    given = {cell: (values[cell[0]][cell[1]] if rng.random() < 0.7 else rng.randint(0, puzzle.colours))
             for cell in rng.sample(cells, rng.randint(1, min(3, len(cells))))}
    puzzle = puzzle.with_(givens=given)
    pictures = brute.solutions(puzzle.with_(givens=()))
    kept = [p for p in pictures if all(p.to_bytes()[r * w + c] == v for (r, c), v in given.items())]
    return puzzle, len(kept)


@pytest.mark.parametrize("colours", [1, 3])
def test_the_puzzle_s_givens_are_honoured_or_refused(solver, colours):
    # Givens are part of the puzzle: a backend that takes given cells counts only the
    # solutions that have them (against brute force); the others refuse the puzzle.
    from nonolab.errors import InvalidArgument
    if colours > 1 and Capability.COLOUR not in capabilities(solver):
        pytest.skip("this backend does not declare colour")
    for seed in range(25):
        puzzle, expected = _with_givens(seed, colours)
        if Capability.GIVEN_CELLS not in capabilities(solver):
            with pytest.raises(InvalidArgument, match="does not take given cells"):
                solver.solve(puzzle, Limits(max_solutions=None))
            return
        result = solver.solve(puzzle, Limits(max_solutions=None))
        _assert_verified(puzzle, result)           # violations checks the givens too
        if _exact(solver):
            assert result.count == expected and result.complete, (seed, puzzle)
        else:
            assert result.count <= expected, (seed, puzzle)
