"""lcg's ``seed`` (a random first VSIDS order, ``heap.hpp``) and ``shake`` (restarts from a new
random start before the first solution, the clauses kept, ``shake.cpp``).

The contract, property and wall suites run the declared variants ``seed=7`` and ``shake=3``;
here: counts against brute force (black and white, colour) with seeds and shakes at nearly
every conflict, determinism for a given seed, seed 0 being the usual search, other seeds
giving other search paths, shakes exactly where the Luby schedule says and none after the
first solution, and proofs that still check.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.formats import load
from nonolab.solvers import build
from nonolab.solvers.base import Limits
from tests.backends.test_lcg import small_puzzles
from tests.backends.lcg_settings import (assert_colour_solutions_equal_brute_force, assert_counts_equal_brute_force,
                                         assert_solutions_equal_the_default, counters)
from tests.backends.test_lcg_interleave import _picture
from tests.certify.test_proving import PUZZLES, _refutes
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

# Seeds alone, and shakes after 1 or 2 conflicts (then 1, 2, 1, 1, 2, 4... units more).
SEEDED = ({"seed": 1}, {"seed": 123456789}, {"shake": 1}, {"seed": 5, "shake": 2},
          {"seed": 9, "shake": 1, "hint_rounds": 0, "probing": False})
KEYS = ("conflicts", "decisions", "propagations", "line_runs", "restarts", "shakes")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_seeds_and_shakes(puzzle):
    assert_counts_equal_brute_force(puzzle, SEEDED)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_seeds_and_shakes(puzzle):
    assert_colour_solutions_equal_brute_force(puzzle, SEEDED[1:4])


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


def _shakes(conflicts: int, unit: int) -> int:
    """Shakes within `conflicts`: at unit, then unit * (1, 2, 1, 1, 2, 4, ...) more each."""
    at, k = unit, 0
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


def test_proofs_still_check_with_seeds_and_shakes(tmp_path):
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    result = build("lcg:seed=11,shake=1").prove(puzzle, Limits(max_solutions=None), tmp_path / "proof.drat")
    assert result.complete and result.count == 43 and result.stats.counters["shakes"] > 0
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
    assert not _refutes(puzzle, result.solutions[:-1], tmp_path / "proof.drat")


def test_a_colour_search_takes_the_seed():
    import random

    from nonolab.core import Palette, Puzzle, Solution
    rnd = random.Random(3)
    cells = [[rnd.randint(1, 2) if rnd.random() < 0.3 else 0 for _ in range(12)] for _ in range(12)]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(2))
    runs = {seed: counters(f"lcg:probing=off,seed={seed}", puzzle, 200, KEYS) for seed in range(4)}
    assert len({tuple(r.values()) for r in runs.values()}) >= 2, runs
    assert runs[2] == counters("lcg:probing=off,seed=2", puzzle, 200, KEYS)
