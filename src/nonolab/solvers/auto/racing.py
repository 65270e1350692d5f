"""Engines racing in threads: the first real answer wins, the others are told to stop.

Used by the ``auto`` strategy (:mod:`nonolab.solvers.auto`).  Each part runs in a
thread of its own (the compiled engines and the solver libraries release the GIL, or
run in a child process), gets its own stop event (joined with the caller's cancel),
and reports when it ends.  A winner's rivals are stopped and not awaited.

>>> race = Race(is_answer=lambda result: True)
>>> race.start(0, "quick", lambda cancel: ("answer", cancel.is_set()))
>>> race.wait(grace=0.1)
(0, [0])
>>> race.results[0]
('answer', False)
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from typing import Any, Callable

from nonolab.solvers.base import Status
from nonolab.solvers.stopping import Alarm, when_set

__all__ = ["JOIN", "STOPPED", "Either", "Race", "lower_priority"]

# The statuses of a search that stopped before its end: not an answer in a race.
STOPPED = (Status.TIMEOUT, Status.INTERRUPTED)
# How long the answer waits for the other part of a race once native has stopped: a
# CDCL part that finished first has already stored its answer and is ending; a loser
# is asked to stop and left behind, not awaited (CP-SAT may take 0.2-0.45 s to stop).
JOIN = 0.1


def lower_priority(thread_id: int | None, nice: int) -> bool:
    """Give one thread of this process a niceness of at least ``nice`` (0..19).

    Linux schedules each thread as a task with a niceness of its own
    (``threading.get_native_id()`` names it; threads it starts inherit it), so one part
    of a race can yield its core to another part, and to other processes, when the
    cores are oversubscribed, and lose nothing when they are not.  Elsewhere (or at 0)
    nothing changes.  Returns whether the thread's niceness is now at least ``nice``.
    """
    if not nice or thread_id is None or not sys.platform.startswith("linux"):
        return False
    try:
        if os.getpriority(os.PRIO_PROCESS, thread_id) < nice:
            os.setpriority(os.PRIO_PROCESS, thread_id, nice)
    except OSError:  # the thread has ended meanwhile
        return False
    return True


class Either:
    """An event that is set when its own flag or a caller's cancel is."""

    def __init__(self, own: Any, other: Any):   # (an Event, or what stands for one: solo._Won)
        self.own, self.other = own, other

    def set(self) -> None:
        self.own.set()

    def is_set(self) -> bool:
        return self.own.is_set() or self.other.is_set()

    def on_set(self, call: Callable[[], None]) -> Callable[[], None]:
        """Subscribe ``call`` to whichever of the two says when it is set
        (:func:`~nonolab.solvers.stopping.when_set`); returns the unsubscribe."""
        undo = (when_set(self.own, call), when_set(self.other, call))

        def unsubscribe() -> None:
            for each in undo:
                each()
        return unsubscribe


class Race:
    """Parts started one by one (``start``), awaited together (``wait``).

    Args:
        is_answer: whether a part's result is an answer (not a search stopped early).
        cancel: the caller's cancel (an object with ``is_set()``), passed to every part
            beside its own stop event; ``None`` for none.
        wake: an event set whenever a part ends (the caller waits on it instead of
            polling: an answer is returned at once); ``None`` for none.

    ``won`` (an :class:`~nonolab.solvers.stopping.Alarm`) is set as soon as a part ends
    with an answer, so that work outside the race (native's budget) can stop too, at
    once when it subscribed its interrupt.
    """

    def __init__(self, is_answer: Callable[[Any], bool], cancel: Any = None,
                 wake: threading.Event | None = None):
        self.cancel = cancel
        self.wake = wake
        self._is_answer = is_answer
        self.results: dict[int, Any] = {}       # slot -> the part's return value or exception
        self.names: dict[int, str] = {}
        self.won = Alarm()
        self._stops: dict[int, threading.Event] = {}
        self._done: dict[int, threading.Event] = {}
        self._ended: queue.SimpleQueue = queue.SimpleQueue()  # in C: a tenth of Queue's cost

    def __enter__(self) -> "Race":
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        """Leaving the block by an exception (Ctrl-C in the waiting thread included) tells
        every part started to stop: none is left searching for nobody."""
        if kind is not None:
            self.stop()

    def start(self, slot: int, name: str, call: Callable[[Any], Any], nice: int = 0) -> None:
        """Run ``call(cancel)`` in a thread named ``nonolab-auto-NAME``, ``nice`` steps
        below the caller's priority (see :func:`lower_priority`; the threads an engine
        starts inherit it)."""
        stop = Alarm()  # an engine that subscribes its interrupt stops inside its slice
        self._stops[slot] = stop
        self.names[slot] = name
        done = self._done[slot] = threading.Event()
        cancel: Any = stop if self.cancel is None else Either(stop, self.cancel)

        def run() -> None:
            lower_priority(threading.get_native_id(), nice)
            try:
                self.results[slot] = call(cancel)
                if self._is_answer(self.results[slot]):
                    self.won.set()
            except BaseException as exc:  # noqa: BLE001 -- re-raised by the caller if no part answers
                self.results[slot] = exc
            finally:
                done.set()
                self._ended.put(slot)
                if self.wake is not None:
                    self.wake.set()

        # Not a daemon: a part left behind (told to stop, not awaited) is joined by the
        # interpreter at exit; a daemon thread still inside OR-tools when the process
        # ends aborts it ("terminate called without an active exception").
        threading.Thread(target=run, daemon=False, name=f"nonolab-auto-{name}").start()

    def pause(self, slot: int, seconds: float) -> float:
        """Block the calling thread until part ``slot`` ends (answer, stop or error) or
        ``seconds`` pass, whichever is first; returns the seconds waited.  A part told
        to stop (the caller's cancel included) ends soon, and so does the pause."""
        began = time.perf_counter()
        self._done[slot].wait(seconds)
        return time.perf_counter() - began

    def wait(self, grace: float) -> tuple[int | None, list[int]]:
        """Wait for the first part that answers; then stop the others.

        A part that ends without an answer (stopped at the caller's limit) gives the
        others ``grace`` seconds more, not more: they share its deadline.  A part that
        failed (raised) leaves the race to the others, awaited as before.
        Returns ``(winner or None, the slots that ended)``; every part is told to stop
        on the way out, Ctrl-C included.
        """
        ended: list[int] = []
        winner = None
        grace_end: float | None = None
        try:
            while len(ended) < len(self._stops):
                timeout = 0.05 if grace_end is None else max(grace_end - time.perf_counter(), 0.0)
                try:
                    slot = self._ended.get(timeout=timeout)
                except queue.Empty:
                    if grace_end is not None:
                        break
                    continue
                ended.append(slot)
                result = self.results[slot]
                if isinstance(result, BaseException):
                    continue  # a part that failed (could not be built, say) leaves the race to the others
                if self._is_answer(result):
                    winner = slot
                    break
                if grace_end is None:
                    grace_end = time.perf_counter() + grace
        finally:
            self.stop()
        return winner, ended

    def stop(self) -> None:
        for stop in self._stops.values():
            stop.set()

    def running(self, ended: list[int]) -> list[str]:
        """The names of the parts that had not ended (left behind, told to stop)."""
        return [self.names[slot] for slot in self._stops if slot not in ended]
