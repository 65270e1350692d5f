"""When ``auto`` starts its first learning engine beside native: from native's root.

A fixed delay (the earlier 50 ms) made a puzzle that lcg answers in 17 ms (Forever)
wait for it, and a shorter one built lcg's engine beside native's solve of line-solvable
grids, doubling their time.  What is known cheaply and early is how much line logic
alone settles: native tells its observer of the end of its root's line propagation
(``SearchObserver.stuck``, only when cells are left open; the duel passes it on to
:meth:`EarlyStart.on_stuck`).  So the engine

* never starts during native's root propagation (a line-solvable grid ends there, and
  the engine's own propagation would repeat it);
* starts at the propagation's end if it left more than ``early_open`` (10 %) of the
  cells open (the survey's hard eight: 67-100 %; Center 15 %, where native's search
  takes 38 ms and lcg's whole solve 2 ms);
* else ``early_after`` seconds after native's start (the smooth grids of the ``large``
  suite leave 0.02-0.1 % open and end in a short search: they never start it).

The root's end (``SearchObserver.rooted``, then :meth:`EarlyStart.on_root`) starts nothing: the share its probing leaves open is below
propagation's.  It only says that native now searches (``rooted``: auto's priorities).

>>> import threading
>>> from nonolab.core.grid import Grid
>>> rule = EarlyStart(early_open=0.5, early_after=0.05, wake=threading.Event())
>>> rule.wait(10.0) is None            # propagating: not before an event
True
>>> rule.on_stuck(Grid(2, 2))          # all four cells open
>>> rule.wait(0.0)
0.0
"""

from __future__ import annotations

import threading
from typing import Any

from nonolab.core.grid import UNKNOWN, Grid

__all__ = ["EarlyStart", "early_counters"]


class EarlyStart:
    """The rule above, fed and read by native's observer between its slices (``auto.duel``).

    Args:
        early_open: start at the propagation's end when more than this share of the
            cells is open.
        early_after: otherwise, seconds from native's start (once propagation is over).
        wake: set at each hook, so that the caller waiting on it looks again.
    """

    def __init__(self, early_open: float, early_after: float, wake: threading.Event):
        self.early_open = early_open
        self.early_after = early_after
        self.wake = wake
        self.stuck = False   # native's root propagation is over, cells open
        self.rooted = False  # native's root is over: it searches
        self.due = False     # start now
        self.open_share: float | None = None  # the share propagation left open

    def on_stuck(self, remainder: Grid) -> None:
        """Native's hook: its root's propagation ended with ``remainder``."""
        self.open_share = remainder.cells.count(UNKNOWN) / max(len(remainder.cells), 1)
        self.due = self.due or self.open_share > self.early_open
        self.stuck = True
        self.wake.set()

    def on_root(self, remainder: Grid) -> None:
        """Native's hook: its root is over and it begins to search."""
        self.stuck = self.rooted = True
        self.wake.set()

    def wait(self, since: float) -> float | None:
        """Seconds until the engine is due, ``since`` seconds after native's start: 0 now,
        ``None`` not before native's next hook."""
        if not self.stuck:
            return None
        if self.due:
            return 0.0
        return max(self.early_after - since, 0.0)


def early_counters(started: float, early_nice: int, native_niced: bool, native_paused: float) -> dict[str, Any]:
    """Counters for the result: when the early engine started (seconds from the call), its
    niceness then, whether native's thread was given ``native_nice``, and the seconds
    native paused for it (``early_yield``)."""
    return {"early_start": round(started, 6), "early_nice": early_nice, "native_niced": native_niced,
            "native_paused": native_paused}
