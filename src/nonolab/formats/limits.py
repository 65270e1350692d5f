"""The resource budget of every entry point: absurd inputs are refused in milliseconds,
before the work that would exceed them.

One set of numbers bounds what any reader, the generator, a batch job and a web job
accept (the CLI, ``batch`` and ``nonolab serve`` all read them from here):

* ``max_bytes``: the size of a file or an upload (checked with ``stat`` before reading;
  a pipe, standard input or a request body is read in chunks up to one byte past it);
* ``max_cells``: width x height, checked as soon as a reader knows the size (a game
  ID's ``WxH``, a picture's first row and line count, the clue lines counted), and by
  the generator before it draws anything, before any grid is allocated.  Clue numbers
  are bounded by it too: a block longer than its line is refused;
* ``max_pixels``: the pixels of an image, read from its header before it is decoded
  (a PNG puzzle, ``generate --from-image``, an image uploaded to the workbench);
* ``max_puzzles``: the puzzles of one file (a set), counted while it is read;
* ``max_depth``: the nesting of an XML or JSON document, checked before it is built;
* ``max_memory``: the bytes a search may plan for: a backend declares what it holds a cell
  (``BYTES_PER_CELL``, measured) and refuses a puzzle whose cells times that exceed it,
  before it allocates anything (:func:`check_memory`, called by every backend's ``accept``).

Beyond any, :class:`~nonolab.errors.TooLarge` names the file, the size, the limit and
how to raise it.  The limits in force are, field by field: the ``limits=`` argument of
:func:`nonolab.formats.load` (and ``load_all``, ``loads``...), else the environment
variables (``NONOLAB_MAX_INPUT_BYTES``, ``NONOLAB_MAX_CELLS``, ``NONOLAB_MAX_PIXELS``,
``NONOLAB_MAX_PUZZLES``, ``NONOLAB_MAX_DEPTH``, ``NONOLAB_MAX_MEMORY``), else :data:`DEFAULT` (which a program
may replace).  A variable that is not a whole number from 1 to :data:`CEILING` is a
one-line :class:`~nonolab.errors.InvalidArgument`.  The model a backend builds has its
own guard (``-O max_states=N``, :mod:`nonolab.solvers.size`), and the clock is the
command's ``--time-limit``.

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
PIXELS_VARIABLE = "NONOLAB_MAX_PIXELS"
PUZZLES_VARIABLE = "NONOLAB_MAX_PUZZLES"
DEPTH_VARIABLE = "NONOLAB_MAX_DEPTH"
MEMORY_VARIABLE = "NONOLAB_MAX_MEMORY"
#: The largest value a limit takes (2**40, a tebibyte of input): beyond it a limit is no
#: limit, and the numbers it feeds (a read's size, an allocation) stop making sense.
CEILING = 2 ** 40


@dataclass(frozen=True)
class InputLimits:
    """Bounds on one input: file bytes, grid cells, image pixels, puzzles in a set,
    nesting depth, and the memory a search may plan for (``None`` in a field: the
    environment's, else the default).

    >>> InputLimits(max_cells=100).resolved().max_cells
    100
    >>> InputLimits().resolved().max_puzzles
    10000
    """

    max_bytes: int | None = None
    max_cells: int | None = None
    max_pixels: int | None = None
    max_puzzles: int | None = None
    max_depth: int | None = None
    max_memory: int | None = None

    def resolved(self) -> "InputLimits":
        """Every field filled: this object's, else the environment's, else :data:`DEFAULT`'s."""
        return InputLimits(*(
            _checked(name, getattr(self, field)) if getattr(self, field) is not None
            else _from_env(name, getattr(DEFAULT, field)) for field, name in _VARIABLES.items()))


#: 64 MiB, 100,000,000 cells (10,000 x 10,000: every command measured there within the
#: memory budget or refused by it, benchmarks/log/2026-11-26-limits-3.md), 25,000,000 pixels, 10,000 puzzles in a set (the
#: largest public collections hold a few thousand; at 100,000 tiny ones, reading them up to
#: the refusal took 30 s), 100 levels of nesting (a puzzle file needs five), 8 GiB a search
#: may plan for (a third of the 24 GiB machine the costs were measured on: one command
#: leaves room for the others).
DEFAULT = InputLimits(max_bytes=64 * 2 ** 20, max_cells=100_000_000, max_pixels=25_000_000,
                      max_puzzles=10_000, max_depth=100, max_memory=8 * 2 ** 30)
_VARIABLES = {"max_bytes": BYTES_VARIABLE, "max_cells": CELLS_VARIABLE, "max_pixels": PIXELS_VARIABLE,
              "max_puzzles": PUZZLES_VARIABLE, "max_depth": DEPTH_VARIABLE, "max_memory": MEMORY_VARIABLE}

_ACTIVE: ContextVar[InputLimits | None] = ContextVar("nonolab_input_limits", default=None)


def _from_env(name: str, fallback: int | None) -> int | None:
    raw = os.environ.get(name, "").strip().replace("_", "")
    if not raw:
        return fallback
    shown = os.environ[name] if len(os.environ[name]) <= 40 else os.environ[name][:40] + "..."
    if not raw.isdigit() or len(raw) > 15:
        if raw.isdigit():
            raise InvalidArgument(f"{name}={shown!r} must be at most {CEILING:,}")
        raise InvalidArgument(f"{name}={shown!r} is not a whole number")
    value = int(raw)
    if not 1 <= value <= CEILING:
        raise InvalidArgument(f"{name}={shown!r} must be from 1 to {CEILING:,}")
    return value


def _checked(name: str, value: int) -> int:
    """A limit given in code: a whole number from 1 to :data:`CEILING`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= CEILING:
        field = next(f for f, n in _VARIABLES.items() if n == name)
        raise InvalidArgument(f"InputLimits({field}=...) must be a whole number from 1 to {CEILING:,}, "
                              f"not {value!r}")
    return value


def active() -> InputLimits:
    """The limits of the read under way (see :func:`applied`), resolved."""
    return (_ACTIVE.get() or InputLimits()).resolved()


def _active_limit(field: str) -> int | None:
    """``active()``'s ``field`` alone: the read under way's (resolved), else its one
    environment variable, else :data:`DEFAULT`'s.  Every backend's ``accept`` asks for the
    memory budget, once a solve: reading the other five variables each time cost more than
    a small puzzle's check (8 us of an 18 us ``accept``).  Read at each call, so a variable
    changed between two solves is honoured."""
    under_way = _ACTIVE.get()
    if under_way is not None:
        return getattr(under_way, field)
    return _from_env(_VARIABLES[field], getattr(DEFAULT, field))


@contextlib.contextmanager
def applied(limits: InputLimits | None) -> Iterator[InputLimits]:
    """Make ``limits`` (resolved) the ones :func:`check_cells` sees while the body runs."""
    resolved = (limits or InputLimits()).resolved()
    token = _ACTIVE.set(resolved)
    try:
        yield resolved
    finally:
        _ACTIVE.reset(token)


def _size(n: int, limit: int | None = None) -> str:
    """``n`` bytes in words: MiB (with the bytes when the MiB alone would hide how it
    differs from ``limit``), or bytes below one MiB.

    >>> _size(64 * 2 ** 20), _size(64 * 2 ** 20 + 243, 64 * 2 ** 20), _size(512)
    ('64.0 MiB', '64.0 MiB (67,109,107 bytes)', '512 bytes')
    """
    if n < 2 ** 20:
        return f"{n:,} bytes"
    text = f"{n / 2 ** 20:.1f} MiB"
    if limit is not None and text == f"{limit / 2 ** 20:.1f} MiB" and n != limit:
        text += f" ({n:,} bytes)"
    return text


def check_bytes(size: int, limit: int | None, *, streamed: bool = False, what: str = "the file") -> None:
    """Refuse ``what`` of ``size`` bytes beyond ``limit`` (``streamed``: a pipe or a request
    body, read up to one byte past the limit, so its whole size is not known)."""
    if limit is not None and size > limit:
        shown = f"more than {_size(limit)}" if streamed else _size(size, limit)
        exact = f" ({limit:,} bytes)" if not streamed and "(" in shown else ""
        raise TooLarge(f"{what} is {shown}, beyond the input limit of {_size(limit)}{exact}",
                       raise_with=f"{BYTES_VARIABLE}=N, or InputLimits(max_bytes=N)")


def check_cells(width: int, height: int, line: int | None = None) -> None:
    """Refuse a ``width`` x ``height`` grid beyond the active cell limit, before it is built."""
    limit = active().max_cells
    if limit is not None and width * height > limit:
        raise TooLarge(f"the puzzle is {width}x{height} = {width * height:,} cells, beyond the limit of "
                       f"{limit:,} cells", raise_with=f"{CELLS_VARIABLE}=N, or InputLimits(max_cells=N)", line=line)


def check_pixels(width: int, height: int, what: str = "the image") -> None:
    """Refuse an image of ``width`` x ``height`` pixels beyond the active pixel limit,
    from its header, before it is decoded."""
    limit = active().max_pixels
    if limit is not None and width * height > limit:
        raise TooLarge(f"{what} is {width}x{height} = {width * height:,} pixels, beyond the limit of "
                       f"{limit:,} pixels", raise_with=f"{PIXELS_VARIABLE}=N, or InputLimits(max_pixels=N)")


def check_puzzles(count: int, line: int | None = None, *, suite: str | None = None) -> None:
    """Refuse a set once it holds more puzzles than the active limit (call it as each is met),
    or a generated ``suite`` (``bench random:3x3:N``) of ``count`` puzzles before one is built.
    Inside :func:`one_set`, the puzzles its inputs before this one gave count too.

    >>> with applied(InputLimits(max_puzzles=3)):
    ...     check_puzzles(4, suite="random:3x3:4")
    Traceback (most recent call last):
    nonolab.errors.TooLarge: random:3x3:4: the suite holds 4 puzzles, beyond 3, the limit of one set (raise it with NONOLAB_MAX_PUZZLES=N, or InputLimits(max_puzzles=N))
    """
    limit = active().max_puzzles
    together = _TOGETHER.get()
    before = together.held if together is not None else 0
    if limit is None or before + count <= limit:
        return
    if together is not None and before:
        together.over = True
        said = (f"{together.what} hold {before + count:,} puzzles with this suite ({before:,} before it), "
                f"beyond {limit:,}, the limit of one set" if suite is not None
                else f"{together.what} hold more puzzles than {limit:,}, the limit of one set, with this "
                     f"input ({before:,} before it)")
    else:
        said = (f"the suite holds {count:,} puzzles, beyond {limit:,}" if suite is not None
                else f"the file holds more than {limit:,} puzzles") + ", the limit of one set"
    raise TooLarge(said, path=suite,
                   raise_with=f"{PUZZLES_VARIABLE}=N, or InputLimits(max_puzzles=N)", line=line)


@dataclass
class OneSet:
    """The puzzles several inputs give a command that holds them all at once, counted as one
    set (see :func:`one_set`); ``over`` once the set limit refused one of them."""

    what: str
    held: int = 0
    over: bool = False

    def add(self, count: int, source: str | None = None) -> None:
        """Hold ``count`` more puzzles of ``source`` (a file, a suite): refused, naming
        ``source``, when the set would pass its limit, before they are held.

        >>> with applied(InputLimits(max_puzzles=3)), one_set("the PATHs") as held:
        ...     held.add(2, "a.taai")
        ...     held.add(2, "b.non")
        Traceback (most recent call last):
        nonolab.errors.TooLarge: b.non: the PATHs hold more puzzles than 3, the limit of one set, with this input (2 before it) (raise it with NONOLAB_MAX_PUZZLES=N, or InputLimits(max_puzzles=N))
        """
        try:
            check_puzzles(count)
        except TooLarge as err:
            raise err.located(path=source)
        self.held += count


_TOGETHER: ContextVar[OneSet | None] = ContextVar("nonolab_one_set", default=None)


@contextlib.contextmanager
def one_set(what: str) -> Iterator[OneSet]:
    """Count the puzzles of several inputs as one set while the body runs: a command that
    holds every puzzle of its inputs at once (every PATH of ``nonolab bench``, every FILE of
    ``render --sheet``) holds the set limit (``max_puzzles``) for their total, not for each.
    :func:`check_puzzles` (the readers', a generated suite's) counts what the inputs before
    gave, so a reader stops as the total passes the limit and a suite is refused before it
    is built; the command adds each input's puzzles (:meth:`OneSet.add`) as it holds them.
    ``what`` names the inputs in the refusal (``"bench's PATHs"``)."""
    together = OneSet(what)
    token = _TOGETHER.set(together)
    try:
        yield together
    finally:
        _TOGETHER.reset(token)


def check_depth(depth: int, line: int | None = None) -> None:
    """Refuse a document nested deeper than the active limit (call it as each level opens)."""
    limit = active().max_depth
    if limit is not None and depth > limit:
        raise TooLarge(f"the document is nested more than {limit:,} levels deep",
                       raise_with=f"{DEPTH_VARIABLE}=N, or InputLimits(max_depth=N)", line=line)


def _memory(n: int) -> str:
    """``n`` bytes of memory in words: GiB from one GiB up, else as :func:`_size` says them
    (a small budget is not "0.0 GiB").

    >>> _memory(12 * 2 ** 30), _memory(200 * 2 ** 20), _memory(1000)
    ('12.0 GiB', '200.0 MiB', '1,000 bytes')
    """
    return f"{n / 2 ** 30:.1f} GiB" if n >= 2 ** 30 else _size(n)


def check_memory(what: str, width: int, height: int, bytes_per_cell: int) -> None:
    """Refuse a search that plans ``bytes_per_cell`` (its declared cost) for each of a
    ``width`` x ``height`` grid's cells beyond the active memory budget, before it allocates.

    >>> with applied(InputLimits(max_memory=2 ** 30)):
    ...     check_memory("backend 'lcg'", 10_000, 10_000, 120)
    Traceback (most recent call last):
    ...
    nonolab.errors.TooLarge: backend 'lcg' needs about 11.2 GiB for the 10000x10000 puzzle (120 bytes a cell), beyond the memory budget of 1.0 GiB (raise it with NONOLAB_MAX_MEMORY=N bytes, or InputLimits(max_memory=N))
    """
    limit = _active_limit("max_memory")
    need = width * height * bytes_per_cell
    if limit is not None and need > limit:
        raise TooLarge(f"{what} needs about {_memory(need)} for the {width}x{height} puzzle "
                       f"({bytes_per_cell} bytes a cell), beyond the memory budget of {_memory(limit)}",
                       raise_with=f"{MEMORY_VARIABLE}=N bytes, or InputLimits(max_memory=N)")


def memory_budget() -> int | None:
    """The memory budget in force, in bytes (``None``: none): what :func:`check_memory`
    holds a search's plan to, read now (as a backend's ``accept`` reads it).

    >>> with applied(InputLimits(max_memory=2 ** 30)):
    ...     memory_budget()
    1073741824
    """
    return _active_limit("max_memory")


def check_held(what: str, held: int, budget: int | None) -> None:
    """Refuse ``held`` bytes that a search holds as it runs (a child process's resident
    memory, which no plan declares: Kissat's learned clauses) beyond ``budget``.

    >>> check_held("the kissat404 child", 300 * 2 ** 20, 200 * 2 ** 20)
    Traceback (most recent call last):
    ...
    nonolab.errors.TooLarge: the kissat404 child held 300.0 MiB, beyond the memory budget of 200.0 MiB (raise it with NONOLAB_MAX_MEMORY=N bytes, or InputLimits(max_memory=N))
    """
    if budget is not None and held > budget:
        raise TooLarge(f"{what} held {_memory(held)}, beyond the memory budget of {_memory(budget)}",
                       raise_with=f"{MEMORY_VARIABLE}=N bytes, or InputLimits(max_memory=N)")


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text`` (strings skipped), in one
    vectorised pass, so a document can be refused before ``json`` recurses into it.

    >>> json_depth('{"a": [1, [2, "[[["]]}'), json_depth("3")
    (3, 0)
    """
    import re

    import numpy as np

    bare = re.sub(r'"(?:[^"\\]|\\.)*"', "", text).encode("utf-8", "surrogatepass")
    codes = np.frombuffer(bare, dtype=np.uint8)
    steps = (np.isin(codes, (ord("["), ord("{")))).astype(np.int32) - np.isin(codes, (ord("]"), ord("}")))
    return int(np.cumsum(steps).max(initial=0))
