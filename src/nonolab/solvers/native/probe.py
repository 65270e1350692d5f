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

from nonolab.solvers.native.bundles import (ACTIVE, DEEP_FULL_FIRST, DEEP_NEXT, DEEP_QUIET, LEARNT, NEXT_CELL,
                                             SWEEPS, Log)
from nonolab.solvers.native.cache import PROBES, STEP_ID
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.modes import Probing  # noqa: F401  (re-exported)
from nonolab.solvers.native.propagate import (BOTH_BRANCHES_AGREE, CONTRADICTION_PROBE, DEPTH2_PROBE, mark_cell,
                                              propagate, record)


@jit
def _trial(scratch, p, value, h, w, lines, touched, log):
    """Set cell ``p`` of the scratch grid and propagate, recording what it touches."""
    touched.n[0] = 0
    scratch[p] = value
    mark_cell(lines, p, h, w)
    lines.stats[PROBES] += 1
    return propagate(scratch, h, w, lines, touched, log, -1, False)


@jit
def _undo(scratch, cells, touched, p):
    """Put back in ``scratch`` the cells of ``cells`` a trial of cell ``p`` touched."""
    at = touched.cells
    for i in range(touched.n[0]):
        scratch[at[i]] = cells[at[i]]
    scratch[p] = cells[p]


@jit
def _sync(scratch0, scratch1, cells, trail, start, end):
    for i in range(start, end):
        x = trail[i]
        scratch0[x] = cells[x]
        scratch1[x] = cells[x]


@jit
def _agreement(probes):
    """Cells both trials set, to the same value, into ``probes.agree`` (as cell * 4 + value); their number."""
    scratch0, scratch1, mark, stamp, agree = probes.scratch0, probes.scratch1, probes.mark, probes.stamp, probes.agree
    t0, t1 = probes.touched0.cells, probes.touched1.cells
    stamp[0] += 1
    for i in range(probes.touched0.n[0]):
        mark[t0[i]] = stamp[0]
    agreed = 0
    for i in range(probes.touched1.n[0]):
        x = t1[i]
        if mark[x] == stamp[0] and scratch0[x] == scratch1[x]:
            agree[agreed] = x * 4 + scratch0[x]
            agreed += 1
    return agreed


@jit
def _learn(cells, p, ok0, ok1, agree, agreed, h, w, lines, trail, log, refuted, agreeing):
    """Record what probing cell ``p`` proved, as one step: the other value of a
    refuted one (technique ``refuted``), or the ``agreed`` cells (``agreeing``)."""
    stats = lines.stats
    step = -1
    if log.rows.shape[0] > 0:
        stats[STEP_ID] += 1
        step = stats[STEP_ID]
    if ok0 == 0 or ok1 == 0:
        record(cells, p, 2 if ok0 == 0 else 1, trail, log, step, refuted, p)
        mark_cell(lines, p, h, w)
    else:
        for i in range(agreed):
            x = agree[i] // 4
            record(cells, x, agree[i] % 4, trail, log, step, agreeing, p)
            mark_cell(lines, x, h, w)


@jit
def probe(cells, h, w, mode, lines, probes, trail, log, max_sweeps, budget):  # noqa: C901
    """Probe ``cells`` (at the line fixpoint) in place until a sweep learns nothing.

    ``mode`` is 0 (none), 1 (contradiction) or 2 (full).  Returns 1, or 0 if some
    cell has no consistent value, or 2 once it has probed ``budget`` cells in this
    call (``budget < 0``: no limit): calling again goes on where it stopped, from the
    sweep position kept in ``probes.cursor``.  A sweep runs compiled with no
    clock, and with a dear line strategy or a huge grid one sweep can take minutes:
    the pause is what lets the search honour a time limit.  Cells it fixes go on the
    ``trail`` and, when ``log`` has rows, into the event log.  ``probes`` holds the
    work arrays (:class:`~nonolab.solvers.native.bundles.Probes`); its
    ``score0``/``score1`` give, for every cell still unknown, the cells its empty /
    filled branch decides.
    """
    if mode == 0:
        return 1
    scratch0, scratch1, touched0, touched1 = probes.scratch0, probes.scratch1, probes.touched0, probes.touched1
    score0, score1, cursor = probes.score0, probes.score1, probes.cursor
    size = h * w
    quiet = Log(log.rows[:0], log.n)  # trials log nothing: their cells are undone
    for i in range(size):
        scratch0[i] = cells[i]
        scratch1[i] = cells[i]
    if cursor[ACTIVE] == 0:
        cursor[NEXT_CELL] = 0
        cursor[LEARNT] = 0
        cursor[SWEEPS] = 1
        cursor[ACTIVE] = 1
    probed = 0
    while True:
        p = cursor[NEXT_CELL]
        if p >= size:  # the end of a sweep: another one only if this one learnt something
            if cursor[LEARNT] == 0 or cursor[SWEEPS] >= max_sweeps:
                cursor[ACTIVE] = 0
                return 1
            cursor[NEXT_CELL] = 0
            cursor[LEARNT] = 0
            cursor[SWEEPS] += 1
            continue
        if cells[p] != 3:
            score0[p] = 0
            score1[p] = 0
            cursor[NEXT_CELL] = p + 1
            continue
        if budget >= 0 and probed >= budget:
            return 2
        cursor[NEXT_CELL] = p + 1
        probed += 1
        ok0 = _trial(scratch0, p, 1, h, w, lines, touched0, quiet)
        ok1 = _trial(scratch1, p, 2, h, w, lines, touched1, quiet)
        if ok0 == 0 and ok1 == 0:
            _undo(scratch0, cells, touched0, p)
            _undo(scratch1, cells, touched1, p)
            cursor[ACTIVE] = 0
            return 0
        agreed = 0
        if ok0 == 1 and ok1 == 1:
            score0[p] = touched0.n[0] + 1
            score1[p] = touched1.n[0] + 1
            if mode == 2:
                agreed = _agreement(probes)
        _undo(scratch0, cells, touched0, p)
        _undo(scratch1, cells, touched1, p)
        if ok0 == 1 and ok1 == 1 and agreed == 0:
            continue
        start = trail.n[0]
        _learn(cells, p, ok0, ok1, probes.agree, agreed, h, w, lines, trail, log,
               CONTRADICTION_PROBE, BOTH_BRANCHES_AGREE)
        if propagate(cells, h, w, lines, trail, log, -1, False) == 0:
            cursor[ACTIVE] = 0
            return 0
        _sync(scratch0, scratch1, cells, trail.cells, start, trail.n[0])
        cursor[LEARNT] = 1


@jit
def _deep_trial(scratch, p, value, h, w, lines, touched, log, inner):
    """A trial that propagates, then runs contradiction probing inside it (``inner``:
    a second probing workspace).  What either sets goes on ``touched``."""
    if _trial(scratch, p, value, h, w, lines, touched, log) == 0:
        return 0
    return probe(scratch, h, w, 1, lines, inner, touched, log, 1 << 30, -1)


@jit
def probe_depth2(cells, h, w, lines, probes, inner, trail, log, budget, cursor):  # noqa: C901
    """Full probing, then depth-2 probing (see the module notes) until both learn
    nothing.  Returns 1, or 0 on a contradiction, or 2 once it has made ``budget``
    probes (at least one depth-2 trial per call, so it always progresses).

    ``cursor`` carries the sweep across calls: the next cell, how many cells have
    been tried since the last deduction (a whole round of them is the fixpoint),
    and whether full probing must run first; set it to ``(0, 0, 1)`` for a new
    node (``DEEP_NEXT``, ``DEEP_QUIET``, ``DEEP_FULL_FIRST``).  ``probes`` and
    ``inner`` are two probing workspaces.
    """
    scratch0, scratch1, touched0, touched1 = probes.scratch0, probes.scratch1, probes.touched0, probes.touched1
    stats = lines.stats
    size = h * w
    quiet = Log(log.rows[:0], log.n)
    first_probe = stats[PROBES]
    tried = 0
    unknown = -1
    while True:
        if cursor[DEEP_FULL_FIRST] == 1:
            if probe(cells, h, w, 2, lines, probes, trail, log, 1 << 30, -1) == 0:
                return 0
            cursor[DEEP_QUIET] = 0
            cursor[DEEP_FULL_FIRST] = 0
            unknown = -1
        if unknown < 0:
            unknown = 0
            for i in range(size):
                scratch0[i] = cells[i]
                scratch1[i] = cells[i]
                if cells[i] == 3:
                    unknown += 1
        if unknown == 0 or cursor[DEEP_QUIET] >= unknown:
            return 1
        p = cursor[DEEP_NEXT] % size
        cursor[DEEP_NEXT] = p + 1
        if cells[p] != 3:
            continue
        if tried > 0 and stats[PROBES] - first_probe >= budget:
            cursor[DEEP_NEXT] = p
            return 2
        tried += 1
        ok0 = _deep_trial(scratch0, p, 1, h, w, lines, touched0, quiet, inner)
        ok1 = _deep_trial(scratch1, p, 2, h, w, lines, touched1, quiet, inner)
        if ok0 == 0 and ok1 == 0:
            _undo(scratch0, cells, touched0, p)
            _undo(scratch1, cells, touched1, p)
            return 0
        agreed = 0
        if ok0 == 1 and ok1 == 1:
            agreed = _agreement(probes)
        _undo(scratch0, cells, touched0, p)
        _undo(scratch1, cells, touched1, p)
        if ok0 == 1 and ok1 == 1 and agreed == 0:
            cursor[DEEP_QUIET] += 1
            continue
        _learn(cells, p, ok0, ok1, probes.agree, agreed, h, w, lines, trail, log, DEPTH2_PROBE, DEPTH2_PROBE)
        if propagate(cells, h, w, lines, trail, log, -1, False) == 0:
            return 0
        cursor[DEEP_FULL_FIRST] = 1  # back to the cheaper full probing before the next costly trial


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
def implications(space, h, w, pairs):
    """What propagation derives from each value of each unknown cell, as implications.

    Row ``i`` of ``pairs`` becomes ``(p, a, q, b)``: setting cell ``p`` to state ``a``
    makes propagation set cell ``q`` to state ``b`` (``q == p``, ``b == 3 - a`` when
    ``a`` leads to a contradiction), from the grid ``space.cells``.  Each is a binary
    clause ``p != a or q == b`` that holds in every solution agreeing with the grid.
    Stops when ``pairs`` is full; returns the number of rows written.
    """
    cells, lines = space.cells, space.lines
    scratch, touched = space.probes.scratch0, space.probes.touched0
    size = h * w
    quiet = Log(space.log.rows[:0], space.log.n)
    for i in range(size):
        scratch[i] = cells[i]
    n = 0
    room = pairs.shape[0]
    for p in range(size):
        if cells[p] != 3:
            continue
        for value in (1, 2):
            ok = _trial(scratch, p, value, h, w, lines, touched, quiet)
            if ok == 0:
                if n < room:
                    pairs[n, 0] = p
                    pairs[n, 1] = value
                    pairs[n, 2] = p
                    pairs[n, 3] = 3 - value
                    n += 1
            else:
                for i in range(touched.n[0]):
                    if n >= room:
                        break
                    q = touched.cells[i]
                    pairs[n, 0] = p
                    pairs[n, 1] = value
                    pairs[n, 2] = q
                    pairs[n, 3] = scratch[q]
                    n += 1
            _undo(scratch, cells, touched, p)
            if n >= room:
                return n
    return n
