"""A dataclass field built on its first read (:class:`BuiltOnFirstRead`)."""

from __future__ import annotations

from typing import Any

__all__ = ["BuiltOnFirstRead"]


class BuiltOnFirstRead:
    """A dataclass field that may be given a function instead of its value: the function
    runs on the first read, and only then.  A count that stops at its limit leaves a
    remainder that ``check`` never reads; on a 4000x4000 grid building it is two scans
    of 16 MB.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Box:
    ...     size: int = BuiltOnFirstRead()  # type: ignore[assignment]
    >>> box = Box(lambda: 6 * 7)
    >>> box.size
    42
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_built_" + name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return None  # the field's default
        value = obj.__dict__[self.slot]
        if callable(value):
            value = value()
            obj.__dict__[self.slot] = value
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.slot] = value

    def as_given(self, obj: Any) -> Any:
        """The field's value as it was given, its function not run if it has not run yet
        (to pass it on unbuilt)."""
        return obj.__dict__[self.slot]
