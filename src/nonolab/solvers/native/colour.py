"""The native engine for colour puzzles: a compiled colour line solver and propagation
to a fixpoint.

A cell's state is a bit mask of the values it may still take (bit 0 the background,
bit ``v`` colour ``v``).  Each line runs the automaton of
:func:`nonolab.solvers.colour.colour_automaton`, stored as a dense table
``table[state, value] -> next state`` (-1: no edge), all lines' tables one after the
other.  :func:`line_pass` is the complete colour line solver: a forward pass marks the
states reachable along allowed values, a backward pass keeps those that still reach an
accepting state, and a value survives at a cell when a kept edge reads it there (the
same pass as :func:`nonolab.solvers.colour.solve_line`, which the tests hold it to).
:func:`propagate` runs it on every line whose cells changed until nothing changes, and
can log the cells it decides.  Probing lives in
:mod:`~nonolab.solvers.native.colour_probe`, the search and the step log in
:mod:`~nonolab.solvers.native.colour_search`.
"""

from __future__ import annotations

import numpy as np

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.colour import colour_automaton
from nonolab.solvers.native.jit import jit


@jit
def line_pass(dom, cells, n, table, a0, states, accept, values, fwd, alive, fresh, out):  # pragma: no cover
    """Narrow the ``n`` cells ``cells`` of one line into ``out``; False on a contradiction."""
    for s in range(states):
        fwd[0, s] = False
    fwd[0, 0] = True
    for i in range(n):
        d = dom[cells[i]]
        for s in range(states):
            fwd[i + 1, s] = False
        for s in range(states):
            if fwd[i, s]:
                for v in range(values):
                    if (d >> v) & 1:
                        t = table[a0 + s, v]
                        if t >= 0:
                            fwd[i + 1, t] = True
    any_alive = False
    for s in range(states):
        alive[s] = fwd[n, s] and accept[a0 + s]
        any_alive = any_alive or alive[s]
    if not any_alive:
        return False
    for i in range(n - 1, -1, -1):
        d = dom[cells[i]]
        mask = 0
        for s in range(states):
            fresh[s] = False
            if fwd[i, s]:
                for v in range(values):
                    if (d >> v) & 1:
                        t = table[a0 + s, v]
                        if t >= 0 and alive[t]:
                            mask |= 1 << v
                            fresh[s] = True
        out[i] = mask
        for s in range(states):
            alive[s] = fresh[s]
    return True


# The columns of a step-log row (``log[i, ...]``), and where ``stats`` keeps its counters.
LOG_STEP, LOG_TECHNIQUE, LOG_SOURCE, LOG_CELL, LOG_VALUE, LOG_DEPTH = 0, 1, 2, 3, 4, 5
LOG_COLUMNS = 6
LINE, CONTRADICTION, AGREE, GUESS = 0, 1, 2, 3        # techniques, as Technique's order
LINE_SOLVES, LOG_ROWS, STEP_IDS, PROBES, TOUCHED = 0, 1, 2, 3, 4
N_STATS = 5


@jit
def single_value(mask):  # pragma: no cover
    """The value of a one-value mask, else -1."""
    if mask == 0 or mask & (mask - 1):
        return -1
    v = 0
    while not (mask >> v) & 1:
        v += 1
    return v


@jit
def log_cell(log, stats, step, technique, source, cell, value, depth):  # pragma: no cover
    """Append one decided cell to the step log (a log with no rows records nothing)."""
    row = stats[LOG_ROWS]
    if row < log.shape[0]:
        log[row, LOG_STEP] = step
        log[row, LOG_TECHNIQUE] = technique
        log[row, LOG_SOURCE] = source
        log[row, LOG_CELL] = cell
        log[row, LOG_VALUE] = value
        log[row, LOG_DEPTH] = depth
        stats[LOG_ROWS] = row + 1


@jit
def propagate(dom, queued, line_cells, line_start, line_len, auto_start, n_states, table, accept, values,
              height, width, fwd, alive, fresh, out, stats, log, depth, touched):  # pragma: no cover
    """Run :func:`line_pass` on the ``queued`` lines (rows, then columns) until no cell
    changes; False on a contradiction.  ``stats[LINE_SOLVES]`` counts line solves.

    When ``log`` has rows, each line solve that decides cells (narrows them to one
    value) is a step of its own, appended to ``log``.  When ``touched`` has room, every
    cell that changes goes into it (``stats[TOUCHED]`` entries): how a probe undoes
    its trial cheaply.
    """
    lines = height + width
    stack = np.empty(lines, np.int64)
    top = 0
    for k in range(lines):
        if queued[k]:
            stack[top] = k
            top += 1
    logging = log.shape[0] > 0
    while top > 0:
        top -= 1
        k = stack[top]
        queued[k] = False
        base = line_start[k]
        n = line_len[k]
        stats[LINE_SOLVES] += 1
        if not line_pass(dom, line_cells[base:base + n], n, table, auto_start[k], n_states[k], accept, values,
                         fwd, alive, fresh, out):
            return False
        step = -1
        for i in range(n):
            cell = line_cells[base + i]
            if out[i] != dom[cell]:
                dom[cell] = out[i]
                if stats[TOUCHED] < touched.shape[0]:
                    touched[stats[TOUCHED]] = cell
                    stats[TOUCHED] += 1
                if logging:
                    value = single_value(out[i])
                    if value >= 0:
                        if step < 0:
                            stats[STEP_IDS] += 1
                            step = stats[STEP_IDS]
                        log_cell(log, stats, step, LINE, k, cell, value, depth)
                other = height + cell % width if k < height else cell // width
                if not queued[other]:
                    queued[other] = True
                    stack[top] = other
                    top += 1
    return True


class ColourModel:
    """A colour puzzle's automata in flat arrays, and the work arrays of the kernels."""

    def __init__(self, puzzle: Puzzle):
        h, w = puzzle.height, puzzle.width
        self.height, self.width, self.values = h, w, puzzle.colours + 1
        lines = [tuple(range(r * w, (r + 1) * w)) for r in range(h)] + [tuple(range(c, h * w, w)) for c in range(w)]
        blocks = list(puzzle.coloured_rows) + list(puzzle.coloured_columns)
        tables, accepts, starts, counts = [], [], [], []
        offset = 0
        for line in blocks:
            _, accepting, transitions = colour_automaton(line)
            count = 1 + max([t for _, _, t in transitions] + [0])
            table = np.full((count, self.values), -1, np.int32)
            for s, v, t in transitions:
                table[s, v] = t
            flags = np.zeros(count, np.bool_)
            flags[list(accepting)] = True
            tables.append(table)
            accepts.append(flags)
            starts.append(offset)
            counts.append(count)
            offset += count
        self.table = np.concatenate(tables)
        self.accept = np.concatenate(accepts)
        self.auto_start = np.array(starts, np.int64)
        self.n_states = np.array(counts, np.int64)
        self.line_cells = np.array([c for line in lines for c in line], np.int64)
        self.line_len = np.array([len(line) for line in lines], np.int64)
        self.line_start = np.concatenate([[0], np.cumsum(self.line_len)[:-1]]).astype(np.int64)
        longest, most = int(self.line_len.max()), int(self.n_states.max())
        self.fwd = np.zeros((longest + 1, most), np.bool_)
        self.alive = np.zeros(most, np.bool_)
        self.fresh = np.zeros(most, np.bool_)
        self.out = np.zeros(longest, np.int64)
        self.stats = np.zeros(N_STATS, np.int64)
        self.no_log = np.zeros((0, LOG_COLUMNS), np.int64)
        self.no_touched = np.zeros(0, np.int64)

    def kernel_arrays(self) -> tuple:
        """The automata and work arrays, in :func:`propagate`'s order (from ``line_cells``
        to ``out``), for kernels that propagate themselves."""
        return (self.line_cells, self.line_start, self.line_len, self.auto_start, self.n_states, self.table,
                self.accept, self.values, self.height, self.width, self.fwd, self.alive, self.fresh, self.out)

    def propagate(self, dom: np.ndarray, queued: np.ndarray, log: np.ndarray | None = None, depth: int = 0
                  ) -> bool:
        """Propagate ``dom`` in place from the ``queued`` lines, logging decided cells
        into ``log`` (see :func:`propagate`)."""
        return bool(propagate(dom, queued, self.line_cells, self.line_start, self.line_len, self.auto_start,
                              self.n_states, self.table, self.accept, self.values, self.height, self.width,
                              self.fwd, self.alive, self.fresh, self.out, self.stats,
                              self.no_log if log is None else log, depth, self.no_touched))
