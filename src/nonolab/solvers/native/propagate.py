"""Line propagation to a fixpoint: sweep the dirty rows, then the dirty columns, repeat.

Round-based sweeps need about ten times fewer line solves than popping one line at a
time (measured in ../shared/docs/algorithms.md §1.8): a line is solved once per round
however many of its cells changed in the previous one.  The whole loop is compiled:
a propagation never returns to Python between lines.
"""

from __future__ import annotations

from nonolab.solvers.native.cache import ROUNDS, STEP_ID, cached_line_fix
from nonolab.solvers.native.jit import jit

# Techniques, as recorded in the engine's event log (see steps.py for the names).
LINE, CONTRADICTION_PROBE, BOTH_BRANCHES_AGREE, GUESS, DEPTH2_PROBE = 0, 1, 2, 3, 4


@jit
def record(cells, index, value, rec, recn, log, logn, step, technique, source):
    """Set one cell, remembering it on the trail/touched list and in the event log."""
    cells[index] = value
    if rec.shape[0] > 0:
        rec[recn[0]] = index
        recn[0] += 1
    if log.shape[0] > 0:
        i = logn[0]
        log[i, 0] = step
        log[i, 1] = technique
        log[i, 2] = source
        log[i, 3] = index
        log[i, 4] = 1 if value == 2 else 0
        logn[0] = i + 1


@jit
def solve_line_at(cells, index, base, stride, n, crossing, puzzle, dirty, work, cache, stats, line, out,
                  rec, recn, log, logn, windows, update):
    """Solve line ``index`` (its cells at ``base + i * stride``) and write back what it fixes.

    Flags the crossing line ``crossing + i`` of every changed cell as dirty.  Returns
    the number of changed cells, or -1 on a contradiction.
    """
    clue_data, line_start, clue_id = puzzle
    for i in range(n):
        line[i] = cells[base + i * stride]
    c0 = line_start[index]
    if cached_line_fix(line, n, clue_id[index], clue_data, c0, line_start[index + 1] - c0,
                       out, work, cache, stats, windows, update) == 0:
        return -1
    changed = 0
    step = -1
    for i in range(n):
        if out[i] != line[i]:
            if log.shape[0] > 0 and step < 0:
                stats[STEP_ID] += 1
                step = stats[STEP_ID]
            record(cells, base + i * stride, out[i], rec, recn, log, logn, step, LINE, index)
            dirty[crossing + i] = 1
            changed += 1
    return changed


@jit
def propagate(cells, h, w, puzzle, dirty, work, cache, stats, line, out, rec, recn, log, logn, limit,
              windows, update):
    """Propagate from the lines flagged in ``dirty`` (rows 0..h-1, then columns).

    Narrows ``cells`` in place; returns 1 at the fixpoint, 0 on a contradiction (the
    cells are then partly narrowed: callers undo them from ``rec``).  Every changed
    cell is appended to ``rec`` (when it has room) and, with a non-empty ``log``, to
    the event log as a LINE step of its row or column.  ``dirty`` is all zero after.
    With ``limit >= 0``, returns 2 after that many line solves, with the lines still
    to do left in ``dirty``: calling again goes on (how long runs report progress).
    ``windows``/``update``: the blocks' start ranges, see :func:`line_fix`; only a
    propagation whose states every later state narrows may ``update`` them.
    """
    solved = 0
    while True:
        stats[ROUNDS] += 1
        again = False
        for index in range(h + w):
            if dirty[index] == 0:
                continue
            if limit >= 0 and solved >= limit:
                return 2
            solved += 1
            dirty[index] = 0
            if index < h:  # a row: its cells are consecutive, its crossing lines the columns
                changed = solve_line_at(cells, index, index * w, 1, w, h, puzzle, dirty, work, cache, stats,
                                        line, out, rec, recn, log, logn, windows, update)
            else:
                changed = solve_line_at(cells, index, index - h, w, h, 0, puzzle, dirty, work, cache, stats,
                                        line, out, rec, recn, log, logn, windows, update)
                again = again or changed > 0  # rows were flagged: another round
            if changed < 0:
                for i in range(h + w):
                    dirty[i] = 0
                return 0
        if not again:
            return 1
