"""Line propagation to a fixpoint: sweep the dirty rows, then the dirty columns, repeat.

Round-based sweeps need about ten times fewer line solves than popping one line at a
time (measured; docs/algorithms.md §2): a line is solved once per round
however many of its cells changed in the previous one.  The whole loop is compiled:
a propagation never returns to Python between lines.
"""

from __future__ import annotations

from nonolab.solvers.native.bundles import LOG_CELL, LOG_SOURCE, LOG_STEP, LOG_TECHNIQUE, LOG_VALUE, STRATEGY
from nonolab.solvers.native.cache import RESUME_AT, ROUNDS, STEP_ID, cached_line_fix
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.strategies import DP

# Techniques, as recorded in the engine's event log (see steps.py for the names).
LINE, CONTRADICTION_PROBE, BOTH_BRANCHES_AGREE, GUESS, DEPTH2_PROBE = 0, 1, 2, 3, 4


@jit
def record(cells, index, value, rec, log, step, technique, source):
    """Set one cell, remembering it on ``rec`` (a trail or a trial's touched cells,
    when it has room) and in the event ``log`` (when it has rows)."""
    cells[index] = value
    if rec.cells.shape[0] > 0:
        rec.cells[rec.n[0]] = index
        rec.n[0] += 1
    rows = log.rows
    if rows.shape[0] > 0:
        i = log.n[0]
        rows[i, LOG_STEP] = step
        rows[i, LOG_TECHNIQUE] = technique
        rows[i, LOG_SOURCE] = source
        rows[i, LOG_CELL] = index
        rows[i, LOG_VALUE] = 1 if value == 2 else 0
        log.n[0] = i + 1


# A trimmed line is cached under its clue and its open blocks: (clue id, b1, b2) in one
# int64 kept far below 2**53 (the cache's hash multiplies it): 4096 blocks per line at most.
_KEY_BLOCKS = 1 << 12


# A line's span of changed cells when it has none (lines.span[0] > lines.span[1]).
NO_SPAN = 1 << 30


@jit
def mark(lines, line, pos):
    """Flag line ``line`` to be solved: its cell ``pos`` changed (see :func:`open_segment`)."""
    lines.dirty[line] = 1
    span = lines.span
    if pos < span[0, line]:
        span[0, line] = pos
    if pos > span[1, line]:
        span[1, line] = pos


@jit
def mark_cell(lines, p, h, w):
    """Flag the row and the column of cell ``p`` (set outside a line solve: a guess, a probe)."""
    r = p // w
    c = p - r * w
    mark(lines, r, c)
    mark(lines, h + c, r)


@jit
def mark_all(lines, count):
    """Flag every line, every cell of it (the root)."""
    for i in range(count):
        lines.dirty[i] = 1
        lines.span[0, i] = 0
        lines.span[1, i] = NO_SPAN


@jit
def clear_marks(lines, count):
    """Flag no line (after a contradiction)."""
    for i in range(count):
        lines.dirty[i] = 0
        lines.span[0, i] = NO_SPAN
        lines.span[1, i] = -1


@jit
def open_segment(index, n, clues, windows, first, last, cuts):
    """The part of line ``index`` a solve must read when only its cells ``first..last``
    changed since its last solve: ``(b1, b2, lo, hi)``, blocks ``b1..b2-1`` in cells
    ``[lo, hi)``; ``b1 < 0`` when the line is decided there and a solve could not change it.

    The windows hold every valid start of every block in this state (a solve narrowed
    them in a state this one narrows), so where block ``b-1``'s latest end falls before
    block ``b``'s earliest start the line is cut in two: the cells between are empty in
    every arrangement (decided by the solve that narrowed the windows) and the blocks on
    either side are arranged independently.  A part none of whose cells changed since
    the line's last solve is as that solve left it, at its own fixpoint.  So the part
    solved is the one between the cuts around the changed cells, from its first block's
    earliest start to its last block's latest end, less the blocks at its ends pinned to
    one start (decided, with the separators next to them).  Lines whose windows no solve
    has narrowed (``windows.narrowed``) are open whole: a static window of a line without
    slack is one start too, but nothing has decided its cells yet.

    Without ``cuts`` the changed cells are not looked at and the part is the line less
    its pinned ends: the search of the cuts is a pass over the blocks, worth it in a
    windows-narrowing propagation (the root's first), where nearly every visit is a DP
    solve, but not in probing and search, where most visits are cache hits (8-25 %
    slower on probing-heavy puzzles, measured).
    """
    clue_data, line_start = clues.data, clues.starts
    win_lo, win_hi = windows.lo, windows.hi
    c0 = line_start[index]
    k = line_start[index + 1] - c0
    if windows.narrowed[index] == 0 or k >= _KEY_BLOCKS:
        return 0, k, 0, n
    b1 = 0
    b2 = k
    if cuts:
        b = 1
        while b < k and win_lo[c0 + b] <= first:  # the last cut before the first changed cell
            if win_hi[c0 + b - 1] + clue_data[c0 + b - 1] < win_lo[c0 + b]:
                b1 = b
            b += 1
        for b in range(b1 + 1, k):  # the first cut after the last one
            end = win_hi[c0 + b - 1] + clue_data[c0 + b - 1]
            if end > last and end < win_lo[c0 + b]:
                b2 = b
                break
    while b1 < b2 and win_lo[c0 + b1] == win_hi[c0 + b1]:
        b1 += 1
    while b2 > b1 and win_lo[c0 + b2 - 1] == win_hi[c0 + b2 - 1]:
        b2 -= 1
    if b1 == b2:
        return -1, 0, 0, 0
    return b1, b2, win_lo[c0 + b1], win_hi[c0 + b2 - 1] + clue_data[c0 + b2 - 1]


@jit
def solve_line_at(cells, index, base, stride, n, crossing, lines, rec, log, update):
    """Solve line ``index`` (its cells at ``base + i * stride``) and write back what it fixes.

    Only the part of the line that can change (:func:`open_segment`: between the cuts
    around the cells changed since its last solve) is read, solved and written: late
    in a propagation most of a long line is decided, and the solve then costs what is
    left, not the line's length.  Flags (:func:`mark`) the crossing line
    ``crossing + i`` of every changed cell.  Returns the number of changed cells, or
    -1 on a contradiction.
    """
    line_start, clue_id = lines.clues.starts, lines.clues.ids
    windows = lines.windows
    win_lo, win_hi = windows.lo, windows.hi
    line, out, stats = lines.line, lines.out, lines.stats
    position = index if crossing > 0 else base  # its place in its crossing lines (a row's start at h)
    # The spans matter only to a windows-narrowing propagation (the root's first, which
    # starts from every line marked whole and comes before any other): only it keeps them.
    span = lines.span
    first, last = span[0, index], span[1, index]
    if update:
        span[0, index] = NO_SPAN
        span[1, index] = -1
    b1, b2, lo, hi = open_segment(index, n, lines.clues, windows, first, last, update)
    if b1 < 0:
        return 0
    m = hi - lo
    for i in range(m):
        line[i] = cells[base + (lo + i) * stride]
    c0 = line_start[index]
    k = line_start[index + 1] - c0
    if k < _KEY_BLOCKS:
        key = (clue_id[index] * _KEY_BLOCKS + b1) * _KEY_BLOCKS + b2
    else:  # never trimmed (see open_segment): a key no trimmed line has
        key = -1 - clue_id[index]
    if lo > 0:  # the open blocks' windows, relative to the open part while it is solved
        for b in range(c0 + b1, c0 + b2):
            win_lo[b] -= lo
            win_hi[b] -= lo
    ok = cached_line_fix(m, key, c0 + b1, b2 - b1, lines, update)
    if lo > 0:
        for b in range(c0 + b1, c0 + b2):
            win_lo[b] += lo
            win_hi[b] += lo
    if ok == 0:
        return -1
    if update and lines.work.params[STRATEGY] == DP:  # only the DP narrows windows, not the other strategies
        windows.narrowed[index] = 1
    changed = 0
    step = -1
    for i in range(m):
        if out[i] != line[i]:
            if log.rows.shape[0] > 0 and step < 0:
                stats[STEP_ID] += 1
                step = stats[STEP_ID]
            record(cells, base + (lo + i) * stride, out[i], rec, log, step, LINE, index)
            if update:
                mark(lines, crossing + lo + i, position)
            else:
                lines.dirty[crossing + lo + i] = 1
            changed += 1
    return changed


@jit
def propagate(cells, h, w, lines, rec, log, limit, update):
    """Propagate from the lines flagged in ``lines.dirty`` (rows 0..h-1, then columns).

    Narrows ``cells`` in place; returns 1 at the fixpoint, 0 on a contradiction (the
    cells are then partly narrowed: callers undo them from ``rec``).  Every changed
    cell is appended to the :class:`~nonolab.solvers.native.bundles.Trail` ``rec``
    (when it has room) and, when the :class:`~nonolab.solvers.native.bundles.Log`
    has rows, to the event log as a LINE step of its row or column.  ``dirty`` is
    all zero after.  With ``limit >= 0``, returns 2 after that many line solves, with
    the lines still to do left in ``dirty``: calling again goes on (how long runs
    report progress).  ``update``: narrow the blocks' start ranges ``lines.windows``
    (see :func:`line_fix`); only a propagation whose states every later state
    narrows may.
    """
    dirty, stats = lines.dirty, lines.stats
    solved = 0
    # A paused propagation goes on with the line it stopped at: starting the round
    # again would re-solve the rows before the columns they wait for (with 256-line
    # slices, 2.7 times the line solves of one uninterrupted run on a 2000x2000 grid).
    start = stats[RESUME_AT]
    stats[RESUME_AT] = 0
    while True:
        if start == 0:
            stats[ROUNDS] += 1
        for index in range(start, h + w):
            if dirty[index] == 0:
                continue
            if limit >= 0 and solved >= limit:
                stats[RESUME_AT] = index
                return 2
            solved += 1
            dirty[index] = 0
            if index < h:  # a row: its cells are consecutive, its crossing lines the columns
                changed = solve_line_at(cells, index, index * w, 1, w, h, lines, rec, log, update)
            else:
                changed = solve_line_at(cells, index, index - h, w, h, 0, lines, rec, log, update)
            if changed < 0:
                clear_marks(lines, h + w)
                return 0
        start = 0
        # Columns solved this round may have flagged rows: then another round.
        again = False
        for i in range(h):
            if dirty[i] != 0:
                again = True
                break
        if not again:
            return 1
