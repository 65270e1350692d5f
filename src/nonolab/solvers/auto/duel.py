"""``auto``'s default strategy: native's budget, then two engines racing on its remainder.

Native runs in the caller's own thread: starting a thread for it and waking the caller
at its end cost 0.25-0.3 ms on every solve, eight times what native spends on a small
line-solvable puzzle (benchmarks/RESULTS.md).  Everything that happens during native's
search is done by native's own hooks, between its slices (``on_stuck``, ``on_root``,
and its ``alarm`` at ``early_after`` seconds): they start the early engine in a thread
of its own, when :class:`~nonolab.solvers.auto.early.EarlyStart` says.  An engine's
answer sets the race's ``won`` (an :class:`~nonolab.solvers.stopping.Alarm`), which
interrupts native's compiled core inside its slice, so the answer is returned at once.

Only ``native_nice`` keeps native in a thread of its own (a niceness is per thread on
Linux, and the caller's must not change); the caller then waits for native's end or an
answer.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Given, Limits, SolveResult, Stats, Status, Budget, left
from nonolab.solvers.auto.early import EarlyStart, early_counters
from nonolab.solvers.auto.racing import JOIN, STOPPED, Either, Race, lower_priority

if TYPE_CHECKING:
    from nonolab.solvers.auto import AutoSolver

__all__ = ["duel"]


def duel(auto: "AutoSolver", puzzle: Puzzle, limits: Limits, watch: Budget, budget: float,
         given: Given) -> SolveResult:
    """Native's budget, then the two engines on its remainder, each in a thread; the
    first to answer wins and the other is told to stop and left behind, not awaited.
    With ``early`` the first engine starts on the bare puzzle beside native's budget,
    when :class:`EarlyStart` says (an answer from it stops native).  A part that fails
    leaves the race to the other; if no part answers and one failed, its error is
    raised."""
    # Set by every event a waiting caller acts on (native's end, a part's end, a hook).
    wake = threading.Event()
    race = Race(lambda got: got[0].status not in STOPPED, limits.cancel, wake)
    blank = Grid(puzzle.height, puzzle.width)
    early_start: list[float] = []
    box: dict[str, Any] = {}
    rule = EarlyStart(auto.early_open, auto.early_after, wake)
    # Priorities follow the likely winner under contention: native while its root
    # runs, the early engine once native searches (see early_nice, native_nice).
    # Taken under one lock: the root may end while the engine starts.
    priorities = threading.Lock()
    native_ended = threading.Event()
    began: list[float] = []  # when native started, seconds from the call

    def launch(slot: int, remainder: Grid, fix: bool) -> None:
        spec = auto.engines[slot]
        nice = auto.rival_nice if slot else 0
        with priorities:
            if slot == 0:
                early_start.append(watch.elapsed())
                if rule.rooted:
                    box["native_niced"] = lower_priority(
                        None if native_ended.is_set() else box.get("thread_id"), auto.native_nice)
                else:
                    nice = box["early_nice"] = auto.early_nice
            # The engine's memory, freed when this part's thread ends: after its answer is
            # in, not before (lcg: 2-3 ms after a 100 ms search).
            kept: list = []
            race.start(slot, spec, lambda cancel: auto._cdcl(
                spec, puzzle, remainder, given, left(limits, watch, cancel), fix, kept), nice)

    def start_if_due() -> None:  # in native's thread, between its slices
        if 0 not in race.names and rule.wait(watch.elapsed() - began[0]) == 0:
            launch(0, blank, False)
            if auto.early_yield:  # native waits: the engine has the cores alone for a while
                until_limit = watch.left()
                seconds = auto.early_yield if until_limit is None else max(min(auto.early_yield, until_limit), 0.0)
                box["native_paused"] = round(race.pause(0, seconds), 6)

    def on_stuck(remainder: Grid) -> None:
        rule.on_stuck(remainder)
        start_if_due()

    def on_root(remainder: Grid) -> None:
        with priorities:
            rule.on_root(remainder)
            if 0 in race.names:
                box["native_niced"] = lower_priority(threading.get_native_id(), auto.native_nice)
        start_if_due()

    # Native stops at its hand-off: the engines take over from its remainder.
    handed = threading.Event()
    hooks: dict[str, Any] = ({"on_stuck": on_stuck, "on_root": on_root, "alarm": (auto.early_after, start_if_due)}
                             if auto.early else {})
    native = auto._native(**hooks, **auto._handoff(budget, lambda remainder: handed.set()))
    told = threading.Event()  # set when a waiting caller gives up on native (Ctrl-C)
    stop_native = Either(told, Either(handed, race.won if limits.cancel is None
                                      else Either(race.won, limits.cancel)))

    def run_native() -> None:
        box["thread_id"] = threading.get_native_id()
        began.append(watch.elapsed())
        try:
            box["result"] = native.solve(puzzle, left(limits, watch, stop_native), given)
        except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller's thread
            box["error"] = exc
        finally:
            native_ended.set()
            wake.set()

    if auto.native_nice:
        _in_thread(run_native, native_ended, race, wake, told, auto.record_steps)
    else:
        run_native()
    if "error" in box:
        race.stop()
        raise box["error"]
    # Native left behind (native_nice): it found nothing the winner needs (the winner
    # searched a superset of native's space, the whole puzzle, or reached max_solutions).
    first = box.get("result") or SolveResult(Status.INTERRUPTED, (), False, Stats("native", watch.elapsed(), {}))
    handed_over = (first.status in STOPPED and first.remainder is not None and not race.won.is_set()
                   and not watch.expired() and not watch.cancelled())
    if first.status not in STOPPED:  # native finished first: its answer is the answer
        race.stop()
        result = SolveResult(first.status, first.solutions, first.complete,
                             auto._stats(watch, "native", first, None, {}), first.steps)
        if race.names:  # the early engine had started: native won the race
            result.stats.counters.update(phase=f"native+{'|'.join(auto.engines)} race", winner="native")
        if early_start:
            result.stats.counters.update(early_counters(early_start, box))
        return result
    if handed_over:
        if 0 not in race.names:
            launch(0, first.remainder, auto.fix_cells)
        # The rival joins rival_after seconds in, unless the first engine answers before.
        while (watch.elapsed() - began[0] < auto.rival_after and not race.won.wait(0.01)
               and not watch.expired() and not watch.cancelled()):
            pass
        if 1 not in race.names and not (race.won.is_set() or watch.expired() or watch.cancelled()):
            launch(1, first.remainder, auto.rival_fix_cells)
    winner, ended = race.wait(grace=JOIN)
    answers = [slot for slot in ended if not isinstance(race.results[slot], BaseException)]
    if not answers:
        failed = [race.results[slot] for slot in ended]
        if failed:
            raise failed[0]
        return SolveResult(first.status, first.solutions, first.complete,
                           auto._stats(watch, "native", first, None, {}), first.steps, first.remainder)
    chosen = winner if winner is not None else max(answers, key=lambda k: race.results[k][0].count)
    second, handed_cells = race.results[chosen]
    remainder = first.remainder if first.remainder is not None else blank
    result = auto._merge(puzzle, limits, watch, first, second, remainder, handed_cells,
                         f"native+{'|'.join(auto.engines)} race", auto.engines[chosen])
    counters = result.stats.counters
    counters["winner"] = auto.engines[chosen] if winner is not None else None
    counters["early"] = auto.early
    if early_start:  # when the early engine started, seconds from the call
        counters.update(early_counters(early_start, box))
    for name in race.running(ended):
        counters[f"{name}_left_running"] = True
    return result


def _in_thread(run_native: Any, native_ended: threading.Event, race: Race, wake: threading.Event,
               told: threading.Event, await_native: bool) -> None:
    """Run native in a thread of its own (its niceness its own) and wait for its end, or
    for an engine's answer (not for native then, unless ``await_native``: the step log
    needs native's root steps)."""
    # Not a daemon: a native left behind ends at its next look at its cancel.
    threading.Thread(target=run_native, daemon=False, name="nonolab-auto-native").start()
    try:
        while True:
            wake.clear()  # before the checks: an event after them sets it again
            if native_ended.is_set() or (race.won.is_set() and not await_native):
                return
            wake.wait(0.1)  # a bound only (Ctrl-C is seen between waits)
    except BaseException:
        told.set()
        race.stop()
        raise
