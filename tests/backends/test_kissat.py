"""Kissat in the cnf backend: a killable child process, exact counts by re-solving.

The contract suite runs it as the variant ``cnf:solver=kissat404``; here, what is
particular to a one-shot solver: the count by one solve per solution, the deadline,
the cancel and Ctrl-C ending a solve in progress by killing the child (none is left
behind), and the generic session in place of an incremental one.
"""

from __future__ import annotations

import _thread
import os
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pysat.solvers")

from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers import get
from nonolab.solvers import OneShotSession
from nonolab.solvers.base import Given, Limits, Status
from nonolab.solvers.cnf import time_limit_mode
from nonolab.solvers.cnf.oneshot import _IDLE

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "webpbn-survey"
GETTYS = CORPUS / "webpbn-22336-gettys.non"  # Kissat needs about 40 s for it
needs_corpus = pytest.mark.skipif(not GETTYS.exists(), reason="../shared/corpus is not here")


def _kissat():
    return get("cnf", solver="kissat404")


def _children() -> set[int]:
    """The live child processes of this process (Linux /proc)."""
    found = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:   # a thread may end between the listing and the read
            text = (task / "children").read_text().split()
        except OSError:
            continue
        found.update(int(pid) for pid in text)
    alive = set()
    for pid in found:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def _idle_workers() -> set[int]:
    return {worker.child.pid for worker in _IDLE}


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")


def test_counts_exactly_with_one_solve_per_solution():
    result = _kissat().solve(Puzzle(rows=((1,),) * 5, columns=((1,),) * 5), Limits(max_solutions=None))
    assert result.complete and result.count == 120 and result.status is Status.SOLVED
    # 120 solutions, then the solve that proves there is no 121st.
    assert result.stats.counters["solve_calls"] == 121 and result.stats.counters["solver"] == "kissat404"
    assert time_limit_mode("kissat") == "kill"


def test_a_time_limit_inside_an_enumeration_keeps_what_was_found():
    # 12! solutions and a solve per solution: the limit comes inside the enumeration.  3 s
    # leave a loaded machine time to start the child and find some (0.5 s did not, once).
    result = _kissat().solve(Puzzle(rows=((1,),) * 12, columns=((1,),) * 12),
                             Limits(max_solutions=None, time_limit=3.0))
    assert result.status is Status.TIMEOUT and not result.complete and result.count > 0


@needs_corpus
@needs_proc
def test_a_time_limit_kills_a_solve_in_progress():
    before = _children() - _idle_workers()
    result = _kissat().solve(load(GETTYS), Limits(max_solutions=2, time_limit=1.0))
    assert result.status is Status.TIMEOUT and not result.complete and result.count == 0
    assert _children() - _idle_workers() <= before  # the killed child is gone, not left running


@needs_corpus
@needs_proc
def test_a_cancel_kills_a_solve_in_progress():
    before = _children() - _idle_workers()
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    result = _kissat().solve(load(GETTYS), Limits(max_solutions=2, cancel=cancel))
    assert result.status is Status.INTERRUPTED and not result.complete
    assert _children() - _idle_workers() <= before


@needs_corpus
@needs_proc
def test_ctrl_c_in_the_waiting_caller_kills_the_child():
    import signal

    before = _children() - _idle_workers()
    # Python's own SIGINT handler, whatever an earlier test (the CLI's) left installed:
    # interrupt_main runs the installed handler, and only this one raises KeyboardInterrupt.
    saved = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.5, _thread.interrupt_main)  # KeyboardInterrupt in this (the main) thread
        timer.start()
        with pytest.raises(KeyboardInterrupt):      # raised while the child solves: it is killed
            _kissat().solve(load(GETTYS), Limits(max_solutions=2))
    finally:
        signal.signal(signal.SIGINT, saved)
    assert _children() - _idle_workers() <= before


def test_a_finished_worker_is_reused_and_a_session_is_generic():
    solver = _kissat()
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    solver.solve(puzzle)
    idle = _idle_workers()
    assert idle  # kept for the next call
    assert solver.solve(puzzle, Limits(max_solutions=None)).count == 2
    assert _idle_workers() & idle
    with solver.session(puzzle) as session:
        assert isinstance(session, OneShotSession)
        assert session.solve(Limits(None), Given.of({(0, 0): 1})).count == 1


def _twenty_dom() -> Puzzle:
    from reference import n_dom

    rows, columns = n_dom(20)  # 41x41, unique: lcg and Kissat each need more than 20 s
    return Puzzle(rows=rows, columns=columns)


def _auto_with_kissat_rival(limits: Limits, path: str):
    """auto (Kissat its rival by default) on 20-Dom, on either path: lcg alone with
    Kissat joining at its first slice's end (``solo``: the budget is lcg's CPU time, which
    a loaded machine may not give it within the limit), or native first with the
    hand-off at 0.3 s (``native``); returns (result, seconds, the most Kissat children seen running at
    once during the solve)."""
    # (count_relay off: with it a count's rival is the seeded lcg until lcg has a solution,
    # which on 20-Dom comes after the limit, so Kissat would never start)
    options = ({"solo_budget": 0, "count_relay": False} if path == "solo"
               else {"solo_side": 0, "handoff_by": 0.3, "native_budget": 0})
    auto = get("auto", **options)
    assert auto.rival == "cnf:solver=kissat404"
    before = _children() - _idle_workers()
    seen = [0]
    done = threading.Event()

    def watch_children():
        while not done.is_set():
            seen[0] = max(seen[0], len(_children() - _idle_workers() - before))
            done.wait(0.05)

    watcher = threading.Thread(target=watch_children)
    watcher.start()
    try:
        result = auto.solve(_twenty_dom(), limits)
    finally:
        done.set()
        watcher.join()
    # The loser is told to stop, not awaited: its child is killed within the part's poll
    # (waited for here, up to a guard against a hang, not a speed check).
    deadline = time.perf_counter() + 60.0
    while _children() - _idle_workers() - before and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert not _children() - _idle_workers() - before, "a Kissat child was left running"
    return result, seen[0]


@needs_proc
@pytest.mark.parametrize("path", ["solo", "native"])
def test_auto_with_kissat_as_rival_holds_its_time_limit_and_leaves_no_child(path):
    result, running = _auto_with_kissat_rival(Limits(max_solutions=2, time_limit=2.5), path)
    assert running >= 1  # Kissat did race, in a child process
    assert result.status is Status.TIMEOUT and not result.complete


@needs_proc
@pytest.mark.parametrize("path", ["solo", "native"])
def test_auto_with_kissat_as_rival_stops_on_a_cancel_and_leaves_no_child(path):
    cancel = threading.Event()
    threading.Timer(2.0, cancel.set).start()
    result, running = _auto_with_kissat_rival(Limits(max_solutions=2, cancel=cancel), path)
    assert running >= 1
    assert result.status is Status.INTERRUPTED and not result.complete


def test_a_worker_kept_for_the_next_call_outlives_the_thread_that_started_it():
    # The child asks Linux to kill it when its parent dies (PR_SET_PDEATHSIG), and Linux
    # means the parent *thread*: a worker started by a race part's thread (auto's rival)
    # and kept idle died with that thread, under the next call that took it ("the
    # kissat404 worker died (exit code -9)", found by the wall's race tests).
    import subprocess

    puzzle = Puzzle(rows=((1,),) * 3, columns=((1,),) * 3)
    with_idle = list(_IDLE)
    _IDLE.clear()   # (so that the part below starts a worker of its own)
    try:
        part = threading.Thread(target=lambda: _kissat().solve(puzzle, Limits(max_solutions=None)))
        part.start()
        part.join()
        assert len(_IDLE) == 1   # kept for the next call
        with pytest.raises(subprocess.TimeoutExpired):   # alive after its thread ended
            _IDLE[0].child.wait(timeout=1.0)
        assert _kissat().solve(puzzle, Limits(max_solutions=None)).count == 6
    finally:
        _IDLE.extend(with_idle)
