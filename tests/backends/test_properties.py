"""Property tests: every backend's (and variant's) exact count equals every other's, and brute force's.

Random pictures up to 8x8 at densities 0.2-0.8, and random clue sets that may be
unsatisfiable (row clues of one picture, column clues of another with as many
filled cells).  Each example runs every available backend, so the number of
(puzzle, backend) cases is examples x backends: CI runs well over 5,000.
"""

from __future__ import annotations

import math

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution, violations
from nonolab.core.violations import clues_of
from nonolab.errors import BackendUnavailable
from nonolab.solvers import build, specs
from nonolab.solvers.base import Capability, Limits, capabilities
from reference import count_by_rows, placements

SOLVERS, COUNTERS = [], []
for _spec in specs():
    try:
        _solver = build(_spec)
    except BackendUnavailable:
        continue
    # A model counter lists only a few solutions, and costs a process per count: it has a
    # property test of its own below, with fewer examples.
    (COUNTERS if Capability.MODEL_COUNT in capabilities(_solver) else SOLVERS).append((_spec, _solver))

BRUTE_FORCE_LIMIT = 20_000  # row-placement products we are willing to enumerate


@st.composite
def pictures(draw):
    h = draw(st.integers(1, 8))
    w = draw(st.integers(1, 8))
    density = draw(st.sampled_from((0.2, 0.35, 0.5, 0.65, 0.8)))
    cells = draw(st.lists(st.floats(0, 1), min_size=h * w, max_size=h * w))
    return Solution(tuple(tuple(int(cells[r * w + c] < density) for c in range(w)) for r in range(h)))


@st.composite
def clue_sets(draw):
    """Row clues of a picture, column clues of a shuffled copy: totals agree, a solution may not exist."""
    picture = draw(pictures())
    flat = picture.flat()
    shuffled = draw(st.permutations(flat))
    w = picture.width
    other = Solution(tuple(tuple(shuffled[r * w:(r + 1) * w]) for r in range(picture.height)))
    rows = tuple(clues_of(r) for r in picture)
    cols = tuple(clues_of(other.column(c)) for c in range(w))
    return Puzzle(rows=rows, columns=cols)


def _brute_force(puzzle: Puzzle) -> int | None:
    size = math.prod(len(placements(r, puzzle.width)) for r in puzzle.rows)
    return count_by_rows(puzzle.rows, puzzle.columns) if size <= BRUTE_FORCE_LIMIT else None


# Every backend counts to this many solutions, no further: a backend that lists solutions by
# solving again from scratch with each one blocked (Kissat has no incremental interface) costs
# the square of the count, and one random 8x8 with tens of thousands of solutions once ran for
# 15 CPU minutes. At the cap every backend must agree that there are at least that many
# (a backend may stop there or prove there are no more).
COUNT_CAP = 2_000


def _counts_agree(puzzle: Puzzle, must_have: Solution | None = None) -> None:
    counts = {}
    for spec, solver in SOLVERS:
        result = solver.solve(puzzle, Limits(max_solutions=COUNT_CAP))
        assert result.complete or result.count == COUNT_CAP, (spec, result.count, result.complete)
        for s in result.solutions:
            assert violations(puzzle, s) == []
        if must_have is not None and result.complete:
            assert must_have in result.solutions, spec
        counts[spec] = result.count if result.count < COUNT_CAP else f"at least {COUNT_CAP}"
    assert len(set(counts.values())) == 1, counts
    expected = _brute_force(puzzle)
    if expected is not None:
        cut = expected if expected < COUNT_CAP else f"at least {COUNT_CAP}"
        assert set(counts.values()) == {cut}, (counts, expected)


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures())
def test_clues_of_a_picture_count_equally_and_include_it(picture):
    _counts_agree(Puzzle.from_solution(picture), must_have=picture)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clue_sets())
def test_random_clue_sets_count_equally(puzzle):
    _counts_agree(puzzle)


@pytest.mark.skipif(not COUNTERS, reason="no model counter installed (pip install 'nonolab[sharpsat]')")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(pictures().map(Puzzle.from_solution), clue_sets()))
def test_a_model_counter_counts_as_brute_force_and_native_do(puzzle):
    reference = build("native").solve(puzzle, Limits(max_solutions=None)).count
    expected = _brute_force(puzzle)
    for spec, counter in COUNTERS:
        result = counter.solve(puzzle, Limits(max_solutions=None))
        assert result.complete and result.count == reference, (spec, result.count, reference)
        assert expected is None or result.count == expected, (spec, result.count, expected)
        assert all(violations(puzzle, s) == [] for s in result.solutions)
