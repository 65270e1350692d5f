"""Budget, the one answer to "how much time is left": bounds on what it answers, never a duration.

Every place that hands on what is left of a time limit (the command's clock, the report's
parts, the oracle's questions, certify, the generator, a backend's sub-searches) asks a
Budget, so these hold for all of them.
"""

from __future__ import annotations

import threading
import time

import pytest

from nonolab.solvers import Budget, Limits, Status
from nonolab.solvers.base import Budget, left


def _spent(time_limit: float = 5.0, cancel=None) -> Budget:
    """A budget whose deadline passed long ago: started an hour back."""
    return Budget(time_limit, cancel, start=time.perf_counter() - 3600.0)


def test_no_deadline_means_unlimited():
    budget = Budget(None)
    assert budget.deadline is None
    assert budget.left() is None and budget.left(0.25) is None
    assert budget.time_limit() is None and budget.time_limit(0.5) is None
    assert budget.limits(None).time_limit is None
    assert not budget.expired() and not budget.cancelled()


def test_a_deadline_already_past_leaves_nothing_but_a_token_limit():
    for budget in (_spent(), Budget(0.0)):
        assert budget.left() == 0.0 and budget.left(0.5) == 0.0   # never negative
        assert budget.expired() and not budget.cancelled()
        assert budget.stopped_status() is Status.TIMEOUT
        # A call still gets a positive limit (Limits refuses 0): it times out at once.
        assert budget.time_limit() == Budget.AT_ONCE
        assert budget.limits(2, 0.1).time_limit == Budget.AT_ONCE


def test_what_is_left_is_bounded_by_the_limit_and_shared():
    budget = Budget(100.0)
    assert 0 < budget.left() <= 100.0
    assert 0 < budget.left(0.25) <= 25.0
    assert 0 < budget.time_limit(0.5) <= 50.0
    assert budget.limits(2, 0.1).time_limit <= 10.0
    assert not budget.expired()
    # A share of what is left is a share: never more than that share of the whole.
    first = budget.left()
    assert budget.left(0.5) <= first / 2


def test_a_set_cancel_is_cancelled_and_expired_whatever_the_deadline():
    stop = threading.Event()
    budget = Budget(None, stop)
    assert not budget.cancelled() and not budget.expired()
    stop.set()
    assert budget.cancelled() and budget.expired()
    assert budget.stopped_status() is Status.INTERRUPTED
    assert budget.left() is None   # the time is not what ended it


def test_limits_carry_max_solutions_and_the_cancel_or_a_replacement():
    stop, other = threading.Event(), threading.Event()
    budget = Budget(30.0, stop)
    made = budget.limits(7)
    assert made.max_solutions == 7 and made.cancel is stop and 0 < made.time_limit <= 30.0
    assert budget.limits(None, cancel=other).cancel is other
    assert Budget(None).limits(2).cancel is None


def test_of_limits_and_the_backends_name():
    stop = threading.Event()
    budget = Budget.of(Limits(3, 2.0, stop))
    assert isinstance(budget, Budget) and Budget is Budget
    assert budget.cancel is stop and 0 < budget.left() <= 2.0
    assert Budget.of(Limits()).deadline is None


def test_a_part_of_a_search_gets_what_the_call_has_left():
    stop = threading.Event()
    assert left(Limits(2, None), Budget(None)).time_limit is None
    part = left(Limits(4, 5.0, stop), Budget(None))
    assert part.max_solutions == 4 and part.cancel is stop and 0 < part.time_limit <= 5.0
    # Counted from the watch's start, not from now: a call started an hour ago has nothing left.
    old = Budget(None, start=time.perf_counter() - 3600.0)
    assert left(Limits(2, 5.0), old).time_limit == Budget.AT_ONCE
    other = threading.Event()
    assert left(Limits(2, 5.0, stop), old, other).cancel is other


def test_the_commands_clock_is_a_budget(monkeypatch):
    from nonolab.cli import clock
    from nonolab.cli.interrupt import CANCEL

    clock.start()
    assert clock.left(None) is None
    assert 0 < clock.left(5.0) <= 5.0
    assert clock.limits(3, 5.0).cancel is CANCEL and clock.limits(3, None).time_limit is None
    monkeypatch.setattr(clock, "_started", [time.perf_counter() - 3600.0])   # the command started an hour ago
    assert clock.left(5.0) == Budget.AT_ONCE
    assert clock.budget(5.0).expired()


def test_the_oracle_refuses_to_ask_once_the_budget_is_spent():
    from nonolab.harness._solutions import Oracle, OutOfTime

    oracle = Oracle(session=None, pool=None, watch=_spent(), width=1)   # type: ignore[arg-type]
    with pytest.raises(OutOfTime):
        oracle.limits(2)
    stop = threading.Event()
    stop.set()
    with pytest.raises(OutOfTime):
        Oracle(None, None, Budget(None, stop), 1).limits(2)   # type: ignore[arg-type]
    free = Oracle(None, None, Budget(40.0), 1).limits(2, share=0.25)   # type: ignore[arg-type]
    assert free.max_solutions == 2 and 0 < free.time_limit <= 10.0
