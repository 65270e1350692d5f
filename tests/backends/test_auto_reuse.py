"""auto settles its options once per option set and copies the settled state into each
new solver, and builds its first engine a solve as a copy of the first one it built
(``auto.reuse``).  None of it may serve a solver that belongs to other options, keep a
refusal from being raised, or let one solver's changes reach another."""

from __future__ import annotations

import random

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument
from nonolab.solvers import build, get
from nonolab.solvers.auto import AutoSolver, reuse
from nonolab.solvers.base import Limits


def _settled_afresh(**options) -> dict:
    """The state a solver of these options gets when nothing is kept."""
    kept = dict(reuse._SETTLED)
    reuse._SETTLED.clear()
    try:
        return vars(AutoSolver(**options))
    finally:
        reuse._SETTLED.update(kept)


OPTION_SETS = ({}, {"solo_side": 0}, {"native_budget": 1}, {"native_budget": 1.0}, {"race": False},
               {"cdcl": "cpsat", "rival": "lcg"}, {"native_options": {"probing": "none"}},
               {"cdcl_options": {"interleave": 3}}, {"solo_side": "7"}, {"probing": "none", "line": "overlap"})


def test_solvers_of_other_options_alternating_get_their_own_settled_state():
    for _ in range(3):   # each built after the others have been kept
        for options in OPTION_SETS:
            assert vars(AutoSolver(**options)) == _settled_afresh(**options), options


def test_a_refusal_is_raised_after_an_equal_valued_option_was_kept():
    """1 == True and hash alike: a key by value alone would hand solo_side=True the
    state kept for solo_side=1 instead of refusing it."""
    assert AutoSolver(solo_side=1).solo_side == 1
    for _ in range(2):
        with pytest.raises(InvalidArgument, match="solo_side=True"):
            AutoSolver(solo_side=True)
        with pytest.raises(InvalidArgument, match="solo_side=-1"):
            AutoSolver(solo_side=-1)
        with pytest.raises(InvalidArgument, match="rival=lcg is the engine"):
            AutoSolver(rival="lcg", cdcl="lcg")


def test_no_two_solvers_share_what_one_may_change():
    a, b = AutoSolver(native_options={"probing": "none"}), AutoSolver(native_options={"probing": "none"})
    assert a.native_options is not b.native_options and a.cdcl_options is not b.cdcl_options
    a.native_options["line"] = "overlap"
    a.cdcl_options["interleave"] = 3
    assert AutoSolver(native_options={"probing": "none"}).native_options == {"probing": "none"}
    assert AutoSolver().cdcl_options == {}


def test_a_solver_given_a_callback_or_an_unplain_value_settles_its_own():
    calls = []
    progress = AutoSolver(progress=lambda done, total: calls.append(done))
    assert progress.progress is not None and AutoSolver().progress is None
    assert reuse.options_key(AutoSolver, {"x": [1]}) is None
    assert reuse.options_key(AutoSolver, {"x": 1}) != reuse.options_key(AutoSolver, {"x": True})
    assert reuse.options_key(AutoSolver, {"x": 0.0}) != reuse.options_key(AutoSolver, {"x": -0.0})


@pytest.mark.parametrize("options", [{}, {"interleave": 3}, {"minimise": "basic", "probing": False}])
def test_each_engine_is_a_new_one_equal_to_one_built_with_its_options(options):
    parts = get("auto", cdcl_options=options).parts()
    for _ in range(2):
        engine = parts.engine("lcg")
        assert engine is not parts.engine("lcg")
        assert vars(engine) == vars(build("lcg", **options))
        engine.alarm, engine.hold = (1.0, print), []   # what solo sets: never on the next one
    assert parts.engine("lcg").alarm is None and parts.engine("lcg").hold is None


def _puzzles(n: int) -> list[Puzzle]:
    rng = random.Random(39)
    return [Puzzle.from_solution(Solution.from_values([[rng.random() < 0.5 for _ in range(12)] for _ in range(12)]))
            for _ in range(n)]


def test_alternating_puzzles_and_engine_options_search_as_lcg_with_those_options():
    """The first engine's search, counted: the conflicts (deterministic) of auto's lcg
    are lcg's own with the same options, whichever solver of other options came before."""
    option_sets = ({}, {"minimise": "basic", "restarts": "glucose"}, {"probing": False})
    for puzzle in _puzzles(6):
        for options in option_sets * 2:
            mine = get("auto", cdcl_options=options).solve(puzzle, Limits(2))
            alone = get("lcg", **options).solve(puzzle, Limits(2))
            assert mine.stats.counters["phase"] == "lcg alone"
            assert mine.solutions == alone.solutions and mine.complete == alone.complete
            assert mine.stats.counters["conflicts"] == alone.stats.counters["conflicts"]
            assert mine.stats.counters["cdcl_decisions"] == alone.stats.counters["decisions"]


def test_each_engine_of_a_race_is_its_own():
    parts = get("auto", cdcl="cpsat", rival="lcg", cdcl_options={"workers": 1}).parts()
    for _ in range(2):
        assert type(parts.engine("lcg")) is type(get("lcg")) and parts.engine("cpsat").workers == 1
        assert type(parts.engine("cpsat")) is type(get("cpsat")) and not hasattr(parts.engine("lcg"), "workers")


def test_counter_names_made_once_stay_each_result_s_own():
    from nonolab.solvers.auto.solo import _prefixed
    for _ in range(2):   # the second time every name is known
        assert _prefixed("cdcl_", {"conflicts": 3, "restarts": 1}) == {"cdcl_conflicts": 3, "cdcl_restarts": 1}
        assert _prefixed("cdcl_", {"nodes": 2}) == {"cdcl_nodes": 2}
        assert _prefixed("rival_", {"conflicts": 5}) == {"rival_conflicts": 5}
        assert _prefixed("cdcl_", {}) == {}


def test_an_engine_whose_state_cannot_be_copied_exactly_is_built_each_time():
    built = []

    class Slotted:
        __slots__ = ("alarm",)

        def __init__(self):
            self.alarm = None
            built.append(self)

    class Shared:
        def __init__(self):
            self.hold = []   # a list: one solver's changes would reach the next
            built.append(self)

    for cls in (Slotted, Shared):
        known: dict = {}
        built.clear()
        engines = [reuse.fresh(known, "e", cls) for _ in range(3)]
        assert engines == built and len(set(map(id, engines))) == 3
