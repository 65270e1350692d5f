"""Checking the solutions is part of the search's time: a time limit of T ends a call at T
plus at most one check, and every solution a result holds was checked (audit 9: backtrack
spent 1.5 s after a 2 s limit checking 39,567 solutions of a count).

The clock is the tests' still clock: only a check spends its time, so the bound holds on
any machine and the test counts checks, never seconds.
"""

from __future__ import annotations

import itertools

import pytest

from nonolab.core import Puzzle
from nonolab.core.grid import Solution
from nonolab.core.violations import violations
from nonolab.solvers import base, get
from nonolab.solvers.base import Budget, Limits, Status

#: The seconds (of the still clock) one check spends.
CHECK = 0.01
#: A 6x6 puzzle of 6! = 720 solutions (one ``1`` a line: permutation matrices).
PERMUTATIONS = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)


@pytest.fixture
def checks(clock, monkeypatch):
    """Every check of a solution, as the clock's time when it started; each spends :data:`CHECK`."""
    started: list[float] = []

    def timed(puzzle, solution):
        started.append(clock.now)
        clock.spend(CHECK)
        return violations(puzzle, solution)
    monkeypatch.setattr(base, "violations", timed)
    return started


def _late(started: list[float], deadline: float) -> int:
    return sum(1 for at in started if at >= deadline)


@pytest.mark.parametrize("backend", ["backtrack", "dlx", "cnf"])
def test_a_count_checks_its_solutions_within_its_time_limit(backend, clock, checks):
    start = clock.now
    result = get(backend).solve(PERMUTATIONS, Limits(max_solutions=None, time_limit=1.0))
    assert result.status is Status.TIMEOUT and not result.complete
    assert _late(checks, start + 1.0) <= base.CHECKED_PAST_A_LIMIT   # none after the deadline but the first ones
    assert 0 < result.count <= len(checks)                       # every solution kept was checked
    assert result.count >= len(checks) - 1                       # checked as found: what was checked is kept
    assert all(not violations(PERMUTATIONS, s) for s in result.solutions)


def test_solutions_found_before_the_deadline_are_checked_within_it(clock, checks):
    found = [Solution.from_rows(["".join("#" if c == r else "." for c in range(6)) for r in order])
             for order in itertools.islice(itertools.permutations(range(6)), 120)]
    watch = Budget(0.5)
    result = base.finish("demo", PERMUTATIONS, Limits(None, 0.5), watch, found, True)
    # An exhausted search whose checks would run past the limit ends at the limit: a timeout
    # with the solutions checked by then, never an unchecked one, never a late count.
    assert _late(checks, watch.deadline) <= base.CHECKED_PAST_A_LIMIT
    assert result.status is Status.TIMEOUT and not result.complete and result.count <= len(checks)
    unlimited = base.finish("demo", PERMUTATIONS, Limits(None), Budget(None), found, True)
    assert unlimited.complete and unlimited.count == 120
    assert len(base.finish("demo", PERMUTATIONS, Limits(None), Budget(None), found * 2, True).solutions) == 120
