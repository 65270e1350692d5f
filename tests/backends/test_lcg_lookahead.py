"""lcg's ``lookahead`` (decisions near the root chosen by probing a few active cells, a failed
probe learned; ``lookahead.cpp``).

The contract, property and wall suites run the declared variant ``lookahead=4``; here: counts
against brute force (black and white, colour) with the lookahead at every decision level and at
the root only, the same solutions as the default search on larger puzzles, that it runs where it
is asked and nowhere else, that failed probes are learned from, determinism, and proofs that
still check.
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

# At the root only, at every level (a probe before every decision), with a seed, without the
# hints and root probing (so the lookahead meets every open cell).
LOOKING = ({"lookahead": 2}, {"lookahead": 8, "lookahead_levels": 10_000}, {"lookahead": 3, "seed": 4},
           {"lookahead": 5, "lookahead_levels": 3, "hint_rounds": 0, "probing": False})
KEYS = ("conflicts", "decisions", "propagations", "line_runs", "lookaheads", "lookahead_probes", "lookahead_failed")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_lookahead(puzzle):
    assert_counts_equal_brute_force(puzzle, LOOKING)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_lookahead(puzzle):
    assert_colour_solutions_equal_brute_force(puzzle, LOOKING)


@pytest.mark.parametrize("picture", range(4))
def test_larger_puzzles_give_the_same_solutions_with_lookahead(picture):
    puzzle = _picture(picture, 10)   # hundreds to thousands of solutions
    assert_solutions_equal_the_default(puzzle, LOOKING)


def test_the_lookahead_runs_where_asked_learns_from_failed_probes_and_is_deterministic():
    puzzle = _picture(1, 20)   # 201 conflicts to the first solution with the default search
    off = counters("lcg", puzzle, 50, KEYS)
    assert off["lookaheads"] == off["lookahead_probes"] == off["lookahead_failed"] == 0
    root = counters("lcg:lookahead=6,probing=off,hint_rounds=0", puzzle, 50, KEYS)
    deep = counters("lcg:lookahead=6,lookahead_levels=10000,probing=off,hint_rounds=0", puzzle, 50, KEYS)
    assert 0 < root["lookaheads"] < deep["lookaheads"] <= deep["decisions"]
    # Six candidates, two probes each, fewer only where one failed (and ended that lookahead).
    assert root["lookahead_probes"] <= 12 * root["lookaheads"]
    assert deep["lookahead_failed"] > 0
    assert deep == counters("lcg:lookahead=6,lookahead_levels=10000,probing=off,hint_rounds=0", puzzle, 50, KEYS)
    assert off != root


def test_proofs_still_check_with_lookahead(tmp_path):
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    spec = "lcg:lookahead=8,lookahead_levels=10000,probing=off,hint_rounds=0"
    result = build(spec).prove(puzzle, Limits(max_solutions=None), tmp_path / "proof.drat")
    assert result.complete and result.count == 43 and result.stats.counters["lookaheads"] > 0
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
    assert not _refutes(puzzle, result.solutions[:-1], tmp_path / "proof.drat")
