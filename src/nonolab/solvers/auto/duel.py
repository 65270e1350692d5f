"""``auto``'s default strategy: native's budget, then two engines racing on its remainder.

Native runs in the caller's own thread: starting a thread for it and waking the caller
at its end cost 0.25-0.3 ms on every solve, eight times what native spends on a small
line-solvable puzzle (benchmarks/RESULTS.md).  Everything that happens during native's
search is done by native's observer between its slices: the duel's state, :class:`Duel`,
is that observer (the end of the root's propagation, the root's end, an alarm at
``early_after`` seconds, the hand-off), and starts the early engine in a thread of its
own when :class:`~nonolab.solvers.auto.early.EarlyStart` says.  An engine's
answer sets the race's ``won`` (an :class:`~nonolab.solvers.stopping.Alarm`), which
interrupts native's compiled core inside its slice, so the answer is returned at once.

Only ``native_nice`` keeps native in a thread of its own (a niceness is per thread on
Linux, and the caller's must not change); the caller then waits for native's end or an
answer.
"""

from __future__ import annotations

import threading
from typing import Any

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Given, Limits, SolveResult, Stats, Status, Budget, left
from nonolab.solvers.observer import SearchObserver
from nonolab.solvers.auto.early import EarlyStart, early_counters
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import JOIN, STOPPED, Either, Race, lower_priority

__all__ = ["Duel", "duel"]


def duel(parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given) -> SolveResult:
    """Native's budget, then the two engines on its remainder, each in a thread; the
    first to answer wins and the other is told to stop and left behind, not awaited.
    With ``early`` the first engine starts on the bare puzzle beside native's budget,
    when :class:`EarlyStart` says (an answer from it stops native).  A part that fails
    leaves the race to the other; if no part answers and one failed, its error is
    raised."""
    state = Duel(parts, puzzle, limits, watch, given)
    with state.race:   # (an exception leaving the duel, Ctrl-C in a wait included, stops the engines started)
        state.run_native()
        return state.answer()


class Duel(SearchObserver):
    """One duel: native's part, the race of the two engines, and what the answer reports.

    It is native's observer (:class:`~nonolab.solvers.observer.SearchObserver`): with
    ``early`` it follows native's root (``stuck``, ``rooted``) and its ``early_after``
    alarm to start the first engine beside native; its hand-off (``native_budget``,
    ``handoff_by``) stops native, and the engines take over from native's remainder.
    """

    def __init__(self, parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given):
        schedule = parts.schedule
        early = schedule.early
        super().__init__(follows_propagation=early, follows_root=early,
                         alarm_after=schedule.early_after if early else None, **parts.hand_off_times())
        self.parts, self.puzzle, self.limits, self.watch, self.given = parts, puzzle, limits, watch, given
        # Set by every event a waiting caller acts on (native's end, a part's end, a report).
        self.wake = threading.Event()
        self.race = Race(lambda got: got[0].status not in STOPPED, limits.cancel, self.wake)
        self.blank = Grid(puzzle.height, puzzle.width)
        self.rule = EarlyStart(schedule.early_open, schedule.early_after, self.wake)
        # Priorities follow the likely winner under contention: native while its root
        # runs, the early engine once native searches (see early_nice, native_nice).
        # Taken under one lock: the root may end while the engine starts.
        self.priorities = threading.Lock()
        self.handed = threading.Event()        # native's hand-off is due: it stops
        self.told = threading.Event()          # a waiting caller gave up on native (Ctrl-C)
        self.native_ended = threading.Event()
        self.native_thread: int | None = None  # native's thread (its niceness)
        self.native_began = 0.0                # when native started, seconds from the call
        self.native_result: SolveResult | None = None
        self.native_error: BaseException | None = None
        self.first_started: float | None = None  # when the first engine started, seconds from the call
        self.early_nice = 0                    # the first engine's niceness when it started early
        self.native_niced = False              # native's thread was given native_nice
        self.native_paused = 0.0               # seconds native paused for the engine (early_yield)

    # Native's observer: called in native's thread, between its slices.

    def stuck(self, remainder: Grid) -> None:
        self.rule.on_stuck(remainder)
        self._start_if_due()

    def rooted(self, remainder: Grid) -> None:
        with self.priorities:
            self.rule.on_root(remainder)
            if 0 in self.race.names:
                self.native_niced = lower_priority(threading.get_native_id(), self.parts.schedule.native_nice)
        self._start_if_due()

    def alarm(self) -> None:
        self._start_if_due()

    def hand_off(self, remainder: Grid) -> None:
        self.handed.set()

    def _start_if_due(self) -> None:
        if 0 not in self.race.names and self.rule.wait(self.watch.elapsed() - self.native_began) == 0:
            self.launch(0, self.blank, False)
            wait = self.parts.schedule.early_yield
            if wait:  # native waits: the engine has the cores alone for a while
                until_limit = self.watch.left()
                seconds = wait if until_limit is None else max(min(wait, until_limit), 0.0)
                self.native_paused = round(self.race.pause(0, seconds), 6)

    # The parts.

    def launch(self, slot: int, remainder: Grid, fix: bool) -> None:
        """Start engine ``slot`` (0 the first, 1 the rival) on ``remainder``."""
        parts, schedule = self.parts, self.parts.schedule
        spec = parts.engines[slot]
        nice = schedule.rival_nice if slot else 0
        with self.priorities:
            if slot == 0:
                self.first_started = self.watch.elapsed()
                if self.rule.rooted:
                    self.native_niced = lower_priority(
                        None if self.native_ended.is_set() else self.native_thread, schedule.native_nice)
                else:
                    nice = self.early_nice = schedule.early_nice
            # The engine's memory, freed when this part's thread ends: after its answer is
            # in, not before (lcg: 2-3 ms after a 100 ms search).
            kept: list = []
            puzzle, given, limits, watch = self.puzzle, self.given, self.limits, self.watch
            self.race.start(slot, spec, lambda cancel: parts.hand_over(
                spec, puzzle, remainder, given, left(limits, watch, cancel), fix, kept), nice)

    def run_native(self) -> None:
        """Native's search, in the caller's thread (in one of its own with ``native_nice``),
        until it ends, hands off, or an engine answers; its error is raised here."""
        race, limits = self.race, self.limits
        native = self.parts.native(self)
        stop_native = Either(self.told, Either(self.handed, race.won if limits.cancel is None
                                               else Either(race.won, limits.cancel)))

        def search() -> None:
            self.native_thread = threading.get_native_id()
            self.native_began = self.watch.elapsed()
            try:
                self.native_result = native.solve(self.puzzle, left(limits, self.watch, stop_native), self.given)
            except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller's thread
                self.native_error = exc
            finally:
                self.native_ended.set()
                self.wake.set()

        if self.parts.schedule.native_nice:
            self._in_thread(search)
        else:
            search()
        if self.native_error is not None:
            race.stop()
            raise self.native_error

    def _in_thread(self, search: Any) -> None:
        """Run native in a thread of its own (its niceness its own) and wait for its end, or
        for an engine's answer (not for native then, unless the step log needs native's
        root steps)."""
        # Not a daemon: a native left behind ends at its next look at its cancel.
        threading.Thread(target=search, daemon=False, name="nonolab-auto-native").start()
        try:
            while True:
                self.wake.clear()  # before the checks: an event after them sets it again
                if self.native_ended.is_set() or (self.race.won.is_set() and not self.parts.record_steps):
                    return
                self.wake.wait(0.1)  # a bound only (Ctrl-C is seen between waits)
        except BaseException:
            self.told.set()
            self.race.stop()
            raise

    # The answer.

    def answer(self) -> SolveResult:
        """Native's answer, or the race's merged with it."""
        parts, race, watch = self.parts, self.race, self.watch
        # Native left behind (native_nice): it found nothing the winner needs (the winner
        # searched a superset of native's space, the whole puzzle, or reached max_solutions).
        first = self.native_result or SolveResult(Status.INTERRUPTED, (), False, Stats("native", watch.elapsed(), {}))
        handed = first.remainder if first.status in STOPPED else None  # (built only for a search that stopped)
        handed_over = handed is not None and not race.won.is_set() and not watch.expired() and not watch.cancelled()
        if first.status not in STOPPED:  # native finished first: its answer is the answer
            race.stop()
            result = parts.native_answer(watch, first)
            if race.names:  # the early engine had started: native won the race
                result.stats.counters.update(phase=f"native+{'|'.join(parts.engines)} race", winner="native")
            self._early_counters(result.stats.counters)
            return result
        if handed is not None and handed_over:
            self._hand_over(handed)
        winner, ended = race.wait(grace=JOIN)
        answers = [slot for slot in ended if not isinstance(race.results[slot], BaseException)]
        if not answers:
            failed = [race.results[slot] for slot in ended]
            if failed:
                raise failed[0]
            return parts.native_answer(watch, first)
        chosen = winner if winner is not None else max(answers, key=lambda k: race.results[k][0].count)
        second, handed_cells = race.results[chosen]
        remainder = first.remainder if first.remainder is not None else self.blank
        result = parts.merged(self.puzzle, self.limits, watch, first, second, remainder, handed_cells,
                              f"native+{'|'.join(parts.engines)} race", parts.engines[chosen])
        counters = result.stats.counters
        counters["winner"] = parts.engines[chosen] if winner is not None else None
        counters["early"] = parts.schedule.early
        self._early_counters(counters)
        for name in race.running(ended):
            counters[f"{name}_left_running"] = True
        return result

    def _hand_over(self, remainder: Grid) -> None:
        """Native handed off: the first engine starts on its remainder (unless it runs
        already), and the rival joins ``rival_after`` seconds in, unless the first engine
        answers before."""
        race, watch, parts = self.race, self.watch, self.parts
        if 0 not in race.names:
            self.launch(0, remainder, parts.fix_cells)
        while (watch.elapsed() - self.native_began < parts.schedule.rival_after and not race.won.wait(0.01)
               and not watch.expired() and not watch.cancelled()):
            pass
        if 1 not in race.names and not (race.won.is_set() or watch.expired() or watch.cancelled()):
            self.launch(1, remainder, parts.rival_fix_cells)

    def _early_counters(self, counters: dict[str, Any]) -> None:
        """When the first engine started (seconds from the call), if it did, and how."""
        if self.first_started is not None:
            counters.update(early_counters(self.first_started, self.early_nice, self.native_niced,
                                           self.native_paused))
