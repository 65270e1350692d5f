"""The row backtracking backend: place each row's blocks left to right, top to bottom.

The baseline of the "place every chunk at every position" approach: rows are filled
one after the other, each row's blocks from left to right over the starts its clue
allows, and a placement is kept only while every column it touches still reads as
the beginning of its clue.  When a block has no position left, the search goes back
to the previous block of the row, or to the last block of the previous row.

The column check is incremental and costs a lookup and a comparison per cell.  Each
column keeps the state of the automaton of its clue (the pattern
``0* 1^L1 0+ 1^L2 ... 0*``: which run it is in and how long that run is so far).
Reading a cell either moves the state on or fails, and it fails exactly when the
column's runs so far stop being a prefix of its clue: a run longer than its block,
a run closed (a white cell below it) shorter than its block, or more runs than
blocks.  A state also fails when the column cannot be completed in the rows left
below (a single comparison, see :func:`column_automaton`): a column whose remaining
runs no longer fit fails at once, and after the last row only finished columns
pass, with no separate final check.

Two cheap consequences of the left-to-right order prune further: a block that fails
at start ``s`` because a column cannot take a white cell at ``s`` fails at every later
start too (they all leave ``s`` white), so the row backs up at once; and the cells
before a block are checked once, not once per start.

No propagation, no memoisation: the search tree is that of the textbook chunk-placement baseline, and the
count is exact because every placement of every row is tried.  It is a baseline
for small puzzles, and an independent check on the other backends.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = BacktrackSolver().solve(p, Limits(max_solutions=None))
>>> result.status.value, result.count, result.complete
('solved', 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import LimitReached
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, accept, collect
from nonolab.solvers.size import refuse_beyond
from nonolab.solvers.options import max_states_option, settle

# The memory guard (see size.model_states): a baseline for small grids; it lists every
# placement of each row first.
MAX_STATES = 200_000

__all__ = ["BacktrackSolver", "column_automaton", "picture", "row_fillings"]

_CLOCK_EVERY = 512  # block starts tried between two looks at the clock (a power of two)
_DEAD = -(1 << 62)  # below every floor, so that one comparison rejects it


def column_automaton(clue: Clue, height: int) -> tuple[list[int], int]:
    """The automaton of a column's clue, as a step table and a floor for completability.

    State ``q`` is the position in the pattern ``0 1^L1 0 1^L2 0 ... 1^Lk 0`` (there
    are ``sum(clue) + len(clue) + 1`` states): gap states loop on a white cell, block
    states must continue their block.  States are stored doubled, so that the state
    after reading value ``v`` (0 or 1) in state ``2q`` is ``step[2q + v]`` (again
    doubled), or a large negative number when the clue is violated.

    Completability is one comparison: from state ``q`` the clue is finished after
    exactly ``last - 1 - q`` more cells (``last`` the final gap; the last cell of the
    last block and the final gap accept), as each pattern position is passed once.
    So after row ``r`` of ``height``, with ``height - 1 - r`` rows below, the column
    can still be completed if and only if its doubled state is at least
    ``floor + 2 * r``, with ``floor = 2 * (last - height)``; and after the last row
    this admits exactly the accepting states.

    Returns:
        ``(step, floor)``.

    >>> step, floor = column_automaton((1,), 2)         # states 0 (gap), 1 (block), 2 (gap)
    >>> step[0 + 1], step[2 + 1] < 0, step[2 + 0], floor
    (2, True, 4, 0)
    """
    pattern = [0]                       # pattern[q]: the value that leads into state q
    for block in clue:
        pattern += [1] * block + [0]
    last = len(pattern) - 1
    step = [_DEAD] * (2 * len(pattern))
    for q, value in enumerate(pattern):
        nxt = pattern[q + 1] if q < last else None
        if value == 0:
            step[2 * q] = 2 * q                 # a gap may grow
            if nxt == 1:
                step[2 * q + 1] = 2 * (q + 1)   # the next block begins
        elif nxt is not None:
            step[2 * q + nxt] = 2 * (q + 1)     # the block goes on, or ends with a white cell
    return step, 2 * (last - height)


def _latest_starts(clue: Clue, width: int) -> list[int]:
    """The last start of each block: the blocks after it packed against the right edge."""
    slack = width - (sum(clue) + len(clue) - 1)
    out, lo = [], 0
    for block in clue:
        out.append(lo + slack)
        lo += block + 1
    return out


def row_fillings(puzzle: Puzzle, stop: Callable[[], bool] | None = None,
                 counters: dict[str, int] | None = None) -> Generator[list[tuple[int, ...]], None, None]:
    """Every solution, as the starts of the blocks of each row, in lexicographic order.

    Args:
        puzzle: the puzzle.
        stop: looked at every few hundred placements; when it returns true the
            search ends with :class:`~nonolab.errors.LimitReached`.
        counters: if given, ``counters["placements"]`` counts the block starts tried
            and ``counters["rows"]`` the rows completed (including re-completions).

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> list(row_fillings(p))
    [[(0,), (1,)], [(1,), (0,)]]
    """
    h, w = puzzle.height, puzzle.width
    automata = [column_automaton(clue, h) for clue in puzzle.columns]
    table = [step for step, _ in automata]
    floor = [f for _, f in automata]
    # states[r] holds every column's state before row r; row r writes states[r + 1].
    # Only cells of the row being filled are rewritten, so backing up needs no undo.
    states = [[0] * w for _ in range(h + 1)]
    # The search runs over the blocks of all rows in order.  A row with an empty clue
    # is one block of length 0 at start 0, which leaves the whole row white.
    steps: list[tuple[int, int, int, bool]] = []    # (row, length, latest start, row's last?)
    for r, clue in enumerate(puzzle.rows):
        if not clue:
            steps.append((r, 0, 0, True))
        for i, latest in enumerate(_latest_starts(clue, w)):
            steps.append((r, clue[i], latest, i == len(clue) - 1))
    n = len(steps)
    starts = [0] * n
    tried = rows_done = 0

    def place(g: int, s: int) -> int:
        """The first start >= s at which block g fits, its cells written; -1 if none.

        On entry the cells of the row from the end of the previous block up to
        ``s - 1`` are white, checked and written.
        """
        nonlocal tried
        r, length, latest, last = steps[g]
        before, after = states[r], states[r + 1]
        r2 = 2 * r
        while s <= latest:
            tried += 1
            if stop is not None and not tried & (_CLOCK_EVERY - 1) and stop():
                raise LimitReached("backtrack: limit reached during the search")
            end = s + length
            blocked = -1                            # a cell of the block that cannot be filled
            for c in range(s, end):
                q = table[c][before[c] + 1]
                if q < floor[c] + r2:
                    blocked = c
                    break
                after[c] = q
            if blocked < 0:
                if not last:
                    return s
                for c in range(end, w):             # the rest of the row is white
                    q = table[c][before[c]]
                    if q < floor[c] + r2:
                        break
                    after[c] = q
                else:
                    return s
            # Move on: the cells up to the next start turn white.  Every start up to
            # a blocked cell would cover it, so the next start is past it.  If a
            # column cannot take a white cell here, no later start can help either:
            # every one leaves that cell white.
            nxt = blocked + 1 if blocked >= 0 else s + 1
            for c in range(s, nxt):
                q = table[c][before[c]]
                if q < floor[c] + r2:
                    return -1
                after[c] = q
            s = nxt
        return -1

    def first_start(g: int) -> int:
        r = steps[g][0]
        if g == 0 or steps[g - 1][0] != r:
            return place(g, 0)
        gap = starts[g - 1] + steps[g - 1][1]       # the white cell after the previous block
        q = table[gap][states[r][gap]]
        if q < floor[gap] + 2 * r:
            return -1
        states[r + 1][gap] = q
        return place(g, gap + 1)

    def next_start(g: int) -> int:
        r, _, latest, _ = steps[g]
        s = starts[g]
        if s >= latest:
            return -1
        q = table[s][states[r][s]]                  # the old start turns white
        if q < floor[s] + 2 * r:
            return -1
        states[r + 1][s] = q
        return place(g, s + 1)

    g = 0
    forward = True
    try:
        while True:
            if forward:
                if g == n:
                    yield _by_row(starts, steps, h)
                    forward = False
                    continue
                s = first_start(g)
            else:
                g -= 1                              # back up to the previous block
                if g < 0:
                    return
                s = next_start(g)
            if s >= 0:
                starts[g] = s
                rows_done += steps[g][3]
                g += 1
                forward = True
            else:
                forward = False
    finally:
        if counters is not None:
            counters.update(placements=tried, rows=rows_done)


def _by_row(starts: list[int], steps: list[tuple[int, int, int, bool]], height: int) -> list[tuple[int, ...]]:
    rows: list[list[int]] = [[] for _ in range(height)]
    for (r, length, _, _), s in zip(steps, starts):
        if length:
            rows[r].append(s)
    return [tuple(x) for x in rows]


def picture(puzzle: Puzzle, starts: Sequence[Sequence[int]]) -> Solution:
    """The picture given by the starts of each row's blocks.

    >>> p = Puzzle(rows=((1,), (2,)), columns=((1,), (2,)))
    >>> str(picture(p, [(1,), (0,)]))
    '.#\\n##'
    """
    w = puzzle.width
    cells = bytearray(w * puzzle.height)
    for r, (clue, row_starts) in enumerate(zip(puzzle.rows, starts)):
        for block, s in zip(clue, row_starts):
            cells[r * w + s:r * w + s + block] = b"\x01" * block
    return Solution.from_bytes(bytes(cells), w)


class BacktrackSolver:
    """Row-by-row, block-by-block backtracking with exact counting (the chunk-placement baseline).

    Its one option, ``max_states``, is the memory guard (see
    :func:`~nonolab.solvers.size.refuse_beyond`).  Every solution is verified; the count is exact when every
    placement has been tried.  Practical on small puzzles only: see the module notes.

    >>> BacktrackSolver().name
    'backtrack'
    """

    name = "backtrack"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.REPRODUCIBLE})  # a plain, seedless search
    OPTIONS = (max_states_option(MAX_STATES),)
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    max_states: int | None

    def __init__(self, **options: Any):
        settle(self, options)  # max_states

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Enumerate the solutions of ``puzzle`` within ``limits``.

        >>> p = Puzzle(rows=((2,), (1,)), columns=((1,), (2,)))
        >>> r = BacktrackSolver().solve(p, Limits(max_solutions=None))
        >>> r.count, r.complete, str(r.solution)
        (1, True, '##\\n.#')
        """
        watch = Budget.of(limits)
        accept(self, puzzle, given)  # a hint only: it takes no given cells
        refuse_beyond(self.name, puzzle, self.max_states)
        counters: dict[str, int] = {"placements": 0, "rows": 0}
        return collect(self.name, puzzle, limits, watch, _pictures(puzzle, watch.expired, counters), counters)


def _pictures(puzzle: Puzzle, stop: Callable[[], bool], counters: dict[str, int]) -> Iterator[Solution]:
    search = row_fillings(puzzle, stop, counters)
    try:
        for starts in search:
            yield picture(puzzle, starts)
    finally:
        search.close()      # records its counters now, not when it is collected
