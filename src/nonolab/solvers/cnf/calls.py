"""How the CNF backend calls python-sat: within the clock, and so that python-sat's
signal handling cannot break the process.

:class:`Limited` makes each ``solve`` honour the deadline and the cancel (see the
notes of :mod:`.solver` on how each python-sat solver can be stopped); :func:`load_clauses`
gives a solver its clauses in chunks inside the clock.

When ``solve``, ``solve_limited`` or ``propagate`` is called from the main thread,
python-sat installs a SIGINT handler of its own for the call and turns Ctrl-C into
``pysolvers.error: Caught keyboard interrupt``; CaDiCaL is then left "in an invalid
state" and aborts the whole process on the next call (measured with python-sat
1.9.dev22).  python-sat decides by asking whether the calling thread is the main one
(``pysat._utils.MainThread.check``), so a call made from any other thread leaves
SIGINT to the program.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from nonolab.solvers.base import Budget

__all__ = ["Limited", "load_clauses", "off_main_thread"]


def off_main_thread(call: Callable[[], Any], abort: Callable[[], None]) -> Any:
    """``call()``, run in a helper thread when the caller is the main thread.

    python-sat installs its own SIGINT handler around a solve made from the main
    thread, and turns Ctrl-C into ``pysolvers.error``, after which CaDiCaL is left
    "in an invalid state" and aborts the process on the next call.  Run from another
    thread, python-sat leaves SIGINT alone: the caller's own handler (or Python's
    KeyboardInterrupt) sees it.  If the waiting caller is interrupted, ``abort()``
    stops the call, which is awaited before the exception goes on, so that the solver
    is never deleted while it runs.
    """
    if threading.current_thread() is not threading.main_thread():
        return call()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="nonolab-cnf-call", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except BaseException:
        abort()
        worker.join()
        raise
    if "error" in box:
        raise box["error"]
    return box.get("value")


class Limited:
    """Calls ``solve`` on the SAT solver so that the stopwatch's deadline is honoured.

    Returns True/False as the solver does, or None when the deadline stopped it.
    """

    def __init__(self, sat: Any, mode: str | None, watch: Budget):
        self.sat = sat
        # Always stoppable when the solver can be stopped (even without a deadline), so
        # that an interrupted caller can end the call: see off_main_thread.
        self.mode = mode
        self.watch = watch
        self.aborted = False
        self.budget = 100  # conflicts per slice in "budget" mode, adapted as we go
        self.calls = 0
        self.finished = threading.Event()
        self.timer: threading.Thread | None = None
        if self.mode == "interrupt":
            self.timer = threading.Thread(target=self._interrupt_when_expired, daemon=True)
            self.timer.start()

    def _interrupt_when_expired(self) -> None:
        while not self.finished.is_set():
            if self.watch.expired():
                self.sat.interrupt()
                return
            self.finished.wait(0.01)

    def close(self) -> None:
        # The watcher must be finished before the solver is deleted, or a late
        # interrupt() would reach freed memory.
        if self.timer is not None:
            self.finished.set()
            self.timer.join()

    def __call__(self, assumptions: list[int]) -> bool | None:
        self.calls += 1
        return off_main_thread(lambda: self._call(assumptions), self._abort)

    def _abort(self) -> None:
        """Stop the call running in the helper thread (the caller was interrupted)."""
        self.aborted = True
        if self.mode == "interrupt":
            self.sat.interrupt()

    def _call(self, assumptions: list[int]) -> bool | None:
        if self.mode is None:
            return self.sat.solve(assumptions=assumptions)
        if self.watch.expired():
            return None
        if self.mode == "interrupt":
            return self.sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
        return self._sliced(assumptions)

    def _sliced(self, assumptions: list[int]) -> bool | None:
        while True:
            deadline = self.watch.deadline
            remaining = float("inf") if deadline is None else deadline - time.perf_counter()
            if remaining <= 0 or self.watch.cancelled() or self.aborted:
                return None
            before = self.sat.accum_stats().get("conflicts", 0)
            start = time.perf_counter()
            self.sat.conf_budget(self.budget)  # CaDiCaL forgets the budget after each call
            result = self.sat.solve_limited(assumptions=assumptions)
            if result is not None:
                return result
            spent = max(time.perf_counter() - start, 1e-6)
            done = self.sat.accum_stats().get("conflicts", 0) - before
            # Slices of at most 50 ms (a quarter of what is left near the end) keep
            # the overshoot small; grow at most 2x per slice, shrink at once.
            target = min(0.05, max(remaining - spent, 0.0) / 4)  # (no deadline: 50 ms, to see a cancel)
            self.budget = max(50, min(2 * self.budget, int(done / spent * target)))


def load_clauses(sat: Any, clauses: list[list[int]], watch: Budget, chunk: int = 50_000) -> bool:
    """Give the solver its clauses in chunks, watching the clock between them (a million
    clauses take about half a second to load); False: the watch expired first."""
    for start in range(0, len(clauses), chunk):
        if watch.expired():
            return False
        sat.append_formula(clauses[start:start + chunk])
    return True
