"""lcg's mode switching and rephasing (``modes=N``, ``first_mode``, ``focused_decay``,
``focused_phases``, ``rephase=N``; ``policy.cpp``): one search taking turns of a focused and a stable mode,
its saved phases reset now and then.

The contract, property and wall suites run the declared variants ``modes=5`` and
``rephase=20``; here: counts against brute force (black and white, colour) with switches
and rephases at nearly every conflict, proofs that still check, determinism, and the
switches and rephases happening exactly where the policy says (in conflicts).
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Palette, Puzzle, Solution
from nonolab.formats import load
from nonolab.solvers import build
from nonolab.solvers.base import Limits
from tests.backends.test_lcg import small_puzzles
from tests.backends.lcg_settings import (assert_colour_solutions_equal_brute_force, assert_counts_equal_brute_force,
                                         assert_solutions_equal_the_default)
from tests.backends.test_lcg_interleave import _picture
from tests.certify.test_proving import PUZZLES, _refutes
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

# Turns of one conflict, then 2, 4...; a rephase after 1 conflict, then 2, 3... more.
BUSY = ({"modes": 1, "rephase": 1}, {"modes": 1, "first_mode": "stable", "focused_decay": 0.5},
        {"rephase": 2, "phases": "saved"}, {"modes": 3, "rephase": 1, "hint_rounds": 0},
        {"modes": 2, "focused_phases": "target"})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_modes_and_rephasing(puzzle):
    assert_counts_equal_brute_force(puzzle, BUSY)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_modes_and_rephasing(puzzle):
    assert_colour_solutions_equal_brute_force(puzzle, BUSY[:2])


@pytest.mark.parametrize("seed", range(6))
def test_larger_puzzles_give_the_same_solutions_with_modes_and_rephasing(seed):
    # 10x10 sparse pictures: hundreds of conflicts counting them all, so many turns and rephases.
    puzzle = _picture(seed, 10)
    assert_solutions_equal_the_default(puzzle, BUSY)


def _switches(conflicts: int, first: int) -> int:
    """Turns ended within `conflicts`: at first, 3 first, 7 first... (each turn twice the last)."""
    return int(math.log2(conflicts // first + 1)) if conflicts >= first else 0


def _rephases(conflicts: int, base: int) -> int:
    """Rephases within `conflicts`: at base, 3 base, 6 base... (the k-th at base k (k + 1) / 2)."""
    k = 0
    while base * (k + 1) * (k + 2) // 2 <= conflicts:
        k += 1
    return k


@pytest.mark.parametrize("modes, rephase", [(2, 3), (5, 0), (0, 4), (1, 1)])
def test_switches_and_rephases_happen_where_the_policy_says(modes, rephase):
    puzzle = _picture(1, 10)   # 1,184 solutions: 140-250 conflicts to count them
    result = lcg.LcgSolver(modes=modes, rephase=rephase).solve(puzzle, Limits(max_solutions=None))
    counters = result.stats.counters
    assert counters["conflicts"] > 100
    assert counters["mode_switches"] == (_switches(counters["conflicts"], modes) if modes else 0)
    assert counters["rephases"] == (_rephases(counters["conflicts"], rephase) if rephase else 0)
    assert counters["mode_switches"] >= (4 if modes else 0) and counters["rephases"] >= (4 if rephase else 0)


def test_off_by_default_and_switching_changes_the_search():
    puzzle = _picture(0, 10)   # 9,031 solutions
    default = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None)).stats.counters
    assert default["mode_switches"] == 0 and default["rephases"] == 0
    searches = {(k, v) for options in BUSY for k, v in options.items()}
    conflicts = {lcg.LcgSolver(**dict([kv])).solve(puzzle, Limits(max_solutions=None)).stats.counters["conflicts"]
                 for kv in searches if kv[0] in ("modes", "rephase")}
    assert conflicts - {default["conflicts"]}, "no policy changed the search"


def test_modes_and_rephasing_are_deterministic():
    puzzle = _picture(0, 12)
    keys = ("conflicts", "decisions", "line_runs", "restarts", "mode_switches", "rephases")
    runs = [build("lcg:modes=3,rephase=5").solve(puzzle, Limits(max_solutions=300)) for _ in range(2)]
    assert {k: runs[0].stats.counters[k] for k in keys} == {k: runs[1].stats.counters[k] for k in keys}
    assert runs[0].solutions == runs[1].solutions and runs[0].stats.counters["mode_switches"] >= 3


def test_proofs_still_check_with_modes_and_rephasing(tmp_path):
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    result = build("lcg:modes=1,rephase=1").prove(puzzle, Limits(max_solutions=None), tmp_path / "proof.drat")
    counters = result.stats.counters
    assert result.complete and result.count == 43 and counters["mode_switches"] > 0 and counters["rephases"] > 0
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
    assert not _refutes(puzzle, result.solutions[:-1], tmp_path / "proof.drat")


def test_a_colour_search_switches_too():
    rnd = random.Random(3)
    cells = [[rnd.randint(1, 2) if rnd.random() < 0.3 else 0 for _ in range(12)] for _ in range(12)]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(2))
    result = lcg.LcgSolver(probing=False, modes=2, rephase=2).solve(puzzle, Limits(max_solutions=200))
    counters = result.stats.counters
    assert result.count == 200
    assert counters["mode_switches"] == _switches(counters["conflicts"], 2) > 0
    assert counters["rephases"] == _rephases(counters["conflicts"], 2) > 0


INERT = {"first_mode": "stable", "focused_decay": 0.5, "focused_phases": "target"}


def test_the_mode_options_need_modes_and_are_refused_without_it():
    # They change nothing with modes off (below): lcg:first_mode=stable alone was the plain
    # lcg under another name.  Now it is refused, naming what it needs; with modes, taken.
    for key, value in INERT.items():
        with pytest.raises(Exception, match=f"option {key}={value} changes nothing while modes is off"):
            build(f"lcg:{key}={value}")
        assert getattr(build(f"lcg:modes=5,{key}={value}"), key) == value
    assert build("lcg:first_mode=focused").first_mode == "focused"       # the default: nothing to refuse
    with pytest.raises(Exception, match="interleave_ratio=1 changes nothing while interleave is off"):
        build("lcg:interleave_ratio=1")


def test_the_declared_needs_hold_the_mode_options_are_inert_without_modes():
    # What `needs="modes"` declares, held to the engine: set behind settle's back with modes
    # off, the search is the same conflict for conflict; with modes on, it is not.
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")

    def counters(solver) -> dict:
        result = solver.solve(puzzle, Limits(max_solutions=None))
        assert result.count == 43
        return {k: v for k, v in result.stats.counters.items() if "time" not in k}

    plain, inert = lcg.LcgSolver(), lcg.LcgSolver()
    vars(inert).update(INERT)
    assert counters(inert) == counters(plain) and counters(plain)["conflicts"] > 0
    assert counters(lcg.LcgSolver(modes=1, **INERT)) != counters(lcg.LcgSolver(modes=1))
