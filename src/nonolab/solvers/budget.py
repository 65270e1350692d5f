"""What a piece of work may spend: its time (:class:`Budget`, the one answer to "how long may
this call take?", and :func:`left` for a part of a search) and the cores it may run on
(:func:`available_cores`).  The solver contract (:mod:`nonolab.solvers.base`) names them too.
"""

from __future__ import annotations

import time
from typing import Any

from nonolab.solvers.result import Limits, Status


class Budget:
    """The time a piece of work has left, the one answer to "how long may this call take?".

    A deadline ``time_limit`` seconds after ``start`` (``time.perf_counter()``, by default
    now; ``None``: no deadline) and a cancel (an object with ``is_set()``, or ``None``).
    :meth:`left` is what is left of it (a ``share`` of it); :meth:`time_limit` and
    :meth:`limits` what to give one call, never below :data:`AT_ONCE` (a limit must be
    positive: a call given that much times out at once).  A backend takes one per
    ``solve`` call (``Budget.of(limits)``), started when the call starts.

    >>> import threading; from nonolab.solvers.base import Budget
    >>> spent, stop = Budget(0.0), threading.Event()
    >>> spent.left(), spent.expired(), spent.time_limit(), spent.limits(2).time_limit
    (0.0, True, 0.001, 0.001)
    >>> free = Budget(None, stop)
    >>> free.left(0.5), free.expired(), free.limits(None, cancel=None).cancel is stop
    (None, False, True)
    >>> stop.set(); free.cancelled(), free.expired(), free.stopped_status().value
    (True, True, 'interrupted')
    >>> 0 < Budget(60.0).left(0.25) <= 15.0
    True
    """

    __slots__ = ("start", "deadline", "cancel")
    #: The least time limit a call is given: a limit must be positive, and this much ends it at once.
    AT_ONCE = 1e-3

    def __init__(self, time_limit: float | None = None, cancel: Any = None, start: float | None = None):
        self.start = time.perf_counter() if start is None else start
        self.deadline = None if time_limit is None else self.start + time_limit
        self.cancel = cancel

    @classmethod
    def of(cls, limits: "Limits") -> "Budget":
        """The budget of a call given ``limits``, from now."""
        return cls(limits.time_limit, limits.cancel)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self, share: float = 1.0) -> float | None:
        """``share`` of the seconds until the deadline (0.0 once it has passed); ``None`` without one."""
        return None if self.deadline is None else max(self.deadline - time.perf_counter(), 0.0) * share

    def time_limit(self, share: float = 1.0) -> float | None:
        """The time limit for one call: :meth:`left` (``share`` of it), at least :data:`AT_ONCE`."""
        left = self.left(share)
        return None if left is None else max(left, self.AT_ONCE)

    def limits(self, max_solutions: int | None, share: float = 1.0, cancel: Any = None) -> "Limits":
        """:class:`Limits` for one search: ``max_solutions``, :meth:`time_limit` and this
        budget's cancel (``cancel`` instead, when given)."""
        return Limits(max_solutions, self.time_limit(share), self.cancel if cancel is None else cancel)

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def expired(self) -> bool:
        """The cancel was set or the deadline has passed."""
        return self.cancelled() or (self.deadline is not None and time.perf_counter() >= self.deadline)

    def stopped_status(self) -> "Status":
        """How a search this budget stopped early ended: INTERRUPTED when the cancel was
        set, TIMEOUT otherwise (a deadline, or a node or conflict limit)."""
        return Status.INTERRUPTED if self.cancelled() else Status.TIMEOUT


def left(limits: Limits, watch: Budget, cancel: Any = None) -> Limits:
    """``limits`` for a part of a search that starts now: what the whole call (``limits``,
    counted from ``watch.start``) has left, and ``cancel`` instead of the caller's when given.

    >>> left(Limits(2, 5.0), Budget(None)).time_limit <= 5.0
    True
    """
    return Budget(limits.time_limit, limits.cancel, watch.start).limits(limits.max_solutions, cancel=cancel)


def available_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it): the
    default number of threads of a backend that declares a ``threads`` option, and what
    ``batch`` shares among its worker processes.

    >>> available_cores() >= 1
    True
    """
    import os
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (no affinity on this system)
        return max(1, os.cpu_count() or 1)
