"""Probing: try each value of each unknown cell, propagate, and learn from the outcome.

* ``contradiction`` (depth-1 contradiction probing): if one value of a cell leads to
  a contradiction, the cell takes the other value.
* ``full`` (Wu et al. 2013, "fully probing"): as above, and when both values are
  consistent, every cell the two branches set identically is fixed too.
* ``depth-2``: full probing to its fixpoint, then probes whose trials themselves
  run contradiction probing (a probe inside each probe): a value is refuted when
  propagation plus one level of probing refutes it, and cells both such trials
  agree on are fixed.  Far costlier; it grades puzzles between probing and search.

Both repeat until a whole sweep over the unknown cells learns nothing.  The number of
cells each value decides is kept as the cell's score, which search uses to branch.
A sweep runs entirely compiled: each trial propagates on a scratch copy of the grid
and is undone from the list of cells it touched, so a probe costs what it changes,
not the size of the grid.
"""

from __future__ import annotations

import math

from nonolab.solvers.native.cache import PROBES, STEP_ID
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.modes import Probing  # noqa: F401  (re-exported)
from nonolab.solvers.native.propagate import BOTH_BRANCHES_AGREE, CONTRADICTION_PROBE, DEPTH2_PROBE, propagate, record


@jit
def _trial(scratch, p, value, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, touched, count,
           no_log, logn, windows):
    """Set cell ``p`` of the scratch grid and propagate, recording what it touches."""
    count[0] = 0
    scratch[p] = value
    dirty[r] = 1
    dirty[h + c] = 1
    stats[PROBES] += 1
    return propagate(scratch, h, w, puzzle, dirty, work, cache, stats, line, out, touched, count, no_log, logn,
                     -1, windows, False)


@jit
def _undo(scratch, cells, touched, count, p):
    for i in range(count):
        scratch[touched[i]] = cells[touched[i]]
    scratch[p] = cells[p]


@jit
def _sync(scratch0, scratch1, cells, trail, start, end):
    for i in range(start, end):
        x = trail[i]
        scratch0[x] = cells[x]
        scratch1[x] = cells[x]


@jit
def _agreement(scratch0, scratch1, t0, n0, t1, n1, mark, stamp, agree):
    """Cells both trials set, to the same value, into ``agree`` (as cell * 4 + value); their number."""
    stamp[0] += 1
    for i in range(n0):
        mark[t0[i]] = stamp[0]
    agreed = 0
    for i in range(n1):
        x = t1[i]
        if mark[x] == stamp[0] and scratch0[x] == scratch1[x]:
            agree[agreed] = x * 4 + scratch0[x]
            agreed += 1
    return agreed


@jit
def _learn(cells, p, ok0, ok1, agree, agreed, h, w, dirty, stats, trail, trailn, log, logn,
           refuted, agreeing):
    """Record what probing cell ``p`` proved, as one step: the other value of a
    refuted one (technique ``refuted``), or the ``agreed`` cells (``agreeing``)."""
    step = -1
    if log.shape[0] > 0:
        stats[STEP_ID] += 1
        step = stats[STEP_ID]
    if ok0 == 0 or ok1 == 0:
        record(cells, p, 2 if ok0 == 0 else 1, trail, trailn, log, logn, step, refuted, p)
        dirty[p // w] = 1
        dirty[h + p % w] = 1
    else:
        for i in range(agreed):
            x = agree[i] // 4
            record(cells, x, agree[i] % 4, trail, trailn, log, logn, step, agreeing, p)
            dirty[x // w] = 1
            dirty[h + x % w] = 1


@jit
def probe(cells, h, w, puzzle, mode, ws, work, cache, stats, trail, trailn, log, logn, max_sweeps, windows,  # noqa: C901
          budget):
    """Probe ``cells`` (at the line fixpoint) in place until a sweep learns nothing.

    ``mode`` is 0 (none), 1 (contradiction) or 2 (full).  Returns 1, or 0 if some
    cell has no consistent value, or 2 once it has probed ``budget`` cells in this
    call (``budget < 0``: no limit): calling again goes on where it stopped, from the
    sweep position kept in the workspace's cursor.  A sweep runs compiled with no
    clock, and with a dear line strategy or a huge grid one sweep can take minutes:
    the pause is what lets the search honour a time limit.  Cells it fixes go on the
    trail and, with a non-empty ``log``, into the event log.  ``ws`` holds the work
    arrays made by :func:`probe_workspace`; its ``score0``/``score1`` give, for every
    cell still unknown, the cells its empty / filled branch decides.
    """
    dirty, line, out, scratch0, scratch1, t0, t0n, t1, t1n, mark, stamp, agree, score0, score1, cursor = ws
    if mode == 0:
        return 1
    size = h * w
    no_log = log[:0]
    for i in range(size):
        scratch0[i] = cells[i]
        scratch1[i] = cells[i]
    # cursor: the next cell, whether this sweep learnt something, the sweeps begun,
    # and whether a probing is under way (0: start a new one).
    if cursor[3] == 0:
        cursor[0] = 0
        cursor[1] = 0
        cursor[2] = 1
        cursor[3] = 1
    probed = 0
    while True:
        p = cursor[0]
        if p >= size:  # the end of a sweep: another one only if this one learnt something
            if cursor[1] == 0 or cursor[2] >= max_sweeps:
                cursor[3] = 0
                return 1
            cursor[0] = 0
            cursor[1] = 0
            cursor[2] += 1
            continue
        if cells[p] != 3:
            score0[p] = 0
            score1[p] = 0
            cursor[0] = p + 1
            continue
        if budget >= 0 and probed >= budget:
            return 2
        cursor[0] = p + 1
        probed += 1
        r = p // w
        c = p - r * w
        ok0 = _trial(scratch0, p, 1, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, t0, t0n,
                     no_log, logn, windows)
        ok1 = _trial(scratch1, p, 2, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, t1, t1n,
                     no_log, logn, windows)
        if ok0 == 0 and ok1 == 0:
            _undo(scratch0, cells, t0, t0n[0], p)
            _undo(scratch1, cells, t1, t1n[0], p)
            cursor[3] = 0
            return 0
        agreed = 0
        if ok0 == 1 and ok1 == 1:
            score0[p] = t0n[0] + 1
            score1[p] = t1n[0] + 1
            if mode == 2:
                agreed = _agreement(scratch0, scratch1, t0, t0n[0], t1, t1n[0], mark, stamp, agree)
        _undo(scratch0, cells, t0, t0n[0], p)
        _undo(scratch1, cells, t1, t1n[0], p)
        if ok0 == 1 and ok1 == 1 and agreed == 0:
            continue
        start = trailn[0]
        _learn(cells, p, ok0, ok1, agree, agreed, h, w, dirty, stats, trail, trailn, log, logn,
               CONTRADICTION_PROBE, BOTH_BRANCHES_AGREE)
        if propagate(cells, h, w, puzzle, dirty, work, cache, stats, line, out, trail, trailn, log, logn, -1,
                     windows, False) == 0:
            cursor[3] = 0
            return 0
        _sync(scratch0, scratch1, cells, trail, start, trailn[0])
        cursor[1] = 1


@jit
def _deep_trial(scratch, p, value, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, touched, count,
                no_log, logn, windows, inner):
    """A trial that propagates, then runs contradiction probing inside it (``inner``:
    a second probing workspace).  What either sets goes on ``touched``."""
    if _trial(scratch, p, value, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, touched, count,
              no_log, logn, windows) == 0:
        return 0
    return probe(scratch, h, w, puzzle, 1, inner, work, cache, stats, touched, count, no_log, logn, 1 << 30,
                 windows, -1)


@jit
def probe_depth2(cells, h, w, puzzle, ws, inner, work, cache, stats, trail, trailn, log, logn,  # noqa: C901
                 windows, budget, cursor):
    """Full probing, then depth-2 probing (see the module notes) until both learn
    nothing.  Returns 1, or 0 on a contradiction, or 2 once it has made ``budget``
    probes (at least one depth-2 trial per call, so it always progresses).

    ``cursor`` carries the sweep across calls: the next cell, how many cells have
    been tried since the last deduction (a whole round of them is the fixpoint),
    and whether full probing must run first; set it to ``(0, 0, 1)`` for a new
    node.  ``ws`` and ``inner`` are two probing workspaces.
    """
    dirty, line, out, scratch0, scratch1, t0, t0n, t1, t1n, mark, stamp, agree, score0, score1, _ = ws
    size = h * w
    no_log = log[:0]
    first_probe = stats[PROBES]
    tried = 0
    unknown = -1
    while True:
        if cursor[2] == 1:
            if probe(cells, h, w, puzzle, 2, ws, work, cache, stats, trail, trailn, log, logn, 1 << 30,
                     windows, -1) == 0:
                return 0
            cursor[1] = 0
            cursor[2] = 0
            unknown = -1
        if unknown < 0:
            unknown = 0
            for i in range(size):
                scratch0[i] = cells[i]
                scratch1[i] = cells[i]
                if cells[i] == 3:
                    unknown += 1
        if unknown == 0 or cursor[1] >= unknown:
            return 1
        p = cursor[0] % size
        cursor[0] = p + 1
        if cells[p] != 3:
            continue
        if tried > 0 and stats[PROBES] - first_probe >= budget:
            cursor[0] = p
            return 2
        tried += 1
        r = p // w
        c = p - r * w
        ok0 = _deep_trial(scratch0, p, 1, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, t0, t0n,
                          no_log, logn, windows, inner)
        ok1 = _deep_trial(scratch1, p, 2, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, t1, t1n,
                          no_log, logn, windows, inner)
        if ok0 == 0 and ok1 == 0:
            _undo(scratch0, cells, t0, t0n[0], p)
            _undo(scratch1, cells, t1, t1n[0], p)
            return 0
        agreed = 0
        if ok0 == 1 and ok1 == 1:
            agreed = _agreement(scratch0, scratch1, t0, t0n[0], t1, t1n[0], mark, stamp, agree)
        _undo(scratch0, cells, t0, t0n[0], p)
        _undo(scratch1, cells, t1, t1n[0], p)
        if ok0 == 1 and ok1 == 1 and agreed == 0:
            cursor[1] += 1
            continue
        _learn(cells, p, ok0, ok1, agree, agreed, h, w, dirty, stats, trail, trailn, log, logn,
               DEPTH2_PROBE, DEPTH2_PROBE)
        if propagate(cells, h, w, puzzle, dirty, work, cache, stats, line, out, trail, trailn, log, logn, -1,
                     windows, False) == 0:
            return 0
        cursor[2] = 1  # back to the cheaper full probing before the next costly trial


@jit
def choose_branch(cells, size, score0, score1, use_scores):
    """The unknown cell to branch on and the value to try first; (-1, 0) if solved.

    With scores, the cell maximising ``sqrt(max / (min + 1)) + min`` of its two
    branches' gains (Wu et al.; nonogrid's default), trying the larger gain first.
    """
    best = -1
    best_score = -1.0
    value = 2
    for p in range(size):
        if cells[p] != 3:
            continue
        if not use_scores:
            return p, 2
        a = score0[p]
        b = score1[p]
        low = min(a, b)
        high = max(a, b)
        score = math.sqrt(high / (low + 1.0)) + low
        if score > best_score:
            best_score = score
            best = p
            value = 2 if b >= a else 1
    return best, value


@jit
def implications(cells, h, w, puzzle, ws, work, cache, stats, log, logn, windows, pairs):
    """What propagation derives from each value of each unknown cell, as implications.

    Row ``i`` of ``pairs`` becomes ``(p, a, q, b)``: setting cell ``p`` to state ``a``
    makes propagation set cell ``q`` to state ``b`` (``q == p``, ``b == 3 - a`` when
    ``a`` leads to a contradiction).  Each is a binary clause ``p != a or q == b``
    that holds in every solution agreeing with ``cells``.  Stops when ``pairs`` is
    full; returns the number of rows written.
    """
    dirty, line, out, scratch, _s1, touched, count = ws[0], ws[1], ws[2], ws[3], ws[4], ws[5], ws[6]
    size = h * w
    no_log = log[:0]
    for i in range(size):
        scratch[i] = cells[i]
    n = 0
    room = pairs.shape[0]
    for p in range(size):
        if cells[p] != 3:
            continue
        r = p // w
        c = p - r * w
        for value in (1, 2):
            ok = _trial(scratch, p, value, r, c, h, w, puzzle, dirty, work, cache, stats, line, out, touched,
                        count, no_log, logn, windows)
            if ok == 0:
                if n < room:
                    pairs[n, 0] = p
                    pairs[n, 1] = value
                    pairs[n, 2] = p
                    pairs[n, 3] = 3 - value
                    n += 1
            else:
                for i in range(count[0]):
                    if n >= room:
                        break
                    q = touched[i]
                    pairs[n, 0] = p
                    pairs[n, 1] = value
                    pairs[n, 2] = q
                    pairs[n, 3] = scratch[q]
                    n += 1
            _undo(scratch, cells, touched, count[0], p)
            if n >= room:
                return n
    return n
