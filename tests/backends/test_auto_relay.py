"""auto's count rival on the solo path (auto.relay): lcg with ``find_seed`` until the first
engine has a solution, then the rival (Kissat by default) for the proof.

The switch is tested with stand-ins for lcg's compiled engine (each search's slices
counted, no clock read); counts are tested against brute force with the real engines.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers import get
from nonolab.solvers.base import Limits, Status
from lcg_stand_in import OPEN, SOLUTION, END, stand_in_lcg as _stand_in_lcg
from test_properties import _brute_force, clue_sets

pytest.importorskip("nonolab.solvers.lcg")

ONE = Puzzle(rows=((1,),), columns=((1,),))


def _relayed():
    """auto with the relay on, its rival CP-SAT, joining at lcg's first slice's end (relay_early
    does not apply: solo_find_budget, 0.3, is not below solo_budget)."""
    return get("auto", rival="cpsat", solo_budget=0, count_relay=True)


def test_the_rival_turns_to_the_proof_engine_once_the_first_engine_has_a_solution(monkeypatch):
    # The first engine (seed 0) finds the solution on its second slice and never ends its
    # count; the seeded draw (seed 2), joining after the first slice, never finds one.
    # Once the first engine's solution is in, the seeded draw stops and CP-SAT counts.
    built = _stand_in_lcg(monkeypatch, {0: (OPEN, SOLUTION, OPEN), 2: (OPEN,)})
    # (time_limit: a hang guard, were the switch broken; not a speed check)
    result = _relayed().solve(ONE, Limits(max_solutions=2, time_limit=60))
    counters = result.stats.counters
    assert result.count == 1 and result.complete and result.status is Status.SOLVED
    assert counters["phase"] == "lcg|lcg:seed=2>cpsat race" and counters["winner"] == "lcg:seed=2>cpsat"
    assert counters["rival_relay_stage"] == "proof" and counters["rival_relay_seeded_solutions"] == 0
    assert [engine.seed for engine in built] == [0, 2]


def test_a_seeded_draw_that_answers_first_is_the_answer(monkeypatch):
    # The first engine never finds a solution; the seeded draw finds it and exhausts the
    # space on its third slice: its count is the answer, no proof engine is started.
    _stand_in_lcg(monkeypatch, {0: (OPEN,), 2: (OPEN, SOLUTION, END)})
    result = _relayed().solve(ONE, Limits(max_solutions=None, time_limit=60))
    counters = result.stats.counters
    assert result.count == 1 and result.complete
    assert counters["rival_relay_stage"] == "seeded" and counters["rival_relay_seeded_solutions"] == 1
    assert "rival_conflicts" in counters and counters["rival_conflicts"] == 3   # the seeded draw's slices


@pytest.mark.parametrize("options, first, budget, rival", [
    # relay_early off: at solo_budget, the seeded draw if lcg has no solution, else the proof engine
    ({"relay_early": False}, (OPEN, OPEN, OPEN, SOLUTION, END), 2, "lcg:seed=2>cpsat"),
    ({}, (OPEN, OPEN, OPEN, SOLUTION, END), 1, "lcg:seed=2>cpsat"),   # on, the default
    ({"relay_early": False}, (OPEN, SOLUTION, OPEN, OPEN, END), 2, "cpsat"),
    # relay_early: the seeded draw at solo_find_budget if lcg has no solution by then; with one
    # in, the proof engine at solo_budget, never sooner
    ({"relay_early": True}, (OPEN, OPEN, OPEN, SOLUTION, END), 1, "lcg:seed=2>cpsat"),
    ({"relay_early": True}, (SOLUTION, OPEN, OPEN, OPEN, END), 2, "cpsat"),
    ({"relay_early": True}, (OPEN, SOLUTION, OPEN, OPEN, END), 1, "lcg:seed=2>cpsat"),
    ({"relay_early": True, "solo_find_budget": 2}, (OPEN, OPEN, OPEN, SOLUTION, END), 2, "lcg:seed=2>cpsat"),
    ({"count_relay": False}, (OPEN, OPEN, OPEN, SOLUTION, END), 2, "cpsat"),  # off: the rival
    ({"count_relay": True, "find_seed": 0}, (OPEN, OPEN, OPEN, SOLUTION, END), 2, "cpsat")])
def test_which_rival_joins_a_count_and_when(monkeypatch, options, first, budget, rival):
    # lcg's CPU clock moves 1 s a look (one at the start, one after each slice): the
    # solo_find_budget=1 join comes after the first slice, solo_budget=2 after the second.
    from nonolab.solvers.auto import racing
    from nonolab.solvers.lcg import slices

    built = _stand_in_lcg(monkeypatch, {0: first, 2: (OPEN,)})
    now = [0.0]

    def cpu_clock() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(slices.time, "thread_time", cpu_clock)
    started = []
    monkeypatch.setattr(racing.Race, "start",
                        lambda self, slot, name, call, nice=0: started.append((name, built[0].calls)))
    result = get("auto", rival="cpsat", **{"solo_budget": 2, "solo_find_budget": 1, **options}).solve(
        ONE, Limits(max_solutions=2))
    assert result.count == 1 and started == [(rival, budget)]


@pytest.mark.parametrize("max_solutions", [2, None])
@pytest.mark.parametrize("early", [False, True])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=clue_sets())
def test_relayed_counts_equal_brute_force(max_solutions, early, puzzle):
    # The seeded draw joins at lcg's first slice's end (early: at solo_find_budget, and with a
    # solution in by then the proof engine at the next); whoever answers (lcg, the seeded
    # draw, or CP-SAT after the first engine's first solution), the count is exact.
    auto = (get("auto", rival="cpsat", solo_find_budget=0, solo_budget=1e-6, count_relay=True, relay_early=True)
            if early else _relayed())
    result = auto.solve(puzzle, Limits(max_solutions=max_solutions))
    exact = _brute_force(puzzle)
    if exact is None:
        exact = get("native").solve(puzzle, Limits(max_solutions=None)).count
    expected = exact if max_solutions is None else min(exact, max_solutions)
    assert result.count == expected
    if max_solutions is None or exact < max_solutions:
        assert result.complete


@pytest.mark.parametrize("option, value", [("count_relay", "sometimes"), ("relay_early", "soon")])
def test_a_bad_count_relay_is_refused(option, value):
    with pytest.raises(InvalidArgument, match=option):
        get("auto", **{option: value})
