"""Counts in words, as every surface (the CLI, the pictures, the notebook reprs) says them."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """``n`` and ``noun``, singular for one, else ``plural`` (``noun + "s"`` unless given);
    ``grouped``: the digits in thousands (``12,345``).

    >>> counted(1, "region"), counted(2, "region"), counted(0, "backbone cell")
    ('1 region', '2 regions', '0 backbone cells')
    >>> counted(3, "child", "children"), counted(12345, "line", grouped=True)
    ('3 children', '12,345 lines')
    """
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun if n == 1 else plural or noun + 's'}"
