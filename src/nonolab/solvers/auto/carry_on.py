"""``auto`` with ``rival="native"``: one engine on native's remainder while native's own
search carries on (the older strategy, kept as an option); and with ``race=False``, one
engine after native's hand-off.

Native runs in the caller's thread; at its hand-off the engine starts in a thread of
its own (the compiled engines and the solver libraries release the GIL), and the first
of the two to finish tells the other to stop.
"""

from __future__ import annotations

import threading
from typing import Any

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Given, Limits, SolveResult, Budget, left
from nonolab.solvers.observer import HandOff
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import JOIN, STOPPED, Either

__all__ = ["one_engine", "race_native"]


def race_native(parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given) -> SolveResult:
    """Native runs on; past its budget it hands its remainder to the engine in a thread
    (the compiled engine and both CDCL libraries release the GIL, so each gets a
    core) and the first of the two to finish cancels the other."""
    stop_native: Any = threading.Event()
    stop_cdcl: Any = threading.Event()
    if limits.cancel is not None:  # the caller's own cancel stops both
        stop_native, stop_cdcl = Either(stop_native, limits.cancel), Either(stop_cdcl, limits.cancel)
    box: dict[str, Any] = {}

    def run_cdcl(remainder: Grid, part: Limits) -> None:
        try:
            box["result"] = parts.hand_over(parts.first, puzzle, remainder, given, part)
        except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller's thread
            box["error"] = exc
        finally:
            stop_native.set()

    def handoff(remainder: Grid) -> None:
        box["remainder"] = remainder
        # Not a daemon: a loser left behind (asked to stop, not awaited) is joined by
        # the interpreter at exit; a daemon thread still inside OR-tools when the
        # process ends aborts it ("terminate called without an active exception").
        box["thread"] = threading.Thread(target=run_cdcl, args=(remainder, left(limits, watch, stop_cdcl)),
                                         daemon=False, name="nonolab-auto-cdcl")
        box["thread"].start()

    native = parts.native(HandOff(handoff, **parts.hand_off_times()))
    try:
        first = native.solve(puzzle, left(limits, watch, stop_native), given)
    finally:
        stop_cdcl.set()
        if "thread" in box:
            # The CDCL part was told to stop; an answer does not wait on it for long,
            # and not at all once the caller's time is up.
            box["thread"].join(0 if watch.expired() else JOIN)
    if "error" in box:
        raise box["error"]
    if "result" not in box:  # no hand-off, or a CDCL part that is still stopping
        result = parts.native_answer(watch, first)
        if "thread" in box:  # handed over, but the answer is native's alone
            result.stats.counters.update(phase=f"native+{parts.first} race", winner="native",
                                         cdcl_left_running=True)
        return result
    second, handed = box["result"]
    result = parts.merged(puzzle, limits, watch, first, second, box["remainder"], handed,
                          f"native+{parts.first} race")
    # Whoever finished first stopped the other, which then reports INTERRUPTED.
    result.stats.counters["winner"] = ("native" if first.status not in STOPPED
                                       else parts.first if second.status not in STOPPED else None)
    return result


def one_engine(parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given) -> SolveResult:
    """``race=False`` (or no rival engine): native stops at its hand-off and the first
    engine alone searches its remainder."""
    handed = threading.Event()
    native = parts.native(HandOff(lambda remainder: handed.set(), **parts.hand_off_times()))
    stop_native = handed if limits.cancel is None else Either(handed, limits.cancel)
    first = native.solve(puzzle, left(limits, watch, stop_native), given)
    if first.status not in STOPPED or first.remainder is None or watch.expired() or watch.cancelled():
        # Native finished (or the user's own limit ran out): its answer is the answer.
        return parts.native_answer(watch, first)
    second, cells = parts.hand_over(parts.first, puzzle, first.remainder, given, left(limits, watch))
    return parts.merged(puzzle, limits, watch, first, second, first.remainder, cells, f"native+{parts.first}")
