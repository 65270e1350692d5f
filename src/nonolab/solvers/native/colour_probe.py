"""Probing for colour puzzles: try each value of each open cell, propagate, learn.

The colour form of the black-and-white engine's probing
(:mod:`~nonolab.solvers.native.probe`), over (cell, value) choices:

* ``contradiction``: a value whose propagation contradicts is removed from its cell;
* ``full``: as above, and every cell that all the surviving values of the probed cell
  narrow is narrowed to the union of what they leave it (with two values, the cells
  "both branches agree" on; with more, a cell may lose values without being decided).

Sweeps repeat until one learns nothing.  Each trial runs on a scratch copy of the
domains and is undone from the list of cells it touched, so a trial costs what it
changes.  Only cells narrowed to one value go into the step log (a narrowing that
leaves several values shows when a later step decides the cell).
"""

from __future__ import annotations

import numpy as np

from nonolab.solvers.native.colour import (AGREE, CONTRADICTION, PROBES, STEP_IDS, TOUCHED, log_cell, propagate,
                                           single_value)
from nonolab.solvers.native.jit import jit


@jit
def _narrow(dom, cell, mask, step, technique, source, queued, height, width, stats, log, depth):  # pragma: no cover
    """Set ``dom[cell]`` to ``mask`` (a subset), queue its lines, log it if decided."""
    dom[cell] = mask
    queued[cell // width] = True
    queued[height + cell % width] = True
    value = single_value(mask)
    if value >= 0 and log.shape[0] > 0:
        log_cell(log, stats, step, technique, source, cell, value, depth)


@jit
def probe(dom, mode, line_cells, line_start, line_len, auto_start, n_states, table, accept, values, height, width,
          fwd, alive, fresh, out, stats, log, depth, scratch, touched, seen, hits, union, first, queued,
          no_log):  # pragma: no cover  # noqa: C901
    """Probe ``dom`` (at the line fixpoint) in place until a sweep learns nothing.

    ``mode`` is 1 (contradiction) or 2 (full).  Returns False when some cell has no
    consistent value.  ``scratch`` holds a copy of ``dom`` between trials; ``touched``
    (room for every change of a trial), ``seen``, ``hits``, ``union`` and ``first``
    are work arrays of the grid's size or more; ``queued`` one flag per line.
    """
    size = dom.shape[0]
    lines = height + width
    for i in range(size):
        scratch[i] = dom[i]
        seen[i] = -1
    stamp = 0
    learnt = True
    while learnt:
        learnt = False
        for cell in range(size):
            d = dom[cell]
            if d & (d - 1) == 0:
                continue
            stamp += 1
            survivors = 0
            consistent = 0
            firsts = 0
            for v in range(values):
                if not (d >> v) & 1:
                    continue
                for k in range(lines):
                    queued[k] = False
                stats[TOUCHED] = 0
                scratch[cell] = 1 << v
                queued[cell // width] = True
                queued[height + cell % width] = True
                stats[PROBES] += 1
                ok = propagate(scratch, queued, line_cells, line_start, line_len, auto_start, n_states, table,
                               accept, values, height, width, fwd, alive, fresh, out, stats, no_log, depth, touched)
                n_touched = stats[TOUCHED]
                if ok:
                    survivors |= 1 << v
                    consistent += 1
                    if mode == 2:
                        # Per cell: the run of consistent trials, from the first, that all
                        # changed it (hits), and the union of the values they left it.  A
                        # trial that leaves a cell alone leaves it all of dom, so the run
                        # must have no gap: hits advances only from consistent - 1.  (It
                        # once took `hits = consistent` on any touch, so a cell changed by
                        # trials 1 and 3 of three but not 2 looked changed by all three
                        # and lost the values trial 2 kept: real solutions removed, on
                        # colour puzzles only, as two values never leave a gap.)  A cell
                        # touched twice in one trial is counted once (hits == consistent).
                        for j in range(n_touched):
                            t = touched[j]
                            if seen[t] != stamp:
                                seen[t] = stamp
                                hits[t] = 0
                                union[t] = 0
                                if consistent == 1:
                                    first[firsts] = t
                                    firsts += 1
                            if hits[t] == consistent - 1:
                                hits[t] = consistent
                                union[t] |= scratch[t]
                for j in range(n_touched):
                    t = touched[j]
                    scratch[t] = dom[t]
                scratch[cell] = d
            stats[TOUCHED] = 0
            if survivors == 0:
                return False
            if survivors != d:
                stats[STEP_IDS] += 1
                for k in range(lines):
                    queued[k] = False
                _narrow(dom, cell, survivors, stats[STEP_IDS], CONTRADICTION, cell, queued, height, width, stats,
                        log, depth)
            elif mode == 2:
                stats[STEP_IDS] += 1
                for k in range(lines):
                    queued[k] = False
                changed = False
                for j in range(firsts):
                    t = first[j]
                    # A cell every consistent trial changed: its value lies in their union.
                    if hits[t] == consistent and union[t] != dom[t]:
                        _narrow(dom, t, union[t] & dom[t], stats[STEP_IDS], AGREE, cell, queued, height, width,
                                stats, log, depth)
                        changed = True
                if not changed:
                    continue
            else:
                continue
            learnt = True
            if not propagate(dom, queued, line_cells, line_start, line_len, auto_start, n_states, table, accept,
                             values, height, width, fwd, alive, fresh, out, stats, log, depth, touched[:0]):
                return False
            for i in range(size):
                scratch[i] = dom[i]
    return True


class Prober:
    """The work arrays of :func:`probe` for one :class:`~nonolab.solvers.native.colour.ColourModel`."""

    def __init__(self, model):
        size = model.height * model.width
        self.model = model
        self.scratch = np.zeros(size, np.int64)
        # A trial removes at least one value per change: at most size * values changes.
        self.touched = np.zeros(size * model.values + 1, np.int64)
        self.seen = np.full(size, -1, np.int64)
        self.hits = np.zeros(size, np.int64)
        self.union = np.zeros(size, np.int64)
        self.first = np.zeros(size, np.int64)
        self.queued = np.zeros(model.height + model.width, np.bool_)

    def probe(self, dom: np.ndarray, mode: int, log: np.ndarray | None = None, depth: int = 0) -> bool:
        """Probe ``dom`` in place (``mode`` 1 contradiction, 2 full); False on a contradiction."""
        m = self.model
        return bool(probe(dom, mode, *m.kernel_arrays(), m.stats, m.no_log if log is None else log, depth,
                          self.scratch, self.touched, self.seen, self.hits, self.union, self.first, self.queued,
                          m.no_log))
