"""The clock of the whole command: ``--time-limit`` counts from the moment the command starts.

Loading the file, building a model, loading a compiled engine and every step of a
command share one budget: each library call gets what is left (:func:`left`), so the
command ends within its limit however its time is spent.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from nonolab.cli.interrupt import CANCEL

if TYPE_CHECKING:
    from nonolab.solvers import Budget, Limits

_started = [time.perf_counter()]


def start() -> None:
    """Start the command's clock (the CLI calls it before parsing a command's arguments)."""
    _started[0] = time.perf_counter()


def elapsed() -> float:
    return time.perf_counter() - _started[0]


def budget(time_limit: float | None) -> Budget:
    """The command's :class:`~nonolab.solvers.Budget`: ``time_limit`` seconds from the
    command's start (``None``: no limit), and the interrupt's cancel."""
    from nonolab.solvers import Budget   # here: the registry loads only when a command needs it

    return Budget(time_limit, CANCEL, _started[0])


def left(time_limit: float | None) -> float | None:
    """The time limit for one library call: what is left of ``time_limit`` seconds since
    the command started (at least a token millisecond: it then times out at once; ``None``: no limit).

    >>> start(); left(None), 0 < left(5.0) <= 5.0
    (None, True)
    """
    return budget(time_limit).time_limit()


def limits(max_solutions: int | None, time_limit: float | None) -> Limits:
    """``Limits`` for one search: what is left of the command's time, and the interrupt's cancel."""
    return budget(time_limit).limits(max_solutions)
