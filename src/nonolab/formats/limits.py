"""The input-size limits: absurd files are refused in milliseconds, before they are read.

Two numbers bound what a reader accepts:

* ``max_bytes``: the size of a file (checked with ``stat`` before reading; a pipe or
  standard input is read up to one byte past it);
* ``max_cells``: width x height, checked as soon as a reader knows the size (a game
  ID's ``WxH``, or the clue lines counted), before any grid is allocated.  Clue
  numbers are bounded by it too: a block longer than its line is refused.

Beyond either, :class:`~nonolab.errors.TooLarge` names the file, the size, the limit
and how to raise it.  The limits in force are, field by field: the ``limits=``
argument of :func:`nonolab.formats.load` (and ``load_all``, ``loads``...), else the
environment variables ``NONOLAB_MAX_INPUT_BYTES`` and ``NONOLAB_MAX_CELLS``, else
:data:`DEFAULT` (which a program may replace).

>>> from nonolab.formats import loads
>>> loads("3x2:1/1/1/3/0", limits=InputLimits(max_cells=4))
Traceback (most recent call last):
...
nonolab.errors.TooLarge: line 1: the puzzle is 3x2 = 6 cells, beyond the limit of 4 cells (raise it with NONOLAB_MAX_CELLS=N, or InputLimits(max_cells=N))
"""

from __future__ import annotations

import contextlib
import os
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

from nonolab.errors import InvalidArgument, TooLarge

BYTES_VARIABLE = "NONOLAB_MAX_INPUT_BYTES"
CELLS_VARIABLE = "NONOLAB_MAX_CELLS"


@dataclass(frozen=True)
class InputLimits:
    """Bounds on one input: file bytes and grid cells (``None`` in a field: the default).

    >>> InputLimits(max_cells=100).resolved().max_cells
    100
    """

    max_bytes: int | None = None
    max_cells: int | None = None

    def resolved(self) -> "InputLimits":
        """Every field filled: this object's, else the environment's, else :data:`DEFAULT`'s."""
        return InputLimits(
            self.max_bytes if self.max_bytes is not None else _from_env(BYTES_VARIABLE, DEFAULT.max_bytes),
            self.max_cells if self.max_cells is not None else _from_env(CELLS_VARIABLE, DEFAULT.max_cells))


#: 64 MiB and 25,000,000 cells (5000 x 5000).
DEFAULT = InputLimits(max_bytes=64 * 2 ** 20, max_cells=25_000_000)

_ACTIVE: ContextVar[InputLimits | None] = ContextVar("nonolab_input_limits", default=None)


def _from_env(name: str, fallback: int | None) -> int | None:
    raw = os.environ.get(name, "").strip().replace("_", "")
    if not raw:
        return fallback
    try:
        value = int(raw)
    except ValueError:
        raise InvalidArgument(f"{name}={os.environ[name]!r} is not a whole number") from None
    if value < 1:
        raise InvalidArgument(f"{name}={os.environ[name]!r} must be at least 1")
    return value


def active() -> InputLimits:
    """The limits of the read under way (see :func:`applied`), resolved."""
    return (_ACTIVE.get() or InputLimits()).resolved()


@contextlib.contextmanager
def applied(limits: InputLimits | None) -> Iterator[InputLimits]:
    """Make ``limits`` (resolved) the ones :func:`check_cells` sees while the body runs."""
    resolved = (limits or InputLimits()).resolved()
    token = _ACTIVE.set(resolved)
    try:
        yield resolved
    finally:
        _ACTIVE.reset(token)


def _size(n: int) -> str:
    return f"{n / 2 ** 20:.1f} MiB" if n >= 2 ** 20 else f"{n:,} bytes"


def check_bytes(size: int, limit: int | None, *, streamed: bool = False) -> None:
    """Refuse a file of ``size`` bytes beyond ``limit`` (``streamed``: a pipe, read up to past the limit)."""
    if limit is not None and size > limit:
        what = f"more than {_size(limit)}" if streamed else _size(size)
        raise TooLarge(f"the file is {what}, beyond the input limit of {_size(limit)} "
                       f"(raise it with {BYTES_VARIABLE}=N, or InputLimits(max_bytes=N))")


def check_cells(width: int, height: int, line: int | None = None) -> None:
    """Refuse a ``width`` x ``height`` grid beyond the active cell limit, before it is built."""
    limit = active().max_cells
    if limit is not None and width * height > limit:
        raise TooLarge(f"the puzzle is {width}x{height} = {width * height:,} cells, beyond the limit of "
                       f"{limit:,} cells (raise it with {CELLS_VARIABLE}=N, or InputLimits(max_cells=N))",
                       line=line)
