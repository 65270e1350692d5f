"""What auto computes from its options alone is shared by the solvers of equal options
(``parts.shared``), and what it computes from the puzzle once per solve; neither may
serve an answer that belongs to other options, another puzzle or another budget.  The
library and the CLI build a fresh solver a puzzle, so these are the cases that happen."""

from __future__ import annotations

import random

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import TooLarge
from nonolab.formats.limits import MEMORY_VARIABLE
from nonolab.solvers import build, bytes_per_cell, get
from nonolab.solvers.auto import AutoSolver
from nonolab.solvers.base import Limits
from nonolab.solvers.size import model_states, model_states_at_most


def _grid(side: int) -> Puzzle:
    """A unique side x side picture: the first row filled, the rest empty."""
    return Puzzle.from_solution(Solution.from_rows(["#" * side] + ["." * side] * (side - 1)))


SMALL, LARGE = _grid(5), _grid(200)


def test_solvers_of_equal_options_share_their_parts_and_others_do_not():
    assert get("auto").parts() is get("auto").parts()
    assert build("auto:native_budget=0.25").parts() is build("auto:native_budget=0.25").parts()
    assert build("auto:native_budget=0.25").parts() is not get("auto").parts()
    assert build("auto:native_budget=0.25").parts().schedule.native_budget == 0.25
    assert get("auto", solo_side=0).parts() is not get("auto").parts()
    assert get("auto", cdcl_options={"interleave": 3}).parts() is not get("auto").parts()
    assert get("auto", native_options={"probing": "none"}).parts() is not get("auto").parts()
    progress = get("auto", progress=lambda done, total: None)
    assert progress.parts() is not get("auto").parts() and progress.parts().progress is progress.progress


def test_solvers_of_other_options_alternating_route_by_their_own():
    for _ in range(2):   # each asked after the other has filled what it shares
        assert get("auto").route(SMALL) == "solo"
        assert get("auto", solo_side=0).route(SMALL) == "duel"
        assert get("auto", race=False, solo_side=0).route(SMALL) == "one engine"
        assert get("auto").route(LARGE) == "duel"
        assert get("auto", handoff_max_states=model_states(LARGE) - 1).route(LARGE) == "native"
        assert get("auto", handoff_max_states=model_states(LARGE)).route(LARGE) == "duel"
    counters = [get("auto", **options).solve(SMALL, Limits(2)).stats.counters["phase"]
                for options in ({}, {"solo_side": 0}, {})]
    assert counters[0] == counters[2] == "lcg alone" and counters[1] != "lcg alone"


def test_one_solver_routes_each_puzzle_by_itself():
    solver = get("auto")
    assert [solver.route(p) for p in (SMALL, LARGE, SMALL, _grid(5))] == ["solo", "duel", "solo", "solo"]
    assert bytes_per_cell(solver, LARGE) == bytes_per_cell(get("native"), LARGE) + bytes_per_cell(get("lcg"), LARGE)
    assert bytes_per_cell(solver, SMALL) == 2 * bytes_per_cell(get("lcg"), SMALL)   # (and its seeded rival)


def test_the_first_engine_s_options_count_in_auto_s_memory():
    """lcg with ``interleave`` holds two engines; given through ``cdcl_options`` it was
    declared as one."""
    doubled = get("lcg", interleave=3)
    assert bytes_per_cell(doubled, SMALL) == 2 * bytes_per_cell(get("lcg"), SMALL)
    # (the first-solution rival is the first engine with another seed: its options too)
    assert bytes_per_cell(get("auto", cdcl_options={"interleave": 3}), SMALL) == 2 * bytes_per_cell(doubled, SMALL)
    assert bytes_per_cell(get("auto", find_seed=0, cdcl_options={"interleave": 3}), SMALL) == bytes_per_cell(
        doubled, SMALL)
    assert bytes_per_cell(get("auto"), SMALL) == 2 * bytes_per_cell(get("lcg"), SMALL)


@pytest.mark.parametrize("spec", ["auto", "lcg"])
def test_a_memory_budget_changed_between_two_solves_is_honoured(spec, monkeypatch):
    """docs/limits.md: the budget is the environment's when no read sets it; it is read at
    every solve, not once per process or per solver."""
    need = 200 * 200 * bytes_per_cell(get(spec), LARGE)
    solver = get(spec)
    monkeypatch.setenv(MEMORY_VARIABLE, str(need - 1))
    with pytest.raises(TooLarge, match="memory budget"):
        solver.solve(LARGE, Limits(1))
    with pytest.raises(TooLarge, match="memory budget"):
        get(spec).solve(LARGE, Limits(1))
    monkeypatch.setenv(MEMORY_VARIABLE, str(need))
    assert solver.solve(LARGE, Limits(1)).count == 1
    assert get(spec).solve(LARGE, Limits(1)).count == 1
    monkeypatch.setenv(MEMORY_VARIABLE, str(need - 1))
    with pytest.raises(TooLarge, match="memory budget"):
        solver.solve(LARGE, Limits(1))


def test_a_bad_memory_variable_is_still_refused_at_a_solve(monkeypatch):
    from nonolab.errors import InvalidArgument
    monkeypatch.setenv(MEMORY_VARIABLE, "1e11")
    with pytest.raises(InvalidArgument, match=MEMORY_VARIABLE):
        get("auto").solve(SMALL, Limits(1))


def test_the_size_bound_of_a_model_is_never_below_its_exact_size():
    rng = random.Random(25)
    for _ in range(200):
        h, w = rng.randint(1, 12), rng.randint(1, 12)
        colours = rng.choice((1, 1, 3))
        values = [[rng.randint(0, colours) for _ in range(w)] for _ in range(h)]
        palette = Palette.default_for(colours) if colours > 1 else None
        puzzle = Puzzle.from_solution(Solution.from_values(values), palette=palette)
        assert model_states(puzzle) <= model_states_at_most(puzzle)


def test_the_size_bound_decides_nothing_the_exact_size_would_not():
    """A bound between the exact size and the size bound still refuses the hand-over."""
    exact, most = model_states(LARGE), model_states_at_most(LARGE)
    assert exact < most
    for bound, route in ((exact - 1, "native"), (exact, "duel"), ((exact + most) // 2, "duel"), (most, "duel")):
        assert AutoSolver(handoff_max_states=bound).route(LARGE) == route


def test_the_race_made_when_the_rival_joins_still_stops_the_engine():
    """solo makes its race only when the rival joins; the engine subscribed its interrupt
    before (lcg subscribes at its start), and must be stopped when the rival wins."""
    from nonolab.solvers.auto.racing import Either, Race
    from nonolab.solvers.auto.solo import _Won
    won, calls = _Won(lambda: Race(lambda got: True)), []
    before = won.on_set(lambda: calls.append("before"))
    dropped = won.on_set(lambda: calls.append("dropped"))
    dropped()   # unsubscribed before the race is made: never called
    either = Either(won, _Unset())
    assert not won.is_set() and not either.is_set() and won.made is None
    race = won.race()
    assert won.race() is race   # made once
    after = won.on_set(lambda: calls.append("after"))
    late = won.on_set(lambda: calls.append("late"))
    late()      # unsubscribed after: never called
    race.won.set()
    assert won.is_set() and either.is_set() and calls == ["before", "after"]
    before(), after()   # unsubscribing once set is harmless


class _Unset:
    def is_set(self) -> bool:
        return False
