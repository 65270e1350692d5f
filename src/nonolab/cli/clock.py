"""The clock of the whole command: ``--time-limit`` counts from the moment the command starts.

Loading the file, building a model, loading a compiled engine and every step of a
command share one budget: each library call gets what is left (:func:`left`), so the
command ends within its limit however its time is spent.
"""

from __future__ import annotations

import time

from nonolab.cli.interrupt import CANCEL

#: Below this, a call still gets a token budget (a limit must be positive) and times out at once.
_AT_ONCE = 1e-3
_started = [time.perf_counter()]


def start() -> None:
    """Start the command's clock (the CLI calls it before parsing a command's arguments)."""
    _started[0] = time.perf_counter()


def elapsed() -> float:
    return time.perf_counter() - _started[0]


def left(time_limit: float | None) -> float | None:
    """What is left of ``time_limit`` seconds since the command started (``None``: no limit).

    >>> start(); left(None), 0 < left(5.0) <= 5.0
    (None, True)
    """
    if time_limit is None:
        return None
    return max(time_limit - elapsed(), _AT_ONCE)


def limits(max_solutions: int | None, time_limit: float | None):
    """``Limits`` for one search: what is left of the command's time, and the interrupt's cancel."""
    from nonolab.solvers import Limits

    return Limits(max_solutions, left(time_limit), CANCEL)
