"""lcg's ``seed`` (a random first VSIDS order, ``heap.hpp``) and ``shake`` (restarts from a new
random start before the first solution, the clauses kept, ``shake.cpp``), ``shake_after`` (the
shakes' schedule delayed).

The contract, property and wall suites run the declared variants ``seed=7`` and ``shake=3``;
here: counts against brute force (black and white, colour) with seeds and shakes at nearly
every conflict, determinism for a given seed, seed 0 being the usual search, other seeds
giving other search paths, shakes exactly where the Luby schedule says and none after the
first solution, and proofs that still check; a delayed schedule (``shake_after``) searching as the
default to the conflict until its first shake, shaking on schedule after it, its bad values refused;
``shake_reset`` (what a shake resets) checked, ``both`` the shakes as they were, each kind its own search.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.errors import InvalidArgument
from nonolab.formats import load
from nonolab.solvers import build
from nonolab.solvers.base import Limits
from tests.backends.test_lcg import small_puzzles
from tests.backends.lcg_settings import (assert_colour_solutions_equal_brute_force, assert_counts_equal_brute_force,
                                         assert_refused_in_one_line, assert_solutions_equal_the_default, counters)
from tests.backends.test_lcg_interleave import _picture
from tests.certify.test_proving import PUZZLES, _refutes
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

# Seeds alone, and shakes after 1 or 2 conflicts (then 1, 2, 1, 1, 2, 4... units more), or after
# a delay of 2 or 5 conflicts.
SEEDED = ({"seed": 1}, {"seed": 123456789}, {"shake": 1}, {"seed": 5, "shake": 2},
          {"seed": 9, "shake": 1, "hint_rounds": 0, "probing": False}, {"shake": 1, "shake_after": 2},
          {"seed": 4, "shake": 2, "shake_after": 5, "probing": False}, {"shake": 1, "shake_reset": "activities"},
          {"seed": 3, "shake": 2, "shake_reset": "phases", "hint_conflicts": 0})
KEYS = ("conflicts", "decisions", "propagations", "line_runs", "restarts", "shakes")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_seeds_and_shakes(puzzle):
    assert_counts_equal_brute_force(puzzle, SEEDED)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_seeds_and_shakes(puzzle):
    assert_colour_solutions_equal_brute_force(puzzle, SEEDED[1:4] + SEEDED[5:])


@pytest.mark.parametrize("picture", range(4))
def test_larger_puzzles_give_the_same_solutions_with_seeds_and_shakes(picture):
    puzzle = _picture(picture, 10)   # hundreds to thousands of solutions
    assert_solutions_equal_the_default(puzzle, SEEDED)


def test_a_seed_is_deterministic_and_seed_zero_is_the_usual_search():
    puzzle = _picture(0, 12)
    for spec in ("lcg:seed=3", "lcg:seed=3,shake=2"):
        assert counters(spec, puzzle, 300, KEYS) == counters(spec, puzzle, 300, KEYS), spec
    assert counters("lcg:seed=0", puzzle, 300, KEYS) == counters("lcg", puzzle, 300, KEYS)


def test_other_seeds_give_other_search_paths():
    puzzle = _picture(1, 20)   # 201 conflicts to the first solution with the default search
    paths = {tuple(counters(f"lcg:seed={seed}", puzzle, 1, KEYS).values()) for seed in range(6)}
    assert len(paths) >= 4, paths
    conflicts = {build(f"lcg:seed={seed}").solve(puzzle, Limits(max_solutions=1)).stats.counters["conflicts"]
                 for seed in range(6)}
    assert len(conflicts) >= 3, conflicts


def _luby(x: int) -> int:
    """The Luby sequence's x-th term (1, 1, 2, 1, 1, 2, 4, ...), as policy.cpp's."""
    size, seq = 1, 0
    while size < x + 1:
        seq, size = seq + 1, 2 * size + 1
    while size - 1 != x:
        size = (size - 1) >> 1
        seq -= 1
        x %= size
    return 2 ** seq


def _shakes(conflicts: int, unit: int, after: int = 0) -> int:
    """Shakes within `conflicts`: at after + unit, then unit * (1, 2, 1, 1, 2, 4, ...) more each."""
    at, k = after + unit, 0
    while at <= conflicts:
        k += 1
        at += unit * _luby(k)
    return k


@pytest.mark.parametrize("unit", [1, 3, 10])
def test_shakes_happen_where_the_luby_schedule_says_and_stop_at_the_first_solution(unit):
    puzzle = _picture(1, 20)
    first = counters(f"lcg:shake={unit}", puzzle, 1, KEYS)
    assert first["conflicts"] > 20
    assert first["shakes"] == _shakes(first["conflicts"], unit) >= 2
    more = counters(f"lcg:shake={unit}", puzzle, 2000, KEYS)   # 170-370 conflicts
    assert _shakes(more["conflicts"], unit) > first["shakes"] + 5
    assert more["shakes"] == first["shakes"]   # none after the first solution
    assert counters("lcg", puzzle, 1, KEYS)["shakes"] == 0


@pytest.mark.parametrize("spec", ["lcg:seed=11,shake=1", "lcg:seed=11,shake=1,shake_after=5"])
def test_proofs_still_check_with_seeds_and_shakes(tmp_path, spec):
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions, the first after 23 conflicts
    result = build(spec).prove(puzzle, Limits(max_solutions=None), tmp_path / "proof.drat")
    assert result.complete and result.count == 43 and result.stats.counters["shakes"] > 0
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
    assert not _refutes(puzzle, result.solutions[:-1], tmp_path / "proof.drat")


@pytest.mark.parametrize("unit, after", [(3, 60), (10, 120), (1, 150)])
def test_a_delayed_shake_searches_as_the_default_to_the_conflict_then_shakes_on_schedule(unit, after):
    puzzle = _picture(1, 20)   # 201 conflicts to the first solution with the default search
    spec = f"lcg:shake={unit},shake_after={after}"
    first_shake = after + unit
    # To the conflict before the first shake: the default search, counter for counter.
    before = counters(f"{spec},conflict_limit={first_shake - 1}", puzzle, 1, KEYS)
    assert before == counters(f"lcg:conflict_limit={first_shake - 1}", puzzle, 1, KEYS)
    assert before["conflicts"] == first_shake - 1 and before["shakes"] == 0
    # At the first shake's conflict it shakes (undelayed, the first shake is at conflict `unit`).
    assert counters(f"{spec},conflict_limit={first_shake}", puzzle, 1, KEYS)["shakes"] == 1
    first = counters(spec, puzzle, 1, KEYS)
    assert first["conflicts"] > first_shake
    assert first["shakes"] == _shakes(first["conflicts"], unit, after) >= 1
    assert first != counters("lcg", puzzle, 1, KEYS)


def test_a_puzzle_solved_before_the_delay_is_the_default_search_counts_and_all():
    puzzle = _picture(0, 10)   # 9,031 solutions in 423 conflicts, the first after 7
    delayed = build("lcg:shake=1,shake_after=7").solve(puzzle, Limits(max_solutions=None))
    alone = build("lcg").solve(puzzle, Limits(max_solutions=None))
    assert delayed.complete and delayed.count == alone.count == 9031
    assert {k: delayed.stats.counters[k] for k in KEYS} == {k: alone.stats.counters[k] for k in KEYS}
    assert delayed.stats.counters["shakes"] == 0


@pytest.mark.parametrize("name", ["hakank/lambda.non", "webpbn/webpbn-00023-edge.non"])
def test_unique_with_a_delayed_shake(name):
    puzzle = load(PUZZLES / name)   # unique, 13-14 conflicts to the proof with the default search
    result = build("lcg:shake=1,shake_after=2").solve(puzzle, Limits(max_solutions=None))
    assert result.unique and result.complete and result.stats.counters["shakes"] > 0
    assert result.solutions == build("lcg").solve(puzzle, Limits(max_solutions=None)).solutions


@pytest.mark.parametrize("value", ["-1", "x", "100000001"])
def test_a_bad_shake_after_is_refused_in_one_line(value):
    assert_refused_in_one_line("shake_after", value)


def test_shake_after_without_shake_is_refused_and_the_engine_refuses_a_negative_one():
    with pytest.raises(InvalidArgument, match="shake_after=100 changes nothing while shake is off"):
        build("lcg:shake_after=100")
    with pytest.raises(ValueError, match="shake_after >= 0"):
        lcg.engine_module().Engine(1, 1, [[1]], [[1]], shake=5, shake_after=-1)


def test_a_colour_search_takes_the_seed():
    import random

    from nonolab.core import Palette, Puzzle, Solution
    rnd = random.Random(3)
    cells = [[rnd.randint(1, 2) if rnd.random() < 0.3 else 0 for _ in range(12)] for _ in range(12)]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(2))
    runs = {seed: counters(f"lcg:probing=off,seed={seed}", puzzle, 200, KEYS) for seed in range(4)}
    assert len({tuple(r.values()) for r in runs.values()}) >= 2, runs
    assert runs[2] == counters("lcg:probing=off,seed=2", puzzle, 200, KEYS)


@pytest.mark.parametrize("base", ["lcg:shake=3", "lcg:shake=2,shake_after=40,hint_rounds=0",
                                  "lcg:seed=5,shake=1,hint_conflicts=0"])
def test_shake_reset_both_is_the_shake_as_it_was(base):
    puzzle = _picture(1, 20)
    assert counters(f"{base},shake_reset=both", puzzle, 3, KEYS) == counters(base, puzzle, 3, KEYS)


def test_each_shake_reset_is_its_own_search():
    puzzle = _picture(1, 20)
    # Hints for the whole first solution (hint_conflicts 10,000): decisions take the hinted phases
    # whatever the saved ones, so resetting the phases changes nothing; keeping the activities does.
    hinted = {kind: counters(f"lcg:shake=3,shake_reset={kind}", puzzle, 1, KEYS)
              for kind in ("both", "activities", "phases")}
    assert hinted["activities"] == hinted["both"] != hinted["phases"]
    # Without hints the kept phases steer the search too: three searches.
    bare = {kind: counters(f"lcg:shake=3,hint_conflicts=0,shake_reset={kind}", puzzle, 1, KEYS)
            for kind in ("both", "activities", "phases")}
    assert len({tuple(run.values()) for run in bare.values()}) == 3, bare
    assert all(run["shakes"] >= 2 for run in bare.values())
    # The same answers: SEEDED's two kinds, against brute force and the default above.


def test_a_bad_shake_reset_is_refused_in_one_line_and_needs_shake():
    assert_refused_in_one_line("shake_reset", "nothing")
    with pytest.raises(InvalidArgument, match="shake_reset=phases changes nothing while shake is off"):
        build("lcg:shake_reset=phases")
    with pytest.raises(ValueError, match="shake_reset 0"):
        lcg.engine_module().Engine(1, 1, [[1]], [[1]], shake=5, shake_reset=3)
