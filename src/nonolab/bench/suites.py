"""What ``nonolab bench`` runs on: files, folders, sets, and seeded generated suites.

A PATH is a puzzle file (every puzzle of a set), a folder (every puzzle file under
it), or a generated suite, the same puzzles for the same seed on any machine:

* ``random:WxH:N`` (``random:WxH:N:D``): N uniform random pictures, each cell filled
  with probability D (0.5), as Wolter's rand30 set; default seed 30.
* ``taai:N``: N random 25x25 pictures whose density falls from 0.50 to 0.35, as the
  TAAI/TCGA tournament generator; default seed 25.
* ``tournament:FILE``: a tournament set in the TAAI format (``$N`` headers).
* ``ndom:A-B`` or ``ndom:A,B,...``: the N-Dom family, (2N+1)-square unique puzzles
  whose proof defeats search without learning (9-Dom is webpbn #8098).
* ``large:S,S,...``: smooth image-like squares of side S; default seed 2000.

A run is one set: the set limit of a file (``NONOLAB_MAX_PUZZLES``, 10,000) holds for
every puzzle of every PATH together (:func:`nonolab.formats.limits.one_set`): a generated
suite is refused before its first puzzle is built when its count (``first``'s, when fewer)
would pass it, a file's reader stops as the total passes it, and every grid holds the cell
limit (``NONOLAB_MAX_CELLS``) before it is drawn.

>>> [item.name for item in items_of(["ndom:3-4", "random:5x4:2"], seed=None)]
['3-dom', '4-dom', 'random-5x4-0001', 'random-5x4-0002']
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from nonolab.core.puzzle import Puzzle
from nonolab.errors import BenchError, InvalidArgument, NonolabError
from nonolab.formats.limits import OneSet, check_cells, check_puzzles, one_set

#: The default seed of each generated suite (``--seed`` replaces it).
DEFAULT_SEEDS = {"random": 30, "taai": 25, "large": 2000}
GENERATED = ("random", "taai", "tournament", "ndom", "large")


@dataclass(frozen=True)
class Item:
    """One puzzle to run: its name in the reports, the puzzle, and where it came from.

    ``file`` is the puzzle's own file when it is the only puzzle of that file (an
    external's ``{file}``), else None.  A puzzle of a set that could not be read (with
    ``items_of(..., unreadable=True)``) has no ``puzzle`` and its one-line located error
    in ``error``: it keeps its place and name in the reports, and no solver is given it.
    """

    name: str
    puzzle: Puzzle | None
    source: str
    file: str | None = None
    error: str | None = None

    def read(self) -> Puzzle:
        """The puzzle, for a run that is given it.

        Raises:
            BenchError: this puzzle could not be read (its located error): no run is given it.
        """
        if self.puzzle is None:
            raise BenchError(f"{self.name}: could not be read: {self.error}")
        return self.puzzle


def n_dom(n: int) -> Puzzle:
    """The N-Dom puzzle, (2N+1) x (2N+1): Josh Greifer's "Domino Logic III" for N = 9.

    Row 0 is ``3``, rows 1 .. 2N-1 alternate ``1`` (odd) and ``3 1`` (even), row 2N is
    ``1``; columns 0 and 1 are ``1``, columns 2 .. 2N-1 alternate ``1 3`` (even) and
    ``1`` (odd), column 2N is ``3``.  Its one solution is a chain of vertical 3-blocks
    (the dominoes), found by counting rows, which no line or probing logic sees.

    >>> p = n_dom(2)
    >>> p.rows, p.columns
    (((3,), (1,), (3, 1), (1,), (1,)), ((1,), (1,), (1, 3), (1,), (3,)))
    """
    if n < 2:
        raise BenchError(f"ndom: N must be at least 2, not {n}")
    check_cells(2 * n + 1, 2 * n + 1)      # the cell limit, as every generated grid, before its clues are built
    rows = [(3,)] + [(1,) if i % 2 else (3, 1) for i in range(1, 2 * n)] + [(1,)]
    columns = [(1,), (1,)] + [(1,) if i % 2 else (1, 3) for i in range(2, 2 * n)] + [(3,)]
    return Puzzle(rows=tuple(rows), columns=tuple(columns), name=f"{n}-dom")


def large_puzzle(size: int, seed: int) -> Puzzle:
    """The smooth ``size`` x ``size`` square of the ``large`` suite (seed ``seed + size``)."""
    from nonolab.generate import puzzle_from_array, smooth_grid

    array = smooth_grid(size, size, seed=seed + size)
    return puzzle_from_array(array, name=f"smooth-{size}x{size}", generator="smooth_grid", seed=seed + size)


def random_puzzles(prefix: str, count: int, width: int, height: int, seed: int,
                   density=lambda i: 0.5) -> Iterator[Item]:
    """``count`` seeded random pictures; puzzle i has the seed ``seed * 1_000_000 + i``."""
    from nonolab.generate import puzzle_from_array, random_grid

    for i in range(count):
        d = density(i)
        name = f"{prefix}-{i + 1:04d}"
        array = random_grid(height, width, d, seed=seed * 1_000_000 + i)
        yield Item(name, puzzle_from_array(array, name=name, generator="random_grid", density=f"{d:.4f}",
                                           seed=seed * 1_000_000 + i), prefix)


def _ints(text: str, what: str) -> Sequence[int]:
    """The numbers of ``A-B`` (a range: counted, never listed, before the set limit is held)
    or ``A,B,...``."""
    try:
        if re.fullmatch(r"\d+-\d+", text):
            low, high = map(int, text.split("-"))
            return range(low, high + 1)
        return [int(x) for x in text.split(",") if x]
    except ValueError:
        raise BenchError(f"{what}: expected numbers as A-B or A,B,...; got {text!r}") from None


def _generated(kind: str, rest: str, seed: int | None, skipped: list[str], unreadable: bool,
               first: int | None = None) -> Iterator[Item]:
    seed = DEFAULT_SEEDS.get(kind, 0) if seed is None else seed

    def hold(count: int) -> None:
        # The run is a set: the set limit (NONOLAB_MAX_PUZZLES) holds for the puzzles this
        # suite builds (--first's, when fewer) with those before it, before the first is built.
        check_puzzles(count if first is None else min(count, first), suite=f"{kind}:{rest}")

    if kind == "random":
        m = re.fullmatch(r"(\d+)x(\d+):(\d+)(?::(0?\.\d+|1(?:\.0*)?))?", rest)
        if not m or min(int(m.group(1)), int(m.group(2)), int(m.group(3))) < 1:
            raise BenchError(f"random:{rest}: expected random:WxH:N (or random:WxH:N:DENSITY)")
        width, height, count = int(m.group(1)), int(m.group(2)), int(m.group(3))
        density = float(m.group(4) or 0.5)
        hold(count)
        yield from random_puzzles(f"random-{width}x{height}", count, width, height, seed, lambda i: density)
    elif kind == "taai":
        if not rest.isdigit() or int(rest) < 1:
            raise BenchError(f"taai:{rest}: expected taai:N (N puzzles of 25x25)")
        from nonolab.generate import taai_density

        count = int(rest)
        hold(count)
        yield from random_puzzles("taai", count, 25, 25, seed, lambda i: taai_density(i, count))
    elif kind == "tournament":
        yield from _file_items(rest, fmt="taai", label=os.path.splitext(os.path.basename(rest))[0], skipped=skipped,
                               unreadable=unreadable)
    elif kind == "ndom":
        numbers = _ints(rest, "ndom")
        hold(len(numbers))
        for n in numbers:
            yield Item(f"{n}-dom", n_dom(n), "ndom")
    elif kind == "large":
        sizes = _ints(rest, "large")
        hold(len(sizes))
        for size in sizes:
            if size < 1:
                raise BenchError(f"large:{rest}: sides must be positive")
            yield Item(f"smooth-{size}x{size}", large_puzzle(size, seed), "large")


def _file_items(path: str, fmt: str | None = None, label: str | None = None,
                skipped: list[str] | None = None, unreadable: bool = False) -> Iterator[Item]:
    """The puzzles of the file at ``path``; a puzzle of a set that cannot be read is, with
    ``unreadable``, its own item holding its one-line error (``file:line: puzzle N: ...``),
    else left out and its error appended to ``skipped``; the others run (a file of one
    puzzle, or a broken structure, raises its error)."""
    from nonolab.formats import load_each

    try:
        puzzles = load_each(path, fmt)
    except FileNotFoundError:
        raise BenchError("no such file", path=path) from None
    label = label or path
    if len(puzzles) == 1:
        if isinstance(puzzles[0], NonolabError):
            raise puzzles[0]
        yield Item(label, puzzles[0], path, path)
        return
    for index, puzzle in enumerate(puzzles, 1):
        if isinstance(puzzle, NonolabError) and unreadable:
            yield Item(f"{label}#{index}", None, path, error=str(puzzle))
        elif isinstance(puzzle, NonolabError):
            (skipped if skipped is not None else []).append(str(puzzle))
        else:
            yield Item(f"{label}#{index}", puzzle, path)


def require_seed(seed: object) -> None:
    """A suite's seed is a whole number >= 0 (numpy's generators take no other), or None.

    >>> require_seed(-1)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: seed must be a whole number >= 0 (or none: each suite's own), not -1
    """
    import numbers

    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"bench: seed must be a whole number (or None), not {type(seed).__name__}")
    if seed < 0:
        raise InvalidArgument(f"{{arg}} must be a whole number >= 0 (or none: each suite's own), not {seed}",
                              argument="seed")


def items_of(paths: Iterable[str], seed: int | None = None, first: int | None = None,
             skipped: list[str] | None = None, unreadable: bool = False) -> list[Item]:
    """Every puzzle of ``paths`` in order (``first``: at most that many of each PATH).

    A file found in a folder that cannot be read is left out, its one-line error
    appended to ``skipped``.  A puzzle of a set that cannot be read (the set's others
    run) is, with ``unreadable``, an item of its own with no puzzle and its error
    (``nonolab bench`` gives it its rows); without, it is left out as such a file is.

    Every puzzle of every PATH is one set, held to the set limit (``NONOLAB_MAX_PUZZLES``)
    together: refused before a suite that would pass it is built, or a file read past it.

    Raises:
        BenchError: an unknown suite, a path that does not exist, no puzzle at all.
        InvalidArgument: a negative ``seed``.
        TooLarge: the PATHs hold more puzzles than the set limit.
        ParseError, ...: a file named in ``paths`` cannot be read.
    """
    require_seed(seed)
    with one_set("bench's PATHs") as held:
        found = _items(paths, seed, first, skipped if skipped is not None else [], unreadable, held)
    if all(item.puzzle is None for item in found):
        raise BenchError("no puzzles in " + ", ".join(map(str, paths))
                         + (f" (none of its {len(found)} could be read: {found[0].error})" if found else ""))
    return found


def _items(paths: Iterable[str], seed: int | None, first: int | None, skipped: list[str], unreadable: bool,
           held: OneSet) -> list[Item]:
    found: list[Item] = []
    for path in paths:
        text = str(path)
        kind, sep, rest = text.partition(":")
        if sep and kind in GENERATED and not os.path.exists(text):
            items = _generated(kind, rest, seed, skipped, unreadable, first)
        elif os.path.isdir(text):
            items = _folder_items(text, skipped, unreadable, held)
        elif os.path.exists(text):
            items = _file_items(text, skipped=skipped, unreadable=unreadable)
        elif sep and re.fullmatch(r"[a-z]+", kind):
            raise BenchError(f"unknown suite {kind!r} (known: {', '.join(GENERATED)})", path=text)
        else:
            raise BenchError("no such file or directory", path=text)
        for count, item in enumerate(items):
            if first is not None and count >= first:
                break
            held.add(1, item.source)
            found.append(item)
    return found


def _folder_items(folder: str, skipped: list[str], unreadable: bool, held: OneSet) -> Iterator[Item]:
    from nonolab.batch import collect

    for path in collect([folder]):
        try:
            yield from _file_items(path, skipped=skipped, unreadable=unreadable)
        except (NonolabError, OSError) as err:
            if held.over:   # the run's limit, not this file's fault: the run is refused
                raise
            skipped.append(str(err))
