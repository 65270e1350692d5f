"""Counts in words, as every surface (the CLI, the pictures, the notebook reprs) says them."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, singular for one, else ``plural`` (``noun + "s"`` unless given).

    >>> counted(1, "region"), counted(2, "region"), counted(0, "backbone cell")
    ('1 region', '2 regions', '0 backbone cells')
    >>> counted(3, "child", "children")
    '3 children'
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
