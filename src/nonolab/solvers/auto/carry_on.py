"""``auto`` with ``rival="native"``: one engine on native's remainder while native's own
search carries on (the older strategy, kept as an option).

Native runs in the caller's thread; at its hand-off the engine starts in a thread of
its own (the compiled engines and the solver libraries release the GIL), and the first
of the two to finish tells the other to stop.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Given, Limits, SolveResult, Budget, left
from nonolab.solvers.auto.racing import JOIN, STOPPED, Either

if TYPE_CHECKING:
    from nonolab.solvers.auto import AutoSolver

__all__ = ["race_native"]


def race_native(auto: "AutoSolver", puzzle: Puzzle, limits: Limits, watch: Budget, budget: float,
                given: Given) -> SolveResult:
    """Native runs on; past ``budget`` it hands its remainder to CDCL in a thread
    (the compiled engine and both CDCL libraries release the GIL, so each gets a
    core) and the first of the two to finish cancels the other."""
    stop_native: Any = threading.Event()
    stop_cdcl: Any = threading.Event()
    if limits.cancel is not None:  # the caller's own cancel stops both
        stop_native, stop_cdcl = Either(stop_native, limits.cancel), Either(stop_cdcl, limits.cancel)
    box: dict[str, Any] = {}

    def run_cdcl(remainder: Grid, part: Limits) -> None:
        try:
            box["result"] = auto._cdcl(auto.cdcl, puzzle, remainder, given, part)
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

    native = auto._native(**auto._handoff(budget, handoff))
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
        result = SolveResult(first.status, first.solutions, first.complete,
                             auto._stats(watch, "native", first, None, {}), first.steps, first.remainder)
        if "thread" in box:  # handed over, but the answer is native's alone
            result.stats.counters.update(phase=f"native+{auto.cdcl} race", winner="native",
                                         cdcl_left_running=True)
        return result
    second, handed = box["result"]
    result = auto._merge(puzzle, limits, watch, first, second, box["remainder"], handed,
                         f"native+{auto.cdcl} race")
    # Whoever finished first stopped the other, which then reports INTERRUPTED.
    result.stats.counters["winner"] = ("native" if first.status not in STOPPED
                                       else auto.cdcl if second.status not in STOPPED else None)
    return result
