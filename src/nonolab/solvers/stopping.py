"""Cancels that say when they are set: a search can then stop at once, not at its next look.

A backend looks at ``Limits.cancel`` between the slices of its search; an engine that
runs in compiled code for a slice (native's C++ core: up to 50 ms) would answer a
cancel that late.  An :class:`Alarm` is a ``threading.Event`` that also calls what was
subscribed to it (``on_set``) when it is set, so a backend can subscribe its engine's
own interrupt (:func:`when_set`).  Any other cancel (a plain ``threading.Event``) is
looked at between slices, as before.

>>> alarm = Alarm()
>>> seen = []
>>> unsubscribe = when_set(alarm, lambda: seen.append("stop"))
>>> alarm.set()
>>> seen
['stop']
>>> when_set(object(), lambda: None)()   # a cancel without on_set: nothing to undo
"""

from __future__ import annotations

import threading
from typing import Any, Callable

__all__ = ["Alarm", "when_set"]


class Alarm(threading.Event):
    """An event whose ``set()`` calls every subscribed callable once (in the setting thread)."""

    def __init__(self) -> None:
        super().__init__()
        self._calls: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def on_set(self, call: Callable[[], None]) -> Callable[[], None]:
        """Call ``call()`` when this is set (now if it is); returns the unsubscribe."""
        with self._lock:
            if not self.is_set():
                self._calls.append(call)
                return lambda: self._drop(call)
        call()
        return lambda: None

    def _drop(self, call: Callable[[], None]) -> None:
        with self._lock:
            if call in self._calls:
                self._calls.remove(call)

    def set(self) -> None:
        with self._lock:
            super().set()
            calls, self._calls = self._calls, []
        for call in calls:
            call()


def when_set(cancel: Any, call: Callable[[], None]) -> Callable[[], None]:
    """Subscribe ``call`` to ``cancel`` if it says when it is set (an ``on_set`` method,
    as :class:`Alarm` has); returns the unsubscribe (a no-op for any other cancel)."""
    on_set = getattr(cancel, "on_set", None)
    return on_set(call) if on_set is not None else (lambda: None)
