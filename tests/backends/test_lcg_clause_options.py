"""lcg's clause options: line binaries (``line_binaries=on``: each line's two-cell
implications kept as clauses before the search) and tier 2 (``tier2=N``: learned clauses of
LBD up to N used since the last reduction survive it).  They may change the search, never
a count (nor a proof: tests/certify/test_proving.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.formats import load
from nonolab.solvers.base import Limits, Status
from reference import count_by_rows, n_dom

try:
    from nonolab.solvers import lcg
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@st.composite
def pictures(draw):
    """A random picture of at most 5x5 and its puzzle."""
    h = draw(st.integers(1, 5))
    w = draw(st.integers(1, 5))
    flat = draw(st.lists(st.integers(0, 1), min_size=h * w, max_size=h * w))
    picture = Solution.from_flat(flat, w)
    return Puzzle(rows=tuple(clues_of(r) for r in picture),
                  columns=tuple(clues_of(picture.column(c)) for c in range(w))), picture


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures())
def test_line_binaries_keep_counts_exact(case):
    puzzle, _ = case
    expected = count_by_rows(puzzle.rows, puzzle.columns)
    for options in ({"line_binaries": True}, {"line_binaries": True, "probing": False}, {"tier2": 6}):
        result = lcg.LcgSolver(**options).solve(puzzle, Limits(max_solutions=None))
        assert result.complete and result.count == expected and result.status is Status.SOLVED, options


def test_line_binaries_are_kept_and_met_by_the_search():
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    off = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    on = lcg.LcgSolver(line_binaries=True).solve(puzzle, Limits(max_solutions=None))
    assert off.stats.counters["line_binaries"] == 0 and on.stats.counters["line_binaries"] > 0
    assert on.complete and on.count == 43 and set(on.solutions) == set(off.solutions)
    assert on.stats.counters["propagations"] != off.stats.counters["propagations"]
    rows, cols = n_dom(6)
    assert lcg.LcgSolver(line_binaries=True).solve(Puzzle(rows=rows, columns=cols), Limits(2)).unique


def test_tier2_keeps_used_clauses_through_reductions():
    rows, cols = n_dom(10)   # unique; its proof takes thousands of conflicts, so reductions
    puzzle = Puzzle(rows=rows, columns=cols)
    off = lcg.LcgSolver().solve(puzzle, Limits(2))
    on = lcg.LcgSolver(tier2=6).solve(puzzle, Limits(2))
    assert off.unique and on.unique
    assert off.stats.counters["reductions"] > 0 and on.stats.counters["reductions"] > 0
    # The same search until the first reduction, another one after it.
    assert on.stats.counters["conflicts"] != off.stats.counters["conflicts"]
