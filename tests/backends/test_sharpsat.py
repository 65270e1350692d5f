"""The sharpsat backend runs its exact counter only when the total is asked for: a count to a
limit (check's count to 2) is a bounded enumeration, whatever the number of solutions."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.core import Puzzle, violations
from nonolab.formats import load
from nonolab.solvers.base import Limits, Status

pytest.importorskip("pyganak")

from nonolab.solvers.cnf import sharpsat  # noqa: E402  (after the skip: it needs pyganak)

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
# Sparse: one filled cell a row and a column of 12, 12! = 479,001,600 solutions.
SPARSE = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)


@pytest.fixture
def counted(monkeypatch):
    """The calls made to the exact counter (which still counts)."""
    calls: list[int] = []
    real = sharpsat._count

    def spy(clauses, variables, cells, watch):
        calls.append(len(cells))
        return real(clauses, variables, cells, watch)
    monkeypatch.setattr(sharpsat, "_count", spy)
    return calls


@pytest.mark.parametrize("limit", [1, 2, 7])
def test_a_count_to_a_limit_below_the_total_runs_no_counter(counted, limit):
    result = sharpsat.SharpSatSolver().solve(SPARSE, Limits(max_solutions=limit))
    assert counted == []
    assert result.status is Status.SOLVED and not result.complete and result.count == limit
    assert result.stats.counters["enumerated"] == limit + 1    # one past the limit, no further
    assert all(violations(SPARSE, s) == [] for s in result.solutions)


@pytest.mark.parametrize("file, expected", [("nonolab/heart.non", 1), ("nonolab/switch.non", 2),
                                            ("nonolab/contradiction.non", 0)])
def test_a_count_to_a_limit_above_the_total_is_exact_without_a_counter(counted, file, expected):
    puzzle = load(PUZZLES / file)
    result = sharpsat.SharpSatSolver().solve(puzzle, Limits(max_solutions=2 if expected < 2 else 3))
    assert counted == []
    assert result.complete and result.count == expected and result.total is None
    assert result.status is (Status.SOLVED if expected else Status.UNSAT)
    assert result.unique == (expected == 1)


def test_the_total_is_counted_by_the_counter(counted):
    puzzle = load(PUZZLES / "nonolab" / "permutations-5.non")
    result = sharpsat.SharpSatSolver().solve(puzzle, Limits(max_solutions=None))
    assert len(counted) == 1
    assert result.complete and result.total == 120 and len(result.solutions) == sharpsat.WITNESSES
    assert result.stats.counters["model_count"] == 120
