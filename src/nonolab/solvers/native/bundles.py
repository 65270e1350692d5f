"""The named bundles of arrays the native engine's compiled kernels take.

Numba compiles attribute access on named tuples of arrays to the same code as a
positional argument, so the kernels take a few named structures rather than two
dozen arrays by position, and read ``lines.windows.lo`` where they once read
``windows[0]``.  A bundle is made once per solve (:class:`~nonolab.solvers.native.search.Workspace`)
and its arrays change in place; the tuples themselves never change.

Slots of the small state arrays are named here too (``state[PHASE]``,
``cursor[NEXT_CELL]``), as the statistics slots are in :mod:`~nonolab.solvers.native.cache`.

>>> import numpy as np
>>> trail = Trail(np.zeros(4, np.int32), np.zeros(1, np.int64))
>>> trail.cells.shape, int(trail.n[0])
((4,), 0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# The search's state array: the depth, the phase (search.ROOT, NODE or BACKTRACK), and
# whether the current node's propagation or probing was paused and must go on.
DEPTH, PHASE, NODE_PAUSED = 0, 1, 2
# The cursor of a probing sweep (Probes.cursor): the next cell, whether this sweep has
# learnt something, the sweeps begun, and whether a probing is under way (0: start anew).
NEXT_CELL, LEARNT, SWEEPS, ACTIVE = 0, 1, 2, 3
# The cursor of depth-2 probing (Space.cursor): the next cell, the cells tried since the
# last deduction (a whole round of them is the fixpoint), and whether full probing runs first.
DEEP_NEXT, DEEP_QUIET, DEEP_FULL_FIRST = 0, 1, 2
# The line strategy's parameters (LineWork.params): its code and the enumeration cap.
STRATEGY, CAP = 0, 1
# The columns of the event log (Log.rows): the step a row belongs to, its technique
# (propagate.LINE, ...), its source (a line, or a cell; a negative cell for a second
# branch), the cell set and its value (1 filled, 0 empty).
LOG_STEP, LOG_TECHNIQUE, LOG_SOURCE, LOG_CELL, LOG_VALUE = 0, 1, 2, 3, 4
LOG_COLUMNS = 5


class Clues(NamedTuple):
    """Every line's clue: rows first, then columns."""

    data: np.ndarray    # int32: the blocks of every line, one after another
    starts: np.ndarray  # int64 (lines + 1): line i's blocks are data[starts[i]:starts[i + 1]]
    ids: np.ndarray     # int64: per line, a number shared by the lines with the same clue (the cache key)


class Windows(NamedTuple):
    """Each block's start range, indexed like ``Clues.data`` (see ``line.line_fix``)."""

    lo: np.ndarray        # int32: earliest start
    hi: np.ndarray        # int32: latest start
    narrowed: np.ndarray  # uint8 per line: a solve has narrowed its windows (propagate.open_segment)


class LineWork(NamedTuple):
    """The work arrays of one line solve (``strategies.line_work`` makes them)."""

    kw: np.ndarray      # int32 (n+1): known-empty cells in each prefix
    kb: np.ndarray      # int32 (n+1): known-filled cells in each prefix
    off: np.ndarray     # int32 (k+2): where each gap's row of the DP tables starts
    glo: np.ndarray     # int32 (k+2): each gap's first prefix length
    fwd: np.ndarray     # uint8: the forward DP table
    bwd: np.ndarray     # uint8: the backward DP table
    diff: np.ndarray    # int32 (n+1): coverage differences of the valid block starts
    params: np.ndarray  # int64: params[STRATEGY], params[CAP]
    labels: np.ndarray  # uint8 (n+1): the rule that decided each cell (rule strategies)
    scratch: np.ndarray  # uint8 (n+1): a working copy of the line (rule strategies)


class CacheTable(NamedTuple):
    """The line cache's direct-mapped table (``cache.LineCache``); no slots: no cache."""

    keys: np.ndarray      # uint8 (slots, longest): the line of each slot
    lengths: np.ndarray   # int64: its length (-1: empty slot)
    tags: np.ndarray      # int64: its clue id and strategy (-1: empty slot)
    hashes: np.ndarray    # int64: its hash
    results: np.ndarray   # uint8 (slots, longest): the narrowed line
    ok: np.ndarray        # uint8: 0 when the line was a contradiction


class Lines(NamedTuple):
    """Everything a propagation needs besides the grid it narrows and where it records."""

    clues: Clues
    windows: Windows
    work: LineWork
    cache: CacheTable
    stats: np.ndarray   # int64: the counters of cache.py (LINE_SOLVES, ...)
    dirty: np.ndarray   # uint8 (h + w): the lines to solve (rows first)
    span: np.ndarray    # int32 (2, h + w): per line, its first and last cell changed since its last solve
    line: np.ndarray    # uint8 (longest): the open part of the line being solved
    out: np.ndarray     # uint8 (longest): what the solve narrowed it to


class Trail(NamedTuple):
    """The cells set, in order: the search's trail, or the cells a probing trial touched."""

    cells: np.ndarray  # int32: cell indices (size 0: record nothing)
    n: np.ndarray      # int64 (1): how many


class Log(NamedTuple):
    """The event log (one row per cell set: step, technique, source, cell, value)."""

    rows: np.ndarray  # int32 (cells, LOG_COLUMNS); no rows: no log
    n: np.ndarray     # int64 (1): rows written


class Probes(NamedTuple):
    """The work arrays of one level of probing (``probe.probe``)."""

    scratch0: np.ndarray  # uint8 (cells): the grid of the trial with the cell empty
    scratch1: np.ndarray  # uint8 (cells): and with it filled
    touched0: Trail       # the cells each trial set
    touched1: Trail
    mark: np.ndarray      # int64 (cells): the stamp of the cells the first trial touched
    stamp: np.ndarray     # int64 (1): the current stamp
    agree: np.ndarray     # int64 (cells): cells both trials set alike, as cell * 4 + value
    score0: np.ndarray    # int32 (cells): per unknown cell, the cells its empty branch decides
    score1: np.ndarray    # int32 (cells): and its filled branch
    cursor: np.ndarray    # int64 (4): the sweep of a paused probing (NEXT_CELL, ...)


class Levels(NamedTuple):
    """Per search depth: where to undo to, the branch cell and its second value."""

    trail: np.ndarray   # int64: the trail's length before the level's guess
    log: np.ndarray     # int64: the log's length before it
    cell: np.ndarray    # int64: the cell branched on
    second: np.ndarray  # uint8: the value of its second branch
    tried: np.ndarray   # uint8: 1 once the second branch has been entered


class Space(NamedTuple):
    """Everything the compiled search works on (``search.search_run``)."""

    cells: np.ndarray  # uint8 (h * w): the grid, one state mask per cell (1 empty, 2 filled, 3 unknown)
    lines: Lines       # propagation with the line cache
    no_cache: CacheTable  # no slots: the first propagation from the empty grid goes without the cache
    trail: Trail
    log: Log
    probes: Probes
    inner: Probes      # the probes inside depth-2 trials (no cells unless depth-2 probing)
    levels: Levels
    state: np.ndarray   # int64 (3): DEPTH, PHASE, NODE_PAUSED
    cursor: np.ndarray  # int64 (3): the depth-2 sweep (DEEP_NEXT, ...)
