"""auto's solo path (auto.solo): on grids up to ``solo_side`` a side, lcg alone in the
caller's thread, then the rival beside it after ``solo_budget`` seconds.

Counts must stay exact whoever answers: the rival searches the space lcg's root level
leaves, and the union of both is taken.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers import get
from nonolab.solvers.base import Given, Limits, Status
from lcg_stand_in import OPEN, SOLUTION, END, stand_in_lcg as _stand_in_lcg
from test_properties import _brute_force, clue_sets

pytest.importorskip("nonolab.solvers.lcg")


def _permutations(n: int) -> Puzzle:
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def test_a_small_grid_goes_to_lcg_alone_in_the_callers_thread():
    before = set(threading.enumerate())  # (an earlier test's stopped loser may still be ending)
    result = get("auto").solve(load("puzzles/webpbn/webpbn-00006-cat.non"))
    counters = result.stats.counters
    assert result.unique and counters["phase"] == "lcg alone" and counters["winner"] == "lcg"
    assert "native_time" not in counters and set(threading.enumerate()) <= before  # no thread, no native
    assert counters["conflicts"] == counters["cdcl_conflicts"]


def test_larger_grids_and_step_logs_take_the_native_path():
    assert get("auto", solo_side=4).solve(_permutations(5)).stats.counters["phase"] != "lcg alone"
    steps = get("auto", record_steps=True).solve(_permutations(3), Limits(max_solutions=1))
    assert "native_time" in steps.stats.counters and steps.steps


def test_the_rival_joins_after_the_budget_and_the_count_stays_exact():
    # solo_budget=0: the rival (CP-SAT) joins at lcg's first slice's end.  Whoever
    # answers, all 120 permutation matrices are counted once.
    # (The alarm rings between lcg's slices: here after its first solution.)
    # (count_relay off: the rival of a count as it is without the seeded draw, auto.relay)
    result = get("auto", rival="cpsat", solo_budget=0, count_relay=False).solve(_permutations(5),
                                                                                Limits(max_solutions=None))
    counters = result.stats.counters
    assert result.complete and result.count == 120 and result.status is Status.SOLVED
    assert counters["phase"] == "lcg|cpsat race" and counters["winner"] in ("lcg", "cpsat")


@pytest.mark.parametrize("rival", ["cpsat", "cnf"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=clue_sets())
def test_counts_are_exact_whoever_answers(rival, puzzle):
    result = get("auto", rival=rival, solo_budget=0, count_relay=False).solve(puzzle, Limits(max_solutions=None))
    exact = _brute_force(puzzle)
    if exact is None:
        exact = get("native").solve(puzzle, Limits(max_solutions=None)).count
    assert result.complete and result.count == exact


def test_without_a_rival_lcg_goes_on_alone():
    result = get("auto", rival="none", race=False, solo_budget=0).solve(_permutations(5), Limits(max_solutions=None))
    assert result.count == 120 and result.complete and result.stats.counters["phase"] == "lcg alone"


def test_a_deadline_gives_a_timeout_with_a_remainder_every_unseen_solution_keeps():
    puzzle = _permutations(11)  # 11! solutions: nobody counts them within the limit
    result = get("auto", rival="none", race=False).solve(puzzle, Limits(max_solutions=None, time_limit=0.3))
    assert result.status is Status.TIMEOUT and not result.complete and result.count > 0
    assert result.remainder is not None and len(result.remainder.cells) == 121


def test_given_cells_hold_on_the_solo_path():
    puzzle = _permutations(4)
    result = get("auto").solve(puzzle, Limits(max_solutions=None), Given({(0, 0): 1, (1, 1): 1}))
    assert result.complete and result.count == 2
    assert all(s.flat()[0] == 1 and s.flat()[5] == 1 for s in result.solutions)


def test_bad_solo_options_are_refused():
    with pytest.raises(ValueError):
        get("auto", solo_side=-1)
    with pytest.raises(ValueError):
        get("auto", solo_budget=-0.5)


def _twenty_dom() -> Puzzle:
    from reference import n_dom

    rows, columns = n_dom(20)  # 41x41, unique: lcg alone, then Kissat beside it, need more than 20 s
    return Puzzle(rows=rows, columns=columns)


@pytest.mark.parametrize("stop", ["cancel", "time_limit"])
def test_a_cancel_or_a_limit_stops_lcg_and_the_rival_that_joined_it(stop):
    import time

    cancel = threading.Event()
    limits = Limits(max_solutions=2, cancel=cancel) if stop == "cancel" else Limits(max_solutions=2, time_limit=0.8)
    if stop == "cancel":
        threading.Timer(0.8, cancel.set).start()
    # (solo_budget=0: the rival joins at lcg's first slice's end; the budget is lcg's CPU
    # time, which a loaded machine may not give it before the stop.)
    result = get("auto", rival="cpsat", solo_budget=0, count_relay=False).solve(_twenty_dom(), limits)
    expected = Status.INTERRUPTED if stop == "cancel" else Status.TIMEOUT
    assert result.status is expected and result.stats.counters["phase"] == "lcg|cpsat race"
    # The rival was told to stop too: its thread ends (waited for up to a hang guard, not
    # a speed check: how fast is a benchmark's question).
    deadline = time.perf_counter() + 60.0
    while [t for t in threading.enumerate() if t.name.startswith("nonolab-auto-")] and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert not [t for t in threading.enumerate() if t.name.startswith("nonolab-auto-")]


@pytest.mark.parametrize("max_solutions, find_budget, joins_after_slices", [
    (1, 3.5, [4]), (1, 1000.0, []), (None, 1000.0, [1]), (2, 1000.0, [1])])
def test_the_rival_joins_a_first_solution_search_after_solo_find_budget(monkeypatch, max_solutions, find_budget,
                                                                       joins_after_slices):
    # lcg's CPU clock moves 1 s a look (one at the start, one after each slice); its
    # engine (a stand-in) answers on its sixth slice.  With one solution asked for the
    # rival joins after solo_find_budget; a count without count_relay keeps solo_budget
    # (0: after the first slice).  The rival is not started here: the test records when it would be.
    from nonolab.solvers.auto import racing
    from nonolab.solvers.lcg import slices

    now = [0.0]

    def cpu_clock() -> float:
        now[0] += 1.0
        return now[0]

    engines = _stand_in_lcg(monkeypatch, {0: (OPEN,) * 5 + (SOLUTION, END)})
    monkeypatch.setattr(slices.time, "thread_time", cpu_clock)
    started = []
    monkeypatch.setattr(racing.Race, "start", lambda self, slot, name, call, nice=0: started.append(engines[0].calls))
    auto = get("auto", rival="cpsat", solo_budget=0, solo_find_budget=find_budget, count_relay=False)
    result = auto.solve(Puzzle(rows=((1,),), columns=((1,),)), Limits(max_solutions=max_solutions))
    assert result.count == 1 and started == joins_after_slices


def test_a_first_solution_search_is_raced_by_lcg_with_another_seed(monkeypatch):
    # The first engine (seed 0) never answers; the rival joins after its first slice
    # (solo_find_budget=0) as lcg with find_seed, answers on its third slice, and stops it.
    engines = _stand_in_lcg(monkeypatch, {0: (OPEN,)}, others=(OPEN, OPEN, SOLUTION, END))
    result = get("auto", solo_find_budget=0, find_seed=5).solve(Puzzle(rows=((1,),), columns=((1,),)),
                                                                Limits(max_solutions=1))
    counters = result.stats.counters
    assert result.count == 1 and result.status is Status.SOLVED
    assert counters["phase"] == "lcg|lcg:seed=5 race" and counters["winner"] == "lcg:seed=5"
    assert [e.seed for e in engines] == [0, 5] and counters["rival_conflicts"] == 3


@pytest.mark.parametrize("max_solutions, options, rival", [
    (1, {"find_seed": 0}, "cpsat"),           # find_seed 0: the rival as before
    (2, {"count_relay": False}, "cpsat"),     # a count without the relay: the rival (Kissat by default)
    (None, {"find_seed": 3, "count_relay": False}, "cpsat")])
def test_counts_without_the_relay_and_find_seed_0_keep_the_rival(monkeypatch, max_solutions, options, rival):
    from nonolab.solvers.auto import racing
    started = []
    monkeypatch.setattr(racing.Race, "start", lambda self, slot, name, call, nice=0: started.append(name))
    get("auto", rival=rival, solo_budget=0, solo_find_budget=0, **options).solve(
        _permutations(5), Limits(max_solutions=max_solutions))
    assert started == [rival]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=clue_sets())
def test_first_solutions_are_right_whoever_answers(puzzle):
    # The seeded rival joins at lcg's first slice's end: a solution when there is one
    # (checked against the clues by auto), a proof of none when there is none.
    result = get("auto", solo_find_budget=0).solve(puzzle, Limits(max_solutions=1))
    exact = _brute_force(puzzle)
    if exact is None:
        exact = get("native").solve(puzzle, Limits(max_solutions=2)).count
    assert result.count == min(exact, 1) and result.complete == (exact == 0)
    assert result.stats.counters["phase"] in ("lcg alone", "lcg|lcg:seed=2 race")


def test_bad_find_seeds_are_refused():
    from nonolab.errors import InvalidArgument
    with pytest.raises(InvalidArgument, match="find_seed=-1"):
        get("auto", find_seed=-1)
    with pytest.raises(InvalidArgument, match="first engine's own seed"):
        get("auto", find_seed=4, cdcl_options={"seed": 4})
