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
LINE, CONTRADICTION_PROBE, BOTH_BRANCHES_AGREE, GUESS = 0, 1, 2, 3


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
def propagate(cells, h, w, puzzle, dirty, work, cache, stats, line, out, rec, recn, log, logn, limit):
    """Propagate from the lines flagged in ``dirty`` (rows 0..h-1, then columns).

    Narrows ``cells`` in place; returns 1 at the fixpoint, 0 on a contradiction (the
    cells are then partly narrowed: callers undo them from ``rec``).  Every changed
    cell is appended to ``rec`` (when it has room) and, with a non-empty ``log``, to
    the event log as a LINE step of its row or column.  ``dirty`` is all zero after.
    With ``limit >= 0``, returns 2 after that many line solves, with the lines still
    to do left in ``dirty``: calling again goes on (how long runs report progress).
    """
    clue_data, line_start, clue_id = puzzle
    logging = log.shape[0] > 0
    solved = 0
    while True:
        stats[ROUNDS] += 1
        for r in range(h):
            if dirty[r] == 0:
                continue
            if limit >= 0 and solved >= limit:
                return 2
            solved += 1
            dirty[r] = 0
            base = r * w
            for i in range(w):
                line[i] = cells[base + i]
            c0 = line_start[r]
            if cached_line_fix(line, w, clue_id[r], clue_data, c0, line_start[r + 1] - c0,
                               out, work, cache, stats) == 0:
                for i in range(h + w):
                    dirty[i] = 0
                return 0
            step = -1
            for i in range(w):
                if out[i] != line[i]:
                    if logging and step < 0:
                        stats[STEP_ID] += 1
                        step = stats[STEP_ID]
                    record(cells, base + i, out[i], rec, recn, log, logn, step, LINE, r)
                    dirty[h + i] = 1
        again = False
        for c in range(w):
            if dirty[h + c] == 0:
                continue
            if limit >= 0 and solved >= limit:
                return 2
            solved += 1
            dirty[h + c] = 0
            for i in range(h):
                line[i] = cells[i * w + c]
            c0 = line_start[h + c]
            if cached_line_fix(line, h, clue_id[h + c], clue_data, c0, line_start[h + c + 1] - c0,
                               out, work, cache, stats) == 0:
                for i in range(h + w):
                    dirty[i] = 0
                return 0
            step = -1
            for i in range(h):
                if out[i] != line[i]:
                    if logging and step < 0:
                        stats[STEP_ID] += 1
                        step = stats[STEP_ID]
                    record(cells, i * w + c, out[i], rec, recn, log, logn, step, LINE, h + c)
                    dirty[i] = 1
                    again = True
        if not again:
            return 1
