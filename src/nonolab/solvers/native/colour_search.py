"""The native search on colour puzzles, with probing at the root and a step log.

Each node propagates its domains (:mod:`~nonolab.solvers.native.colour`); the root is
probed as well (:mod:`~nonolab.solvers.native.colour_probe`), so that a puzzle solved
without guessing is solved at the root and ``grade`` can tell line from probe from
search as in black and white.  The search branches on an open cell with the fewest
values, the background first; an exhausted search is an exact count.

With ``record_steps``, the cells each line solve, probe and guess decides go into a log
kept for the current search path (a branch taken back cuts the log to where the branch
began): up to the first solution, or the path where the search stopped.  Its steps are
the :class:`~nonolab.solvers.steps.Step` records of black and white, with colour
indices as values (0 the background).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Given, Limits, SolveResult, Stopwatch, finish
from nonolab.solvers.native.colour import (GUESS, LINE_SOLVES, LOG_CELL, LOG_COLUMNS, LOG_DEPTH, LOG_ROWS,
                                           LOG_SOURCE, LOG_STEP, LOG_TECHNIQUE, LOG_VALUE, PROBES, STEP_IDS,
                                           ColourModel)
from nonolab.solvers.steps import Step, Technique

_TECHNIQUES = (Technique.LINE, Technique.CONTRADICTION_PROBE, Technique.BOTH_BRANCHES_AGREE, Technique.GUESS)


def _picture(dom: np.ndarray, width: int, values: int) -> Solution:
    cells = np.zeros(len(dom), np.uint8)
    for v in range(values):
        cells[dom == (1 << v)] = v
    return Solution.from_bytes(cells.tobytes(), width, colours=True)


def colour_steps(log: np.ndarray, height: int, width: int) -> list[Step]:
    """The rows of a colour step log, grouped into steps (one per step id, in order).

    >>> log = np.array([[1, 0, 2, 0, 1, 0], [1, 0, 2, 1, 2, 0]])   # column 1 of a 2x2 grid
    >>> [s.describe() for s in colour_steps(log, 2, 2)], colour_steps(log, 2, 2)[0].cells
    (['line: column 1 sets 2 cells'], ((0, 0, 1), (0, 1, 2)))
    """
    steps: list[Step] = []
    i = 0
    while i < len(log):
        j = i
        while j < len(log) and log[j, LOG_STEP] == log[i, LOG_STEP]:
            j += 1
        technique = _TECHNIQUES[int(log[i, LOG_TECHNIQUE])]
        source, depth = int(log[i, LOG_SOURCE]), int(log[i, LOG_DEPTH])
        cells = tuple((int(x) // width, int(x) % width, int(v)) for x, v in zip(log[i:j, LOG_CELL], log[i:j, LOG_VALUE]))
        note = ""
        if technique is Technique.LINE:
            where: tuple = ("row", source) if source < height else ("column", source - height)
        else:
            where = ("cell", source // width, source % width)
            if technique is Technique.CONTRADICTION_PROBE:
                note = f"its other values than {cells[0][2]} lead to a contradiction"
            elif technique is Technique.BOTH_BRANCHES_AGREE:
                note = "every value of this cell implies these cells"
            else:
                note = "a search branch"
        steps.append(Step(technique, where, cells, depth, note))
        i = j
    return steps


def solve_colour(name: str, puzzle: Puzzle, limits: Limits, given: Given, node_limit: int | None = None,
                 probing: int = 2, record_steps: bool = False) -> SolveResult:
    """The native search on a colour puzzle (``given`` already checked by ``accept``).

    ``probing``: 0 none, 1 contradiction, 2 full, at the root.
    """
    from nonolab.solvers.native.colour_probe import Prober

    if given.implications:
        raise InvalidArgument(f"backend {name!r} takes no implications on colour puzzles")
    watch = Stopwatch.of(limits)
    model = ColourModel(puzzle)
    h, w = puzzle.height, puzzle.width
    n, values = w * h, model.values
    root = np.full(n, (1 << values) - 1, np.int64)
    for (r, c), value in given.cells.items():
        root[r * w + c] = 1 << value
    popcount = np.array([bin(m).count("1") for m in range(1 << values)], np.int64)
    lines = h + w
    # A path decides each cell once (a guess included): n rows hold any path's log.
    log = np.zeros((n + 1 if record_steps else 0, LOG_COLUMNS), np.int64)
    stats = model.stats
    # A node: domains, lines to propagate, depth, log rows of its parent, its guess.
    stack: list[tuple[np.ndarray, np.ndarray, int, int, tuple[int, int] | None]] = [
        (root, np.ones(lines, np.bool_), 0, 0, None)]
    found: list[Solution] = []
    steps: list[Step] | None = None
    nodes = 0
    exhausted = True
    while stack:
        if watch.expired() or (node_limit is not None and nodes >= node_limit):
            exhausted = False
            break
        dom, queued, depth, rows, guess = stack.pop()
        nodes += 1
        stats[LOG_ROWS] = rows
        if guess is not None and record_steps:
            stats[STEP_IDS] += 1
            cell, value = guess
            log[stats[LOG_ROWS]] = (stats[STEP_IDS], GUESS, cell, cell, value, depth)
            stats[LOG_ROWS] += 1
        if not model.propagate(dom, queued, log, depth):
            continue
        if depth == 0 and probing and not Prober(model).probe(dom, probing, log, depth):
            continue
        sizes = popcount[dom]
        open_cells = np.flatnonzero(sizes > 1)
        if not len(open_cells):
            found.append(_picture(dom, w, values))
            if steps is None and record_steps:
                steps = colour_steps(log[:stats[LOG_ROWS]], h, w)
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
            marks[cell // w] = True
            marks[h + cell % w] = True
            stack.append((child, marks, depth + 1, int(stats[LOG_ROWS]), (cell, v)))
    if steps is None and record_steps:
        steps = colour_steps(log[:stats[LOG_ROWS]], h, w)
    counters: dict[str, Any] = {"nodes": nodes, "line_solves": int(stats[LINE_SOLVES]), "probes": int(stats[PROBES]),
                                "colours": values - 1}
    return finish(name, puzzle, limits, watch, found, exhausted, counters, tuple(steps or ()))
