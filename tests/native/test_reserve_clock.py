"""native's search ends before its deadline by the time its checks need, and no more.

The wrap-up after a search is checking the solutions it found (native/checks.py): the
search keeps one check's time for each solution still wanted (two at most), and a count
starts no check it has no time for.  The old reserve was 1.2e-7 s a cell whatever was
left to check: 12 s at 100 M cells, so a count given less timed out at once.  The clock
here is one the test moves (it stands still but where the test spends it), so these
tests are about what the solver decides, never about how fast this machine is.
"""

from __future__ import annotations

import itertools

import pytest

from nonolab.core import Puzzle
from nonolab.solvers import base
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.checks import CHECK_PER_CELL


def _permutations(n: int) -> Puzzle:
    """Every row and column one filled cell: the n! permutation matrices."""
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def test_a_limit_that_covers_the_checks_is_enough_to_start(clock):
    # 250,000 cells: the checks of two solutions are 2 * 3e-8 s a cell (0.015 s); the limit
    # is half as much again, below the old reserve (1.2e-7 s a cell: 0.03 s).
    n = 500
    puzzle = Puzzle(rows=((1,),) + ((),) * (n - 1), columns=((1,),) + ((),) * (n - 1))
    limit = 1.5 * 2 * CHECK_PER_CELL * n * n
    assert limit < 1.2e-7 * n * n
    result = NativeSolver().solve(puzzle, Limits(2, limit))
    assert result.status.value == "solved" and result.complete and result.count == 1


def test_a_count_starts_no_check_it_has_no_time_for(monkeypatch, clock):
    real = base.violations

    def slow(puzzle, solution):
        clock.spend(1.0)             # each check: a second of the test's clock
        return real(puzzle, solution)

    monkeypatch.setattr(base, "violations", slow)
    start = clock.now
    result = NativeSolver().solve(_permutations(4), Limits(None, 5.5))
    assert clock.now - start <= 5.5            # the old solver checked all 24: 24 s
    assert result.status.value == "timeout" and not result.complete
    assert 1 <= result.count < 24 and len(set(result.solutions)) == result.count


def test_without_a_limit_every_solution_is_checked_and_counted(monkeypatch, clock):
    real = base.violations
    checked = []

    def slow(puzzle, solution):
        clock.spend(1.0)
        checked.append(solution)
        return real(puzzle, solution)

    monkeypatch.setattr(base, "violations", slow)
    result = NativeSolver().solve(_permutations(4), Limits(None))
    assert result.complete and result.count == 24 and len(checked) == 24


def test_the_colour_engine_starts_no_check_it_has_no_time_for(monkeypatch, clock):
    # Colour too: every row and column one cell of colour 1 (the 24 permutations of 4),
    # each check a second of the test's clock.  Before, its solutions were checked after
    # the search, all of them: 24 s for a limit of 5.5.
    from nonolab.core import Palette

    real = base.violations

    def slow(puzzle, solution):
        clock.spend(1.0)
        return real(puzzle, solution)

    monkeypatch.setattr(base, "violations", slow)
    ones = ((1,),) * 4
    puzzle = Puzzle(rows=ones, columns=ones, row_colours=ones, column_colours=ones, palette=Palette.default_for(2))
    assert puzzle.is_colour
    start = clock.now
    result = NativeSolver().solve(puzzle, Limits(None, 5.5))
    assert clock.now - start <= 5.5
    assert result.status.value == "timeout" and 1 <= result.count < 24
    unlimited = NativeSolver().solve(puzzle, Limits(None))
    assert unlimited.complete and unlimited.count == 24


def _holds(remainder, solution) -> bool:
    """Whether every cell ``remainder`` decided has ``solution``'s value (1 empty, 2 filled)."""
    return all(state not in (1, 2) or state == (2 if value else 1)
               for state, value in zip(remainder.cells, solution.to_bytes()))


def _matrices(n: int):
    from nonolab.core.grid import Solution
    for perm in itertools.permutations(range(n)):
        yield Solution.from_rows(["".join("#" if c == p else "." for c in range(n)) for p in perm])


def test_a_search_that_checked_only_some_of_its_solutions_claims_no_remainder(monkeypatch, clock):
    # audit 14: the engine found 50 of the 120 permutations of 5, the deadline left time to
    # check 5 (each check a second of the test's clock); the 45 left unchecked were dropped, and
    # the remainder (the space the engine had not reached, what auto hands on) excluded 37 of
    # them: "every solution not listed agrees with the remainder" was false.
    real = base.violations

    def slow(puzzle, solution):
        clock.spend(1.0)
        return real(puzzle, solution)

    monkeypatch.setattr(base, "violations", slow)
    result = NativeSolver().solve(_permutations(5), Limits(50, 5.5))
    assert result.status.value == "timeout" and 1 <= result.count < 50
    listed = set(result.solutions)
    assert result.remainder is None or all(_holds(result.remainder, s) for s in _matrices(5) if s not in listed)


def test_a_step_log_cut_after_solutions_were_found_claims_no_remainder(monkeypatch):
    # The same for a search whose step log the limit cut (it answers no solution): the spaces
    # had gone past the solutions found before, so their remainder left those out.
    from nonolab.solvers.native.search import SearchSpace, StepLogCut

    real, calls = SearchSpace.steps, []
    real_run = SearchSpace.run

    def one_a_run(self, max_solutions, *args, **kwargs):
        # A run reads the step log at its first solution; how many solutions one run finds
        # depends on the machine's speed (its slices are wall time), so one a run, always.
        return real_run(self, 1, *args, **kwargs)

    def cut_late(self, *args, **kwargs):
        # Late enough that the spaces have finished whole subtrees (3,000 of the 5,040
        # solutions: the remainder decides a cell, and leaves out the 720 solutions it passed).
        calls.append(1)
        if len(calls) > 3000:
            raise StepLogCut("cut by the test")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SearchSpace, "steps", cut_late)
    monkeypatch.setattr(SearchSpace, "run", one_a_run)
    result = NativeSolver(record_steps=True).solve(_permutations(7), Limits(None))
    assert len(calls) > 3000 and result.status.value == "timeout" and result.count == 0
    assert result.remainder is None or all(_holds(result.remainder, s) for s in _matrices(7))
