"""A repair under a time limit ends within it, however long a step on the whole picture takes.

A step on the picture (its puzzle's clues, the line logic's open cells, a delta) costs
time in proportion to the cells: a second or more at 10,000x10,000.  The clock here is
one the test moves: it stands still except while the injected slow step runs, so the
test is about which steps the repair starts, never about how fast this machine is.
"""

from __future__ import annotations

import pytest
from clocks import StillClock

from nonolab.core import Puzzle, Solution
from nonolab.harness import _repair_search
from nonolab.harness.repair import repair

SWITCH = Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))   # two solutions: a 2x2 switch


def _slow_puzzle_of(monkeypatch, clock: StillClock, seconds: float) -> list[float]:
    """Each puzzle of a picture takes ``seconds`` on ``clock``; returns when each one ended."""
    real = _repair_search.puzzle_of
    ended: list[float] = []

    def slow(*args, **kwargs):
        clock.spend(seconds)
        ended.append(clock.now)
        return real(*args, **kwargs)

    monkeypatch.setattr(_repair_search, "puzzle_of", slow)
    return ended


def test_no_step_on_the_picture_starts_when_it_would_end_past_the_limit(monkeypatch, clock):
    ended = _slow_puzzle_of(monkeypatch, clock, 3.0)
    start = clock.now
    result = repair(SWITCH, time_limit=10.0)
    # Unlimited, this repair builds six puzzles (18 s on this clock): the limit cut it.
    assert result.status == "timeout"
    assert len(ended) >= 2                  # it did start, and measured the step
    assert clock.now - start <= 10.0        # ... and started none it could not finish


def test_without_a_limit_the_slow_steps_all_run(monkeypatch, clock):
    ended = _slow_puzzle_of(monkeypatch, clock, 3.0)
    result = repair(SWITCH)
    assert result.status == "repaired" and result.best.unique
    assert len(ended) >= 4                  # what the limited run above had to leave out


def test_the_reserve_grows_with_the_cells_before_any_step_is_measured(monkeypatch, clock):
    # A 10,000x10,000 grid's first step is not measured yet: the reserve is scaled by its cells.
    search = _repair_search.Search(SWITCH, None, _repair_search.Budget(10.0), None)
    assert search.step == pytest.approx(_repair_search._STEP_PER_CELL * 4)
    big = Puzzle(rows=((1,),) + ((),) * 9999, columns=((1,),) + ((),) * 9999)
    huge = _repair_search.Search(big, None, _repair_search.Budget(1.0), None)
    assert huge.step == pytest.approx(1.5)    # 100 M cells: more than the second left ...
    with pytest.raises(_repair_search.OutOfTime):
        huge._tick()                          # ... so no step starts


def test_the_report_leaves_its_printing_time_a_cell_before_the_limit(monkeypatch, clock):
    # The parts (here the check) end before the limit by what the report does after them
    # a cell at a time (the pictures it prints): 5e-8 s a cell, 5 s at 10,000x10,000.
    from nonolab.harness import report as report_module

    given: list[float] = []
    real = report_module.check

    def recording(puzzle, solver, time_limit=None, **kwargs):
        given.append(time_limit)
        return real(puzzle, solver, time_limit, **kwargs)

    monkeypatch.setattr(report_module, "check", recording)
    big = Puzzle(rows=((1,),) + ((),) * 999, columns=((1,),) + ((),) * 999)
    report_module.report(big, "native", time_limit=10.0, repair=False)
    assert given == [pytest.approx(10.0 - report_module._TAIL_PER_CELL * 1_000_000)]
    report_module.report(SWITCH, "native", time_limit=10.0, repair=False)
    assert given[1] == pytest.approx(10.0, abs=1e-6)   # four cells: nothing to speak of
