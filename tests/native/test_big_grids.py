"""Large grids: the step log read in pieces under the clock, the second search style
held back where its copy of the grid would cost more than it saves (issues 24, 30)."""

from __future__ import annotations

import time

import pytest

from nonolab.core import Puzzle
from nonolab.harness.classify import grade
from nonolab.harness.uniqueness import Verdict
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.search import LOG_ROWS_PER_PIECE, SearchSpace, StepLogCut

# 300x300 blank: the root's line solves set every cell, 90,000 rows of log (more than a piece).
BLANK = Puzzle(rows=((),) * 300, columns=((),) * 300)
# Two solutions that only a guess separates (the search must branch).
AMBIGUOUS = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))


class _CountingEngine:
    """The engine, counting the log rows handed to Python."""

    def __init__(self, engine):
        self.engine, self.rows = engine, 0

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def step_block(self, *span):
        block = self.engine.step_block(*span)
        self.rows += len(block) // 24      # 24-byte LogRow structs
        return block


def test_the_whole_log_is_read_without_a_deadline():
    space = SearchSpace(BLANK, record_steps=True)
    assert space.run(None).complete
    steps = space.steps()
    assert sum(len(s.cells) for s in steps) == 300 * 300
    assert [s.source for s in steps[:2]] == [("row", 0), ("row", 1)]


def test_a_log_past_its_deadline_is_not_materialised():
    space = SearchSpace(BLANK, record_steps=True)
    space.run(None)
    counting = space._engine = _CountingEngine(space._engine)
    assert counting.step_rows() == 300 * 300 > LOG_ROWS_PER_PIECE
    with pytest.raises(StepLogCut):
        space.steps(deadline=time.perf_counter() - 1.0)
    assert counting.rows == LOG_ROWS_PER_PIECE       # one piece, then the clock said stop
    counting.rows = 0
    with pytest.raises(StepLogCut):
        space.steps(cancelled=lambda: True)
    assert counting.rows == LOG_ROWS_PER_PIECE


def test_a_cut_log_makes_the_solve_a_timeout_and_the_grade_not_graded(monkeypatch):
    def cut(self, deadline=None, cancelled=None):
        raise StepLogCut("cut for the test")

    monkeypatch.setattr(SearchSpace, "steps", cut)
    result = NativeSolver(record_steps=True).solve(BLANK, Limits(max_solutions=2, time_limit=60))
    assert result.status is Status.TIMEOUT and not result.solutions and not result.steps
    assert result.stats.counters["step_log_cut"] == 1
    graded = grade(BLANK, "native", time_limit=60)
    # Not "harder than line": the line grade was not refuted, its log was cut.
    assert graded.grade is None and graded.harder_than is None and graded.verdict is Verdict.TIMEOUT


def test_without_steps_the_log_is_never_read(monkeypatch):
    monkeypatch.setattr(SearchSpace, "steps", lambda *a, **k: pytest.fail("the step log was read"))
    assert NativeSolver().solve(BLANK, Limits(max_solutions=2)).status is Status.SOLVED


def test_the_second_style_waits_while_its_copy_would_cost_more(monkeypatch):
    import nonolab.solvers.native as native

    found = NativeSolver().solve(AMBIGUOUS, Limits(max_solutions=None))
    assert found.count == 2 and found.complete
    # A copy priced above a slice (as on a grid of 2.5 M cells and more) is not made
    # until the first style has searched that long: here it never is.
    monkeypatch.setattr(native, "_FORK_PER_CELL", 60.0)
    held = NativeSolver().solve(AMBIGUOUS, Limits(max_solutions=None))
    assert held.stats.counters["styles"] == 1
    assert held.count == 2 and held.complete and set(held.solutions) == set(found.solutions)


def test_probing_a_grid_beyond_the_flat_arrays():
    # 4100 x 4100 = 16.8 M cells, past the 2**24 up to which probing's per-cell scores
    # are one block (search/zeroed.hpp): beyond, pages made where a cell is written.
    # A 2x2 switch in the corner, every other line blank: probed, then two solutions.
    n = 4100
    clues = ((1,), (1,)) + ((),) * (n - 2)
    space = SearchSpace(Puzzle(rows=clues, columns=clues))
    outcome = space.run(None)
    assert outcome.complete and len(outcome.solutions) == 2
    assert space.counters()["probes"] >= 4  # each open cell's both values tried
    corners = {bytes(s[i * n + j] for i in (0, 1) for j in (0, 1)) for s in outcome.solutions}
    assert corners == {b"\x02\x01\x01\x02", b"\x01\x02\x02\x01"}


# 400x400 blank: 160,000 cells set by 400 line steps (the rows).
WIDE_BLANK = Puzzle(rows=((),) * 400, columns=((),) * 400)


def _blocks_held(make):
    """``make()``'s answer, and how many Python memory blocks (objects) it holds: a count
    of records, not of bytes or seconds."""
    import gc
    import sys

    make()     # the first call's imports and caches are not the answer's
    gc.collect()
    before = sys.getallocatedblocks()
    kept = make()
    gc.collect()
    return kept, sys.getallocatedblocks() - before


def test_a_step_log_is_a_few_records_a_step_not_one_a_cell():
    from nonolab.solvers.steps import CellRun

    def read():
        space = SearchSpace(WIDE_BLANK, record_steps=True)
        space.run(None)
        return space.steps()

    steps, held = _blocks_held(read)
    assert len(steps) == 400 and sum(len(s.cells) for s in steps) == 160_000
    assert all(isinstance(s.cells, CellRun) for s in steps)
    # One tuple a cell held 160,000 tuples (and their ints); a step is a few objects.
    assert held < 20 * len(steps) < 160_000 // 8


def test_explain_and_grade_hold_records_by_steps_not_cells(monkeypatch):
    import nonolab.harness.classify as classify
    from nonolab.harness.explanation import explain

    found, held = _blocks_held(lambda: explain(WIDE_BLANK, "native"))
    assert found.verdict is Verdict.UNIQUE and len(found.steps) == 400
    assert held < 20 * len(found.steps) + 2_000 < 160_000 // 8
    assert found.as_dict()["steps"][0]["cells"][:2] == [[0, 0, 0], [0, 1, 0]]   # the JSON still lists each cell

    seen = []
    counted = classify._count_steps
    monkeypatch.setattr(classify, "_count_steps", lambda steps: seen.append(_blocks_held(lambda: list(steps))[1])
                        or counted(steps))
    graded = grade(WIDE_BLANK, "native")
    assert graded.steps == {"line": 400} and seen and max(seen) < 20 * 400
