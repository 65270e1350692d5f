"""A count keeps what its caller needs (``Limits.keep``: the first grids) and counts the rest,
each still checked against the clues as it is found.

A search that yields its solutions one at a time (``collect``: backtrack, dlx) then holds no
more than ``keep`` grids however many it counts: the memory of a count of millions is that of
a few grids (it held every one: a 20x20 puzzle of 20! solutions grew without bound).  Every
backend's result lists at most ``keep`` and says the exact total; the totals are compared
with brute force.  No test times anything: they count checks, grids and traced bytes.
"""

from __future__ import annotations

import itertools
import random
import tracemalloc

import pytest

from nonolab.core import Puzzle
from nonolab.core.grid import Solution
from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument, WrongAnswer
from nonolab.harness.uniqueness import count
from nonolab.solvers import base, build, capabilities
from nonolab.solvers.base import Budget, Capability, Limits, collect

from tests.reference import count_by_rows


def _permutations(n: int) -> Puzzle:
    """n rows and columns of one block of 1: the n x n permutation matrices, n! solutions."""
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def _matrices(n: int):
    for perm in itertools.permutations(range(n)):
        yield Solution.from_rows(["".join("#" if c == p else "." for c in range(n)) for p in perm])


@pytest.fixture
def checked(monkeypatch) -> list[Solution]:
    """Every solution checked against the clues, in order."""
    seen: list[Solution] = []

    def counting(puzzle, solution):
        seen.append(solution)
        return violations(puzzle, solution)
    monkeypatch.setattr(base, "violations", counting)
    return seen


def test_keep_is_at_least_one():
    with pytest.raises(InvalidArgument, match="keep"):
        Limits(None, keep=0)


def test_collect_holds_the_first_keep_and_checks_every_solution(checked):
    result = collect("demo", _permutations(5), Limits(None, keep=2), Budget(None), _matrices(5), {})
    first = list(itertools.islice(_matrices(5), 2))
    assert result.complete and result.count == 120 and result.total == 120
    assert list(result.solutions) == first
    assert len(checked) == 120 and len(set(checked)) == 120        # each one, once


def test_collect_raises_on_a_wrong_solution_past_those_it_keeps():
    wrong = Solution.from_rows(["#" * 5] + ["." * 5] * 4)
    pictures = itertools.chain(itertools.islice(_matrices(5), 50), [wrong], _matrices(5))
    with pytest.raises(WrongAnswer):
        collect("demo", _permutations(5), Limits(None, keep=2), Budget(None), pictures, {})


def test_a_limit_counts_solutions_not_kept_grids():
    found = count(_permutations(4), build("backtrack"), limit=5, keep=1)
    assert not found.exact and found.count == 5 and found.reason == "limit"
    assert len(found.result.solutions) == 1


def _peak_of_count(backend: str, keep: int | None) -> tuple[int, int]:
    puzzle = _permutations(7)
    solver = build(backend)
    count(_permutations(3), solver, keep=keep)           # warm: imports and caches before tracing
    tracemalloc.start()
    try:
        found = count(puzzle, solver, keep=keep)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found.exact and found.count == 5040
    return peak, len(found.result.solutions)


@pytest.mark.parametrize("backend", ["backtrack", "dlx"])   # the searches that yield one solution at a time
def test_a_streaming_count_of_5040_solutions_holds_two_grids(backend):
    peak, held = _peak_of_count(backend, 2)
    assert held == 2 and peak < 256 * 1024, peak
    everything, held = _peak_of_count(backend, None)       # the same count keeping every grid: the bound bites
    assert held == 5040 and everything > 4 * peak, (everything, peak)


def test_every_backend_lists_at_most_keep_and_counts_the_rest(solver):
    puzzle = _permutations(3)
    result = solver.solve(puzzle, Limits(None, keep=1))
    assert len(result.solutions) <= 1
    assert all(not violations(puzzle, s) for s in result.solutions)
    if Capability.EXACT_COUNT in capabilities(solver) and result.complete:
        assert result.count == 6 and result.status.value == "solved"


def _pictures(seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        h, w = rng.randint(1, 4), rng.randint(1, 4)
        rows = ["".join(rng.choice(".#") for _ in range(w)) for _ in range(h)]
        yield Puzzle.from_solution(Solution.from_rows(rows))


@pytest.mark.parametrize("spec", ["backtrack", "dlx", "native", "lcg", "cnf"])
def test_counts_keeping_one_grid_are_exact_against_brute_force(spec):
    solver = build(spec)
    for puzzle in _pictures(12, 40):
        found = count(puzzle, solver, keep=1)
        assert found.exact and found.count == count_by_rows(puzzle.rows, puzzle.columns), puzzle
        assert len(found.result.solutions) == 1 and not violations(puzzle, found.result.solutions[0])
