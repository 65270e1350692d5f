"""When auto's first engine starts (nonolab.solvers.auto.early) and who yields the core.

The rule reads native's root: never during its line propagation, at its end when it left
most cells open, else ``early_after`` seconds in.  Stand-in natives call the
hooks in a chosen order, so the tests say which part answered and when the engine
started without timing anything.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest

from nonolab.core import Puzzle
from nonolab.core.grid import Grid
from nonolab.formats import load
from nonolab.solvers import get
from nonolab.solvers.auto import AutoSolver
from nonolab.solvers.auto.early import EarlyStart
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import lower_priority
from nonolab.solvers.base import Limits, SolveResult, Stats, Status
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.observer import SearchObserver

LINUX = sys.platform.startswith("linux")


def test_the_rule_never_starts_during_propagation_and_reads_the_open_share():
    wake = threading.Event()
    rule = EarlyStart(early_open=0.5, early_after=0.05, wake=wake)
    assert rule.wait(100.0) is None and not wake.is_set()  # propagating: whatever the clock says
    few_open = Grid(2, 2, bytes([1, 2, 2, 3]))            # one cell of four open
    rule.on_stuck(few_open)
    assert wake.is_set() and rule.open_share == 0.25
    assert rule.wait(0.01) == pytest.approx(0.04)         # early_after from native's start
    assert rule.wait(0.2) == 0.0
    rule.on_root(few_open)                                # native searches: the clock still rules
    assert rule.wait(0.01) == pytest.approx(0.04) and rule.rooted
    most_open = EarlyStart(early_open=0.5, early_after=60, wake=threading.Event())
    most_open.on_stuck(Grid(2, 2, bytes([3, 3, 3, 2])))
    assert most_open.wait(0.0) == 0.0 and not most_open.rooted


def test_native_reports_the_end_of_its_root_propagation_only_when_cells_stay_open():
    puzzle = load("puzzles/hakank/nonunique.non")
    events: list[tuple[str, Grid]] = []

    class Watching(SearchObserver):
        def stuck(self, remainder):
            events.append(("stuck", remainder))

        def rooted(self, remainder):
            events.append(("root", remainder))

    NativeSolver(observer=Watching(follows_propagation=True, follows_root=True)).solve(
        puzzle, Limits(max_solutions=None))
    assert [name for name, _ in events] == ["stuck", "root"]
    # At least what propagation alone proves (the engine's first probes run
    # before it pauses), and at most what the root's probing proves (on this small
    # puzzle the bit-set line solves may finish the root's probing inside that first
    # 0.5 ms slice: then the two grids are the same).
    space = NativeSolver(probing="none")._space(puzzle, None)
    space.run(None, None, 1)
    stuck, root = bytes(events[0][1].cells), bytes(events[1][1].cells)
    assert all(known == 3 or seen == known for seen, known in zip(stuck, space.remainder()))
    assert all(state == 3 or root[i] == state for i, state in enumerate(stuck))
    assert stuck.count(3) >= root.count(3)
    del events[:]
    result = NativeSolver(observer=Watching(follows_propagation=True)).solve(
        load("puzzles/webpbn/webpbn-00529-swing.non"))
    assert result.unique and events == []


def test_a_line_solvable_grid_never_starts_the_engine_even_with_no_delay():
    result = get("auto", early_after=0, early_open=0, solo_side=0).solve(load("puzzles/webpbn/webpbn-00529-swing.non"))
    counters = result.stats.counters
    assert result.unique and counters["phase"] == "native" and "early_start" not in counters


def test_no_engine_starts_while_native_propagates_whatever_the_delay(monkeypatch):
    result = _with_stand_in(monkeypatch, ["pause", "settled"], early_after=0, early_open=0)
    assert _StandIn.seen["answered_before_root"] is False
    assert result.stats.counters["phase"] == "native" and "early_start" not in result.stats.counters


class _StandIn:
    """A native that tells auto's observer what it is told to, then waits for its cancel
    (an engine's answer) and says it was interrupted; ``seen`` records what it saw
    meanwhile."""

    name = "native"
    script: list[str] = []
    seen: dict[str, object] = {}
    ended = threading.Event()  # auto does not await native once an engine has answered

    def __init__(self, observer=None):
        self.observer = observer

    def solve(self, puzzle, limits, given=None):
        if self.observer is None:  # the warm-up
            return SolveResult(Status.SOLVED, (), True, Stats("native", 0.0, {}))
        h, w = puzzle.height, puzzle.width
        self.seen["thread"] = threading.get_ident()
        began = time.monotonic()
        for step in self.script:
            if step == "stuck-all-open":
                self.observer.stuck(Grid(h, w))
                self.seen["answered_when_stuck_returned"] = limits.cancel.is_set()
            elif step == "stuck-few-open":
                self.observer.stuck(Grid(h, w, bytes([3] + [1] * (h * w - 1))))
            elif step == "pause":  # the engine must not start here
                self.seen["answered_before_root"] = _wait(limits.cancel, 0.5)
            elif step == "root":
                self.observer.rooted(Grid(h, w))
            elif step == "alarm":  # its time, between slices
                time.sleep(max(self.observer.alarm_after - (time.monotonic() - began), 0.0))
                self.observer.alarm()
            elif step == "settled":  # line propagation settled the puzzle
                self.ended.set()
                return SolveResult(Status.SOLVED, (), True, Stats("native", 0.0, {}))
        _wait(limits.cancel, 30)
        self.seen["niceness_at_end"] = _niceness()
        self.ended.set()
        return SolveResult(Status.INTERRUPTED, (), False, Stats("native", 0.0, {}))


def _wait(cancel, seconds: float) -> bool:
    """Whether ``cancel`` (an object with ``is_set``) was set within ``seconds``."""
    end = time.monotonic() + seconds
    while not cancel.is_set():
        if time.monotonic() >= end:
            return False
        time.sleep(0.005)
    return True


def _niceness() -> int | None:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) if LINUX else None


def _with_stand_in(monkeypatch, script: list[str], **options):
    monkeypatch.setattr(_StandIn, "script", script)
    monkeypatch.setattr(_StandIn, "seen", {})
    monkeypatch.setattr(_StandIn, "ended", threading.Event())
    monkeypatch.setattr(Parts, "native", lambda self, observer=None: _StandIn(observer))
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)  # 24 solutions: lcg counts them at once
    # (solo_side=0: a grid this small goes to lcg alone by default, auto.solo.)
    result = AutoSolver(solo_side=0, **options).solve(puzzle, Limits(max_solutions=None, time_limit=20))
    assert _StandIn.ended.wait(30)
    return result


def test_a_propagation_that_leaves_most_cells_open_starts_the_engine_then(monkeypatch):
    result = _with_stand_in(monkeypatch, ["stuck-all-open"], early_after=60, native_budget=60)
    counters = result.stats.counters
    assert counters["winner"] == "lcg" and "early_start" in counters
    assert result.complete and result.count == 24


def test_a_propagation_that_leaves_few_cells_open_waits_for_early_after(monkeypatch):
    result = _with_stand_in(monkeypatch, ["stuck-few-open", "root", "pause", "settled"], early_after=60,
                            native_budget=60)
    assert _StandIn.seen["answered_before_root"] is False  # no engine, root over or not
    assert result.stats.counters["phase"] == "native" and "early_start" not in result.stats.counters
    result = _with_stand_in(monkeypatch, ["stuck-few-open"], early_after=0, native_budget=60)
    assert result.stats.counters["winner"] == "lcg" and result.count == 24


@pytest.mark.skipif(not LINUX, reason="threads have their own niceness on Linux only")
def test_once_native_searches_beside_the_engine_it_yields_its_core(monkeypatch):
    base = _niceness()
    result = _with_stand_in(monkeypatch, ["stuck-few-open", "root"], early_after=0, native_budget=60,
                            native_nice=7)
    counters = result.stats.counters
    # The engine may answer before native's root ends (native is then left behind and
    # the counters are read before it is niced): native's own niceness is the proof.
    assert counters["winner"] == "lcg" and "native_niced" in counters and counters["early_nice"] == 0
    assert _StandIn.seen["niceness_at_end"] >= max(base, 7)
    assert _niceness() == base  # the caller's own thread keeps its priority


def test_without_a_niceness_native_keeps_its_priority(monkeypatch):
    base = _niceness()
    result = _with_stand_in(monkeypatch, ["stuck-few-open", "root"], early_after=0, native_budget=60,
                            native_nice=0)
    assert not result.stats.counters["native_niced"] and _StandIn.seen["niceness_at_end"] == base


@pytest.mark.skipif(not LINUX, reason="threads have their own niceness on Linux only")
def test_lower_priority_raises_one_threads_niceness_and_never_lowers_it():
    ready, done = threading.Event(), threading.Event()
    ids: list[int] = []

    def idle() -> None:
        ids.append(threading.get_native_id())
        ready.set()
        done.wait(10)

    thread = threading.Thread(target=idle)
    thread.start()
    ready.wait(10)
    base = os.getpriority(os.PRIO_PROCESS, ids[0])
    try:
        assert lower_priority(ids[0], base + 3)
        assert os.getpriority(os.PRIO_PROCESS, ids[0]) == base + 3
        assert lower_priority(ids[0], base + 1) and os.getpriority(os.PRIO_PROCESS, ids[0]) == base + 3
        assert not lower_priority(ids[0], 0) and not lower_priority(None, 5)
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == base
    finally:
        done.set()
        thread.join()


def test_the_alarm_starts_the_engine_early_after_seconds_in(monkeypatch):
    result = _with_stand_in(monkeypatch, ["stuck-few-open", "root", "alarm"], early_after=0.2, native_budget=60)
    counters = result.stats.counters
    assert counters["winner"] == "lcg" and result.count == 24 and counters["early_start"] >= 0.2


def test_native_runs_in_the_callers_thread_unless_it_takes_a_niceness(monkeypatch):
    """No thread to start and wake for native: 0.25 ms a solve (benchmarks/RESULTS.md)."""
    _with_stand_in(monkeypatch, ["stuck-all-open"], native_budget=60)
    assert _StandIn.seen["thread"] == threading.get_ident()
    _with_stand_in(monkeypatch, ["stuck-all-open"], native_budget=60, native_nice=3)
    assert _StandIn.seen["thread"] != threading.get_ident()


def test_native_pauses_for_early_yield_and_the_engines_answer_ends_the_pause(monkeypatch):
    """With ``early_yield`` the hook that starts the engine returns only when the engine
    has answered (long before the 30 s pause would end): the engine had the cores alone."""
    result = _with_stand_in(monkeypatch, ["stuck-all-open"], early_after=60, native_budget=60, early_yield=30)
    counters = result.stats.counters
    assert _StandIn.seen["answered_when_stuck_returned"] is True
    assert counters["winner"] == "lcg" and result.count == 24
    assert 0 < counters["native_paused"] < 30


def test_without_early_yield_native_does_not_pause(monkeypatch):
    result = _with_stand_in(monkeypatch, ["stuck-all-open"], early_after=60, native_budget=60, early_yield=0)
    assert result.stats.counters["native_paused"] == 0.0 and result.count == 24


def test_a_pause_ends_at_the_parts_end_or_after_its_seconds():
    from nonolab.solvers.auto.racing import Race
    race = Race(lambda result: True)
    race.start(0, "quick", lambda cancel: "answer")
    assert race.pause(0, 30) < 30  # the part ended: the pause with it
    race.start(1, "slow", lambda cancel: cancel.wait(30))
    waited = race.pause(1, 0.05)
    assert waited >= 0.05 and 1 not in race.results  # still running after its pause
    race.stop()
    race.wait(grace=5)
