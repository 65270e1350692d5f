"""The exact-cover backend: a nonogram as Knuth's exact cover with secondary items.

The encoding (``models/exact_cover.md`` gives it in full):

* primary items: every cell twice, "covered horizontally" ``H(r, c)`` and "covered
  vertically" ``V(r, c)``; and every clue segment, "segment i of line L placed";
* options: "segment i of line L starts at s" covers the segment's item and the
  H (for a row) or V (for a column) items of its cells; "cell (r, c) is white"
  covers both ``H(r, c)`` and ``V(r, c)``;
* secondary items: one per pair of placements of two consecutive segments of a
  line that are too close or out of order and do not already share a cell, put in
  both options so that at most one of the two is chosen.

A filled cell is then covered horizontally by a row segment and vertically by a
column segment, a white cell by its white option, and every line's segments lie in
clue order with a gap between them: the exact covers are the solutions, one to one.

The search is Algorithm X on dancing links with the minimum-remaining-values rule,
written here (iterative, so the depth is not bounded by Python's recursion limit)
rather than taken from a library: the clock is checked inside the search loop
every few hundred nodes, which a compiled enumerator that only returns at the next
solution could not do, and there is no compilation delay on the first call.

The encoding grows with the slack of the lines (pair items are quadratic in it),
and the search has no propagation beyond "an item with one option left": it is
meant for small puzzles and as an independent check on the other backends.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = DlxSolver().solve(p, Limits(max_solutions=None))
>>> result.status.value, result.count, result.complete
('solved', 2, True)
"""

from __future__ import annotations

import time

from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any
from dataclasses import dataclass, field

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import LimitReached
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, accept, collect
from nonolab.solvers.size import refuse_beyond
from nonolab.solvers.options import max_states_option, settle

# The memory guard (see size.model_states): a baseline for small grids; its option lists
# grow with the line states (Gettys has 166,172).
MAX_STATES = 200_000

__all__ = ["DlxSolver", "ExactCover", "encode", "exact_covers", "segment_windows"]

# Search nodes between two looks at the clock (a power of two).  A node on a large
# puzzle covers thousands of links (0.65 ms each on Gettys), so 256 of them overran a
# time limit by 0.2 s; a look costs about 0.1 us, nothing beside one node.
_CLOCK_EVERY = 16


# --- the encoding ---------------------------------------------------------------

@dataclass
class ExactCover:
    """An exact cover problem with secondary items, and what its options mean.

    Items are numbered: primary items ``0 .. primary - 1`` (each must be covered
    exactly once), then secondary items ``primary .. primary + secondary - 1`` (each
    at most once).  ``options[k]`` lists the items of option ``k``; ``fills[k]`` the
    row-major indices of the cells that option ``k`` makes filled, recorded for row
    segments only (a column segment fills the same cells a second time).

    ``names`` labels the items for reading and tests: ``("H", r, c)``,
    ``("V", r, c)``, ``("seg", kind, line, i)``, ``("pair", kind, line, i, s, t)``.
    """

    width: int
    height: int
    primary: int = 0
    names: list[tuple] = field(default_factory=list)
    options: list[tuple[int, ...]] = field(default_factory=list)
    fills: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def secondary(self) -> int:
        return len(self.names) - self.primary

    def add_item(self, name: tuple) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def add_option(self, items: Sequence[int], fills: tuple[int, ...] = ()) -> int:
        self.options.append(tuple(items))
        self.fills.append(fills)
        return len(self.options) - 1

    def picture(self, chosen: Sequence[int]) -> Solution:
        """The picture an exact cover (a list of option numbers) stands for."""
        cells = bytearray(self.width * self.height)
        for k in chosen:
            for cell in self.fills[k]:
                cells[cell] = 1
        return Solution.from_bytes(bytes(cells), self.width)


def segment_windows(clue: Clue, length: int) -> list[range]:
    """The starts each segment of ``clue`` can take in a line of ``length`` cells.

    Segment ``i`` starts no earlier than the packed-left position of the segments
    before it and no later than the packed-right position of those after it.

    >>> segment_windows((3, 1), 6)
    [range(0, 2), range(4, 6)]
    >>> segment_windows((), 4)
    []
    """
    slack = length - (sum(clue) + len(clue) - 1)
    windows, lo = [], 0
    for block in clue:
        windows.append(range(lo, lo + slack + 1))
        lo += block + 1
    return windows


def _cell_items(cover: ExactCover) -> tuple[list[int], list[int]]:
    """Primary items H(r, c) and V(r, c), row-major; H first, then V."""
    h, w = cover.height, cover.width
    across = [cover.add_item(("H", r, c)) for r in range(h) for c in range(w)]
    down = [cover.add_item(("V", r, c)) for r in range(h) for c in range(w)]
    return across, down


def _line_cells(kind: str, index: int, width: int, height: int) -> list[int]:
    """Row-major cell indices of a line, in reading order."""
    if kind == "row":
        return [index * width + c for c in range(width)]
    return [r * width + index for r in range(height)]


def _segment_items(cover: ExactCover, puzzle: Puzzle) -> list[list[int]]:
    """Primary items "segment i of line L placed", per line in ``puzzle.lines()`` order."""
    return [[cover.add_item(("seg", kind, index, i)) for i in range(len(clue))]
            for kind, index, clue in puzzle.lines()]


def _placements(cover: ExactCover, kind: str, index: int, clue: Clue, segment_items: list[int],
                cell_items: list[int]) -> list[dict[int, list[int]]]:
    """The item lists of every placement of every segment of a line.

    Returns, per segment, ``{start: items}``; the options are added later, once the
    pair items have been appended to these lists.
    """
    cells = _line_cells(kind, index, cover.width, cover.height)
    return [{s: [item] + [cell_items[cells[x]] for x in range(s, s + block)] for s in window}
            for item, block, window in zip(segment_items, clue, segment_windows(clue, len(cells)))]


def _pair_items(cover: ExactCover, kind: str, index: int, clue: Clue,
                placements: list[dict[int, list[int]]]) -> int:
    """Append a pair item to both options of every conflicting consecutive placement.

    Segment ``i + 1`` must start at ``t >= s + clue[i] + 1`` when segment ``i``
    starts at ``s``.  A violating pair either overlaps (a shared cell item already
    forbids it), touches (``t == s + clue[i]``: the two would merge into one run),
    or is reversed and disjoint (``t + clue[i + 1] <= s``).  The last two get an item.
    Returns the number of items added.
    """
    added = 0
    for i in range(len(clue) - 1):
        first, second = clue[i], clue[i + 1]
        for s, items in placements[i].items():
            for t, next_items in placements[i + 1].items():
                if t > s + first:
                    break                   # far enough: the windows are ascending
                if t == s + first or t + second <= s:
                    item = cover.add_item(("pair", kind, index, i, s, t))
                    items.append(item)
                    next_items.append(item)
                    added += 1
    return added


def encode(puzzle: Puzzle, expired: Callable[[], bool] = lambda: False) -> ExactCover:
    """The exact cover problem whose covers are the solutions of ``puzzle``.

    Args:
        puzzle: the puzzle.
        expired: called after each line; when it returns true the build stops
            with :class:`~nonolab.errors.LimitReached` (large puzzles take long to encode).

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> cover = encode(p)
    >>> cover.primary, cover.secondary, len(cover.options)   # 8 cells + 4 segments; 4 white + 8
    (12, 0, 12)
    """
    cover = ExactCover(puzzle.width, puzzle.height)
    # Segment items first: on ties the search branches on the first item with the
    # fewest options, and branching on where a segment goes rather than on what a
    # cell is took fifteen times fewer nodes on hakank's nonunique (43 solutions).
    segments = _segment_items(cover, puzzle)
    across, down = _cell_items(cover)
    lines = []
    for (kind, index, clue), items in zip(puzzle.lines(), segments):
        cell_items = across if kind == "row" else down
        lines.append((kind, index, clue, _placements(cover, kind, index, clue, items, cell_items)))
    cover.primary = len(cover.names)
    # Secondary items come after every primary one, as the search expects.
    for kind, index, clue, placements in lines:
        _pair_items(cover, kind, index, clue, placements)
        if expired():
            raise LimitReached("dlx: the time limit ran out while encoding")
    for a, d in zip(across, down):
        cover.add_option((a, d))            # the white cell: both directions at once
    for kind, index, clue, placements in lines:
        cells = _line_cells(kind, index, cover.width, cover.height)
        for block, per_start in zip(clue, placements):
            for s, items in per_start.items():
                fills = tuple(cells[s:s + block]) if kind == "row" else ()
                cover.add_option(items, fills)
    return cover


# --- Algorithm X on dancing links -------------------------------------------------

def exact_covers(cover: ExactCover, stop: Callable[[], bool] | None = None,
                 counters: dict[str, int] | None = None) -> Generator[list[int], None, None]:
    """Every exact cover of ``cover``, as lists of option numbers, one at a time.

    Knuth's Algorithm X on dancing links (TAOCP 7.2.2.1), branching on the primary
    item with the fewest remaining options.  Secondary items start outside the
    list of active items, so nothing forces them to be covered, but covering an
    option still removes every other option that shares one of its items.

    Args:
        cover: the problem (a fresh link structure is built from it on each call).
        stop: looked at every few hundred search nodes; when it returns true the
            search ends with :class:`~nonolab.errors.LimitReached`.
        counters: if given, ``counters["nodes"]`` counts the search nodes.

    >>> c = ExactCover(1, 1, primary=2, names=[("a",), ("b",)])
    >>> for items in [(0,), (1,), (0, 1)]:
    ...     _ = c.add_option(items)
    >>> sorted(sorted(x) for x in exact_covers(c))
    [[0, 1], [2]]
    """
    n_items = len(cover.names)
    root = n_items
    # Item headers 0 .. n_items - 1, the root, then one node per (option, item).
    left = list(range(n_items + 1))
    right = list(range(n_items + 1))
    order = list(range(cover.primary)) + [root]
    for a, b in zip(order, order[1:] + order[:1]):     # primary items in a ring with the root
        right[a], left[b] = b, a
    up = list(range(n_items + 1))
    down = list(range(n_items + 1))
    top = list(range(n_items + 1))
    size = [0] * (n_items + 1)
    owner = [-1] * (n_items + 1)                        # the option of each node
    members: list[tuple[int, ...]] = []                 # the nodes of each option
    for k, items in enumerate(cover.options):
        if stop is not None and not k & 4095 and stop():
            raise LimitReached("dlx: limit reached while linking the options")
        option_nodes: list[int] = []
        for item in items:
            x = len(top)
            top.append(item)
            owner.append(k)
            up.append(up[item])
            down.append(item)
            down[up[item]] = x
            up[item] = x
            size[item] += 1
            option_nodes.append(x)
        members.append(tuple(option_nodes))
    backwards = [m[::-1] for m in members]

    # Knuth's cover(i): hide every other option that contains item i (unlink its
    # other nodes from their items), then take i out of the active list.  uncover(i)
    # undoes it in exactly the reverse order, which is what makes the links dance.
    def cover_item(i: int) -> None:
        p = down[i]
        while p != i:
            for q in members[owner[p]]:
                if q != p:
                    u, d = up[q], down[q]
                    down[u] = d
                    up[d] = u
                    size[top[q]] -= 1
            p = down[p]
        lf, rt = left[i], right[i]
        right[lf] = rt
        left[rt] = lf

    def uncover_item(i: int) -> None:
        lf, rt = left[i], right[i]
        right[lf] = i
        left[rt] = i
        p = up[i]
        while p != i:
            for q in backwards[owner[p]]:
                if q != p:
                    u, d = up[q], down[q]
                    down[u] = q
                    up[d] = q
                    size[top[q]] += 1
            p = up[p]

    def take(x: int) -> None:       # choose the option of node x: cover its other items
        for q in members[owner[x]]:
            if q != x:
                cover_item(top[q])

    def untake(x: int) -> None:
        for q in backwards[owner[x]]:
            if q != x:
                uncover_item(top[q])

    chosen: list[int] = []           # the node chosen at each level
    nodes = 0
    try:
        while True:
            # A new search node: a solution, a dead end, or a branch on the tightest item.
            nodes += 1
            if stop is not None and not nodes & (_CLOCK_EVERY - 1) and stop():
                raise LimitReached("dlx: limit reached during the search")
            descended = False
            i = right[root]
            if i == root:
                yield [owner[x] for x in chosen]
            else:
                best = size[i]
                j = right[i]
                while best > 1 and j != root:
                    if size[j] < best:
                        i, best = j, size[j]
                    j = right[j]
                if best:
                    cover_item(i)
                    x = down[i]
                    chosen.append(x)
                    take(x)
                    descended = True
            # Backtrack: the next option of the deepest item that has one left.
            while not descended and chosen:
                x = chosen.pop()
                untake(x)
                i = top[x]
                x = down[x]
                if x != i:
                    chosen.append(x)
                    take(x)
                    descended = True
                else:
                    uncover_item(i)
            if not descended:
                return
    finally:
        if counters is not None:
            counters["nodes"] = nodes


# --- the backend -------------------------------------------------------------------

class DlxSolver:
    """Exact cover (Algorithm X on dancing links) with exact counting.

    Its one option, ``max_states``, is the memory guard (see
    :func:`~nonolab.solvers.size.refuse_beyond`).  Every cover found is turned into a picture and verified;
    the count is exact when the search space is exhausted.  Meant for small
    puzzles: see the module notes and ``models/exact_cover.md``.

    >>> DlxSolver().name
    'dlx'
    """

    name = "dlx"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.REPRODUCIBLE})  # a plain, seedless search
    OPTIONS = (max_states_option(MAX_STATES),)
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    max_states: int | None

    def __init__(self, **options: Any):
        settle(self, options)  # max_states

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Enumerate the exact covers of ``puzzle`` within ``limits``.

        >>> p = Puzzle(rows=((2,), (1,)), columns=((1,), (2,)))
        >>> r = DlxSolver().solve(p, Limits(max_solutions=None))
        >>> r.count, r.complete, str(r.solution)
        (1, True, '##\\n.#')
        """
        watch = Budget.of(limits)
        accept(self, puzzle, given)  # a hint only: it takes no given cells
        refuse_beyond(self.name, puzzle, self.max_states)
        counters: dict[str, int] = {"nodes": 0}
        return collect(self.name, puzzle, limits, watch, _pictures(puzzle, watch, counters), counters)


# Freeing the links of a large cover takes time too (0.23 s for Gettys' 1.9 million
# option entries, measured): the search stops early by that much per entry, so that
# the whole solve, teardown included, ends within its time limit.
_FREE_SECONDS_PER_ENTRY = 1.5e-7


def _pictures(puzzle: Puzzle, watch: Budget, counters: dict[str, int]) -> Iterator[Solution]:
    # Encoding happens inside the iteration, so that a deadline passed while encoding
    # is a LimitReached like one passed while searching.
    cover = encode(puzzle, watch.expired)
    entries = sum(map(len, cover.options))
    counters.update(primary_items=cover.primary, secondary_items=cover.secondary,
                    options=len(cover.options), option_entries=entries)
    stop_at = None if watch.deadline is None else watch.deadline - entries * _FREE_SECONDS_PER_ENTRY

    def stop() -> bool:
        return watch.cancelled() or (stop_at is not None and time.perf_counter() >= stop_at)

    search = exact_covers(cover, stop, counters)
    try:
        for chosen in search:
            yield cover.picture(chosen)
    finally:
        search.close()      # records its node count now, not when it is collected
