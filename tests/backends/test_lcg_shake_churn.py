"""lcg's ``shake_churn`` (with ``shake``: shake only a search whose saved phases churn, ``shake.cpp``)
and the search signals it was chosen from (``Engine.signals``, ``signals.cpp``).

Checked: off (0) is the shakes as they were, counter for counter, and the default search is
untouched; a churn of 100 % spares every shake (the default search then, with every scheduled
shake counted as spared); a low threshold on short windows shakes as the schedule says; shakes
wait for five measured windows; counts equal brute force (black and white, colour) with shakes
spared or not; the same solutions as the default on larger pictures; bad values refused in one
line (library, CLI exit 2, the engine); the signals summed over the conflicts since the last take.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.errors import InvalidArgument
from nonolab.solvers import build
from nonolab.solvers.base import Limits
from tests.backends.lcg_settings import (assert_colour_solutions_equal_brute_force, assert_counts_equal_brute_force,
                                         assert_refused_in_one_line, assert_solutions_equal_the_default, counters)
from tests.backends.test_lcg import small_puzzles
from tests.backends.test_lcg_interleave import _picture
from tests.backends.test_lcg_seed import _shakes
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

KEYS = ("conflicts", "decisions", "propagations", "line_runs", "restarts", "shakes", "shakes_spared")
# Windows of one or two conflicts, so small puzzles reach five of them: every threshold from
# "always churning" to "never".
CHURNING = ({"shake": 1, "shake_churn": 1, "shake_churn_window": 1},
            {"seed": 3, "shake": 2, "shake_churn": 10, "shake_churn_window": 1, "hint_conflicts": 0},
            {"shake": 1, "shake_churn": 30, "shake_churn_window": 2, "probing": False},
            {"shake": 1, "shake_churn": 100, "shake_churn_window": 1})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_shakes_spared_or_not(puzzle):
    assert_counts_equal_brute_force(puzzle, CHURNING)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_shakes_spared_or_not(puzzle):
    assert_colour_solutions_equal_brute_force(puzzle, CHURNING)


@pytest.mark.parametrize("picture", range(3))
def test_larger_puzzles_give_the_same_solutions_with_shakes_spared_or_not(picture):
    assert_solutions_equal_the_default(_picture(picture, 10), CHURNING)


@pytest.mark.parametrize("base", ["lcg:shake=3", "lcg:shake=2,shake_after=40,hint_rounds=0"])
def test_off_is_the_shake_as_it_was_and_the_default_is_untouched(base):
    puzzle = _picture(1, 20)
    assert counters(f"{base},shake_churn=0", puzzle, 3, KEYS) == counters(base, puzzle, 3, KEYS)
    assert counters(base, puzzle, 3, KEYS)["shakes_spared"] == 0
    plain = counters("lcg", puzzle, 3, KEYS)
    assert plain["shakes"] == plain["shakes_spared"] == 0


def test_a_churn_of_every_var_spares_every_shake_and_searches_as_the_default():
    puzzle = _picture(1, 20)   # 201 conflicts to the first solution with the default search
    spared = counters("lcg:shake=3,shake_churn=100,shake_churn_window=1", puzzle, 1, KEYS)
    default = counters("lcg", puzzle, 1, KEYS)
    assert spared["shakes"] == 0 and spared["shakes_spared"] == _shakes(spared["conflicts"], 3) >= 10
    assert {k: v for k, v in spared.items() if k != "shakes_spared"} == \
        {k: v for k, v in default.items() if k != "shakes_spared"}


def test_a_low_threshold_shakes_on_schedule_once_five_windows_are_measured():
    puzzle = _picture(1, 20)
    # Windows of one conflict: five measured by conflict 6; a shake at 3 is spared, the rest
    # churn at least 1 % of the vars and are shaken as the schedule says.
    run = counters("lcg:shake=3,shake_churn=1,shake_churn_window=1", puzzle, 1, KEYS)
    assert run["shakes_spared"] == 1
    assert run["shakes"] + run["shakes_spared"] == _shakes(run["conflicts"], 3) and run["shakes"] >= 5
    # Windows of 1,000 conflicts (the option's own): no shake within a 201-conflict search.
    assert counters("lcg:shake=3,shake_churn=1", puzzle, 1, KEYS)["shakes"] == 0
    # Between the two: some shaken, some spared (the search's churn decides, not the schedule).
    # (Unit 1: shakes due at conflicts 1, 2, 3, 5, 6, 7, 9..., the windows measured from conflict 6.)
    mid = counters("lcg:shake=1,shake_churn=8,shake_churn_window=1,hint_conflicts=0", puzzle, 1, KEYS)
    assert mid["shakes"] > 0 and mid["shakes_spared"] > 5, mid


@pytest.mark.parametrize("value", ["-1", "x", "101"])
def test_a_bad_shake_churn_is_refused_in_one_line(value):
    assert_refused_in_one_line("shake_churn", value)


def test_shake_churn_needs_shake_and_the_engine_refuses_bad_values():
    with pytest.raises(InvalidArgument, match="shake_churn=20 changes nothing while shake is off"):
        build("lcg:shake_churn=20")
    with pytest.raises(InvalidArgument, match="option shake_churn_window=0: expected"):
        build("lcg:shake=5,shake_churn=20,shake_churn_window=0")
    with pytest.raises(ValueError, match="shake_churn 0..100"):
        lcg.engine_module().Engine(1, 1, [[1]], [[1]], shake=5, shake_churn=101)
    with pytest.raises(ValueError, match="shake_churn_window >= 1"):
        lcg.engine_module().Engine(1, 1, [[1]], [[1]], shake=5, shake_churn=5, shake_churn_window=0)


def test_the_signals_sum_the_conflicts_since_the_last_take():
    puzzle = _picture(1, 20)
    solver = build("lcg")
    engine = solver._build(puzzle, [], {})
    assert engine.signals()["conflicts"] == 0   # the first take starts them
    assert engine.run(60.0, 50) == 0
    first = engine.signals()
    assert first["conflicts"] == 50 and first["phase_flips"] > 0
    assert first["conflict_level"] >= first["back_level"] and first["lbd"] <= first["learned_size"]
    assert 0 < first["trail"] / 50 <= puzzle.width * puzzle.height
    assert engine.run(60.0, 30) == 0 and engine.signals()["conflicts"] == 30
    # Taking signals does not change the search.
    assert engine.stats()["conflicts"] == 80
    plain = solver._build(puzzle, [], {})
    assert plain.run(60.0, 80) == 0
    assert {k: plain.stats()[k] for k in KEYS[:5]} == {k: engine.stats()[k] for k in KEYS[:5]}
    assert build("lcg").solve(puzzle, Limits(max_solutions=1)).stats.counters["conflicts"] > 80
