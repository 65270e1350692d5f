"""A bounded memo of line-solver answers; contradictions are cached like successes.

Probing re-solves the same (clue, partial line) pairs over and over: published
solvers see hit rates of 80-90 % (pbnsolve), and the cache turns a repeated line
into a hash and a compare.  The table is direct-mapped (a new entry overwrites the
slot it hashes to): no bookkeeping on a hit, and the hot entries come back at once.

:func:`cached_line_fix` is the compiled entry point the propagation calls;
:class:`LineCache` owns the arrays and reports hits and misses.
"""

from __future__ import annotations

import numpy as np

from nonolab.solvers.native.bundles import STRATEGY, CacheTable
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.strategies import N_STRATEGIES, strategy_fix

# Statistics slots shared by the engine's kernels (an int64 array), and one slot of
# engine state that lives beside them: the line a paused propagation goes on from.
LINE_SOLVES, CACHE_HITS, PROBES, NODES, MAX_DEPTH, ROUNDS, STEP_ID, RESUME_AT = range(8)
N_STATS = 8
_HASH_MASK = (1 << 53) - 1


@jit
def cached_line_fix(n, clue_id, c0, k, lines, update):
    """The line strategy of ``lines.work`` (:func:`strategy_fix`) through ``lines.cache``.

    Solves ``lines.line[0:n]`` for the blocks ``c0 .. c0+k-1`` of ``lines.clues.data``
    into ``lines.out``, with the contract of :func:`~nonolab.solvers.native.line.line_fix`
    (1 ok, 0 contradiction).  ``lines.windows`` are the blocks' start ranges (see
    ``line_fix``), narrowed by a real DP solve when ``update`` is set; a hit leaves
    them as they are.  Entries are keyed by (clue, strategy, line), so strategies
    never share answers even if one table served several.
    """
    line, out, work, stats = lines.line, lines.out, lines.work, lines.stats
    clue, win_lo, win_hi = lines.clues.data, lines.windows.lo, lines.windows.hi
    table = lines.cache
    keys, results = table.keys, table.results
    slots = table.lengths.shape[0]
    if slots == 0 or n > keys.shape[1]:
        stats[LINE_SOLVES] += 1
        return strategy_fix(line, n, clue, c0, k, out, work, win_lo, win_hi, update)
    tag = clue_id * N_STRATEGIES + work.params[STRATEGY]
    # A polynomial hash kept below 2**53, so it never overflows int64, compiled or not.
    h = tag + 1
    for i in range(n):
        h = (h * 131 + int(line[i]) + 1) & _HASH_MASK
    slot = (h ^ (h >> 20)) & (slots - 1)
    hashed = h
    if table.tags[slot] == tag and table.lengths[slot] == n and table.hashes[slot] == hashed:
        same = True
        for i in range(n):
            if keys[slot, i] != line[i]:
                same = False
                break
        if same:
            stats[CACHE_HITS] += 1
            if table.ok[slot] == 0:
                return 0
            for i in range(n):
                out[i] = results[slot, i]
            return 1
    stats[LINE_SOLVES] += 1
    ok = strategy_fix(line, n, clue, c0, k, out, work, win_lo, win_hi, update)
    table.tags[slot] = tag
    table.lengths[slot] = n
    table.hashes[slot] = hashed
    table.ok[slot] = ok
    for i in range(n):
        keys[slot, i] = line[i]
        if ok:
            results[slot, i] = out[i]
    return ok


class LineCache:
    """The cache's arrays: ``slots`` entries of lines up to ``max_length`` cells.

    ``slots`` is rounded down to a power of two; 0 disables caching.  Memory is about
    ``2 * slots * max_length`` bytes, so callers size it from a budget
    (:meth:`for_budget`).
    """

    def __init__(self, slots: int, max_length: int):
        if slots < 0 or max_length < 0:
            raise ValueError("LineCache: slots and max_length must be non-negative")
        slots = 1 << (slots.bit_length() - 1) if slots else 0
        width = max_length if slots else 0
        self.table = CacheTable(keys=np.zeros((slots, width), np.uint8), lengths=np.full(slots, -1, np.int64),
                                tags=np.full(slots, -1, np.int64), hashes=np.zeros(slots, np.int64),
                                results=np.zeros((slots, width), np.uint8), ok=np.zeros(slots, np.uint8))

    @classmethod
    def for_budget(cls, max_length: int, budget_bytes: int = 32 << 20, max_slots: int = 1 << 16) -> "LineCache":
        """As many slots as fit in ``budget_bytes`` (at most ``max_slots``)."""
        slots = min(max_slots, budget_bytes // max(1, 2 * max_length + 32))
        return cls(max(slots, 0), max_length)

    @property
    def slots(self) -> int:
        return int(self.table.lengths.shape[0])
