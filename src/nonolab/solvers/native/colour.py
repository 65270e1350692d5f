"""The native engine for colour puzzles: a compiled colour line solver, propagation to
a fixpoint, and a depth-first search with exact counting.

A cell's state is a bit mask of the values it may still take (bit 0 the background,
bit ``v`` colour ``v``).  Each line runs the automaton of
:func:`nonolab.solvers.colour.colour_automaton`, stored as a dense table
``table[state, value] -> next state`` (-1: no edge), all lines' tables one after the
other.  :func:`line_pass` is the complete colour line solver: a forward pass marks the
states reachable along allowed values, a backward pass keeps those that still reach an
accepting state, and a value survives at a cell when a kept edge reads it there (the
same pass as :func:`nonolab.solvers.colour.solve_line`, which the tests hold it to).
:func:`propagate` runs it on every line whose cells changed until nothing changes; the
search branches on an open cell with the fewest values, and an exhausted search is an
exact count.  No probing and no step log yet (black and white has both).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Given, Limits, SolveResult, Stopwatch, finish
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


@jit
def propagate(dom, queued, line_cells, line_start, line_len, auto_start, n_states, table, accept, values,
              height, width, fwd, alive, fresh, out, stats):  # pragma: no cover
    """Run :func:`line_pass` on the ``queued`` lines (rows, then columns) until no cell
    changes; False on a contradiction.  ``stats[0]`` counts line solves."""
    lines = height + width
    stack = np.empty(lines, np.int64)
    top = 0
    for k in range(lines):
        if queued[k]:
            stack[top] = k
            top += 1
    while top > 0:
        top -= 1
        k = stack[top]
        queued[k] = False
        base = line_start[k]
        n = line_len[k]
        stats[0] += 1
        if not line_pass(dom, line_cells[base:base + n], n, table, auto_start[k], n_states[k], accept, values,
                         fwd, alive, fresh, out):
            return False
        for i in range(n):
            cell = line_cells[base + i]
            if out[i] != dom[cell]:
                dom[cell] = out[i]
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
        self.stats = np.zeros(1, np.int64)

    def propagate(self, dom: np.ndarray, queued: np.ndarray) -> bool:
        return bool(propagate(dom, queued, self.line_cells, self.line_start, self.line_len, self.auto_start,
                              self.n_states, self.table, self.accept, self.values, self.height, self.width,
                              self.fwd, self.alive, self.fresh, self.out, self.stats))


def _picture(dom: np.ndarray, width: int, values: int) -> Solution:
    cells = np.zeros(len(dom), np.uint8)
    for v in range(values):
        cells[dom == (1 << v)] = v
    return Solution.from_bytes(cells.tobytes(), width, colours=True)


def solve_colour(name: str, puzzle: Puzzle, limits: Limits, given: Given, node_limit: int | None = None
                 ) -> SolveResult:
    """The native search on a colour puzzle (``given`` already checked by ``accept``)."""
    if given.implications:
        raise InvalidArgument(f"backend {name!r} takes no implications on colour puzzles")
    watch = Stopwatch.of(limits)
    model = ColourModel(puzzle)
    n, values = puzzle.width * puzzle.height, model.values
    root = np.full(n, (1 << values) - 1, np.int64)
    for (r, c), value in given.cells.items():
        root[r * puzzle.width + c] = 1 << value
    popcount = np.array([bin(m).count("1") for m in range(1 << values)], np.int64)
    lines = puzzle.height + puzzle.width
    stack: list[tuple[np.ndarray, np.ndarray]] = [(root, np.ones(lines, np.bool_))]
    found: list[Solution] = []
    nodes = 0
    exhausted = True
    while stack:
        if watch.expired() or (node_limit is not None and nodes >= node_limit):
            exhausted = False
            break
        dom, queued = stack.pop()
        nodes += 1
        if not model.propagate(dom, queued):
            continue
        sizes = popcount[dom]
        open_cells = np.flatnonzero(sizes > 1)
        if not len(open_cells):
            found.append(_picture(dom, puzzle.width, values))
            if limits.max_solutions is not None and len(found) >= limits.max_solutions:
                exhausted = not stack
                break
            continue
        cell = int(open_cells[np.argmin(sizes[open_cells])])
        choices = [v for v in range(values) if dom[cell] >> v & 1]
        for v in reversed(choices):       # the background is tried first
            child = dom.copy()
            child[cell] = 1 << v
            marks = np.zeros(lines, np.bool_)
            marks[cell // puzzle.width] = True
            marks[puzzle.height + cell % puzzle.width] = True
            stack.append((child, marks))
    counters: dict[str, Any] = {"nodes": nodes, "line_solves": int(model.stats[0]), "colours": values - 1}
    return finish(name, puzzle, limits, watch, found, exhausted, counters)
