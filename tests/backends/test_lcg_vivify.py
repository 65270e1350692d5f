"""lcg's learned-clause vivification (``vivify=N``, ``vivify_effort``; ``vivify.cpp``): every N
conflicts a restart, then learned clauses shortened at the root by deciding their literals'
negations and propagating.

The contract, property and wall suites run the declared variant ``vivify=2``; here: counts
against brute force (black and white, colour) with a round after every conflict and a large
effort, proofs that still check (and fail once a shortened clause is tampered with),
determinism in slices, and the counters showing clauses shortened.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.solvers import build
from nonolab.solvers.base import Limits
from tests.backends.test_lcg import small_puzzles
from tests.backends.lcg_settings import (assert_colour_solutions_equal_brute_force, assert_counts_equal_brute_force,
                                         assert_solutions_equal_the_default)
from tests.backends.test_lcg_interleave import _picture
from tests.certify.test_proving import _refutes
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

# A round after every conflict (or every other), each allowed ten times the search's line runs.
BUSY = ({"vivify": 1, "vivify_effort": 1000}, {"vivify": 2, "vivify_effort": 1000, "hint_rounds": 0},
        {"vivify": 1, "vivify_effort": 1000, "phases": "saved", "probing": False})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
def test_counts_equal_brute_force_with_vivification(puzzle):
    assert_counts_equal_brute_force(puzzle, BUSY)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_colour_counts_equal_brute_force_with_vivification(puzzle):
    assert_colour_solutions_equal_brute_force(puzzle, BUSY[:2])


@pytest.mark.parametrize("seed", range(6))
def test_larger_puzzles_give_the_same_solutions_with_vivification(seed):
    # 10x10 sparse pictures: hundreds of conflicts counting them all, so hundreds of rounds.
    puzzle = _picture(seed, 10)
    assert_solutions_equal_the_default(puzzle, BUSY)


def test_vivification_shortens_clauses_and_is_off_by_default():
    puzzle = _picture(0, 10)   # 9,031 solutions: 423 conflicts to count them without vivification
    default = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None)).stats.counters
    assert default["vivify_rounds"] == default["vivify_tried"] == default["vivify_shortened"] == 0
    counters = lcg.LcgSolver(**BUSY[0]).solve(puzzle, Limits(max_solutions=None)).stats.counters
    assert counters["vivify_rounds"] >= 100 and counters["vivify_tried"] >= 100
    assert counters["vivify_shortened"] >= 20 and counters["vivify_removed"] >= counters["vivify_shortened"]
    assert counters["vivify_line_runs"] > 0
    # A round every 50 conflicts: about conflicts / 50 rounds (each after a restart).
    sparse = lcg.LcgSolver(vivify=50).solve(puzzle, Limits(max_solutions=None)).stats.counters
    assert sparse["vivify_rounds"] == sparse["conflicts"] // 50 and sparse["restarts"] >= sparse["vivify_rounds"]


def test_vivification_is_deterministic_and_slices_search_as_one_run():
    puzzle = _picture(0, 12)
    keys = ("conflicts", "decisions", "line_runs", "vivify_rounds", "vivify_shortened", "vivify_removed")
    engines = [lcg.LcgSolver(vivify=3)._build(puzzle, [], {}) for _ in range(2)]
    sliced, whole = [], []
    for _ in range(40):   # one in slices of 7 conflicts, one in a single run, each to its 40th solution
        outcome = 0
        while outcome == 0:
            outcome = engines[0].run(1000.0, 7)
        assert outcome == 1
        sliced.append(engines[0].solution())
        assert engines[1].run(1000.0) == 1
        whole.append(engines[1].solution())
    assert sliced == whole
    assert {k: engines[0].stats()[k] for k in keys} == {k: engines[1].stats()[k] for k in keys}
    assert engines[1].stats()["vivify_shortened"] > 0


def _shortened(lines: list[str]) -> list[int]:
    """The indices of the proof lines a vivification added: each a clause followed by the
    deletion of a longer clause holding it."""
    found = []
    for i in range(len(lines) - 1):
        if lines[i + 1].startswith("d ") and not lines[i].startswith("d "):
            added, deleted = set(lines[i].split()[:-1]), set(lines[i + 1].split()[1:-1])
            if added < deleted:
                found.append(i)
    return found


def test_proofs_still_check_with_vivification(tmp_path):
    puzzle = _picture(3, 10)   # 111 solutions, 26 conflicts
    result = build("lcg:vivify=1,vivify_effort=1000").prove(puzzle, Limits(max_solutions=None),
                                                             tmp_path / "proof.drat")
    counters = result.stats.counters
    assert result.complete and result.count == 111 and counters["vivify_shortened"] > 0
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
    assert not _refutes(puzzle, result.solutions[:-1], tmp_path / "proof.drat")
    # Each shortened clause is written, then the clause it replaces deleted.
    lines = (tmp_path / "proof.drat").read_text().splitlines()
    shortened = _shortened(lines)
    assert len(shortened) == counters["vivify_shortened"]
    # Tampered: the first shortened clause loses all but its first literal.
    at = shortened[0]
    lines[at] = lines[at].split()[0] + " 0"
    (tmp_path / "proof.drat").write_text("\n".join(lines) + "\n")
    assert not _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
