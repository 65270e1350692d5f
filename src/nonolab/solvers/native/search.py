"""Depth-first search with exact solution counting, resumable from Python.

Every node propagates and probes, then branches on the cell chosen by
:func:`~nonolab.solvers.native.probe.choose_branch`.  Branching on the two values of
one cell partitions the space, so each solution is reached exactly once and an
exhausted search makes the count exact.  State lives in arrays and changes are
undone from a trail, so memory is O(cells) whatever the depth.

:func:`search_run` is compiled and runs until it finds a solution, exhausts the
space, or has processed ``budget`` nodes; :func:`search` is the Python driver that
checks the clock between calls, collects solutions and stops at the limits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.native.cache import MAX_DEPTH, N_STATS, NODES, STEP_ID, LineCache
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.line import static_windows, table_size
from nonolab.solvers.native.probe import Probing, choose_branch, probe, probe_depth2
from nonolab.solvers.native.propagate import GUESS, propagate, record
from nonolab.solvers.native.strategies import DEFAULT_ENUMERATE_CAP, LineStrategy, line_work
from nonolab.solvers.steps import Step, Technique

ROOT, NODE, BACKTRACK = 0, 1, 2
_MAX_BUDGET = 1 << 40  # slices grow while they are short; this keeps them an int64
EXHAUSTED, FOUND, PAUSED = 0, 1, 2


@jit
def search_run(cells, h, w, puzzle, mode, state, levels, ws, work, cache, no_cache, stats,  # noqa: C901
               trail, trailn, log, logn, budget, probe_depth, deep_sweeps, line_budget, windows, inner, cursor):
    """Advance the search; returns EXHAUSTED (0), FOUND (1: ``cells`` is a solution)
    or PAUSED (2: ``budget`` nodes were processed).  Call again to go on.

    The first propagation from the empty grid goes without the cache (``no_cache``
    has no slots): it never repeats a line, and on large grids filling the cache
    costs more than the line solves.  A node's propagation pauses after
    ``line_budget`` line solves (PAUSED; the same node goes on at the next call), so
    that long propagations on huge grids can report progress and honour deadlines.
    """
    level_trail, level_log, level_cell, level_second, level_tried = levels
    dirty = ws[0]
    line = ws[1]
    out = ws[2]
    score0 = ws[12]
    score1 = ws[13]
    size = h * w
    logging = log.shape[0] > 0
    processed = 0
    while True:
        phase = state[1]
        if phase == ROOT:
            for i in range(h + w):
                dirty[i] = 1
            state[1] = NODE
        elif phase == NODE:
            depth = state[0]
            if state[2] == 0:  # a new node, not one whose propagation was paused
                if processed >= budget:
                    return PAUSED
                processed += 1
                stats[NODES] += 1
                cursor[0] = 0  # depth-2 probing starts a fresh sweep at every node
                cursor[1] = 0
                cursor[2] = 1
                ws[14][3] = 0  # and plain probing a fresh sweep
                if depth > stats[MAX_DEPTH]:
                    stats[MAX_DEPTH] = depth
            first = stats[NODES] == 1
            # The root's first propagation narrows the blocks' windows: every later state
            # (every node, every probe) narrows the states it saw.
            ok = propagate(cells, h, w, puzzle, dirty, work, no_cache if first else cache, stats, line, out,
                           trail, trailn, log, logn, line_budget, windows, first)
            if ok == 2:
                state[2] = 1
                return PAUSED
            state[2] = 0
            node_mode = mode if depth <= probe_depth else 0
            if ok == 1 and node_mode == 3:
                ok = probe_depth2(cells, h, w, puzzle, ws, inner, work, cache, stats, trail, trailn, log, logn,
                                  windows, line_budget, cursor)
                if ok == 2:  # paused like a long propagation: the same node goes on at the next call
                    state[2] = 1
                    return PAUSED
            elif ok == 1:
                # A probed cell costs two trials of many line solves each: about 32 line solves.
                ok = probe(cells, h, w, puzzle, node_mode, ws, work, cache, stats, trail, trailn, log, logn,
                           1 << 30 if depth == 0 else deep_sweeps, windows, max(1, line_budget >> 5))
                if ok == 2:  # paused mid-sweep: the same node goes on probing at the next call
                    state[2] = 1
                    return PAUSED
            if ok == 0:
                state[1] = BACKTRACK
                continue
            p, value = choose_branch(cells, size, score0, score1, node_mode > 0)
            if p < 0:
                state[1] = BACKTRACK
                return FOUND
            level_trail[depth] = trailn[0]
            level_log[depth] = logn[0]
            level_cell[depth] = p
            level_second[depth] = 3 - value
            level_tried[depth] = 0
            state[0] = depth + 1
            step = -1
            if logging:
                stats[STEP_ID] += 1
                step = stats[STEP_ID]
            record(cells, p, value, trail, trailn, log, logn, step, GUESS, p)
            dirty[p // w] = 1
            dirty[h + p % w] = 1
        else:
            depth = state[0]
            if depth == 0:
                return EXHAUSTED
            lvl = depth - 1
            for i in range(level_trail[lvl], trailn[0]):
                cells[trail[i]] = 3
            trailn[0] = level_trail[lvl]
            logn[0] = level_log[lvl]
            if level_tried[lvl] == 0:
                level_tried[lvl] = 1
                p = level_cell[lvl]
                step = -1
                if logging:
                    stats[STEP_ID] += 1
                    step = stats[STEP_ID]
                # A negative source marks the second branch of a cell in the log.
                record(cells, p, level_second[lvl], trail, trailn, log, logn, step, GUESS, -1 - p)
                dirty[p // w] = 1
                dirty[h + p % w] = 1
                state[1] = NODE
            else:
                state[0] = depth - 1


def _probe_arrays(h: int, w: int, longest: int, size: int) -> tuple:
    """The work arrays of one probing level (see :func:`probe`)."""
    return (np.zeros(h + w, np.uint8), np.zeros(longest, np.uint8), np.zeros(longest, np.uint8),
            np.zeros(size, np.uint8), np.zeros(size, np.uint8), np.zeros(size, np.int32),
            np.zeros(1, np.int64), np.zeros(size, np.int32), np.zeros(1, np.int64),
            np.zeros(size, np.int64), np.zeros(1, np.int64), np.zeros(size, np.int64),
            np.zeros(size, np.int32), np.zeros(size, np.int32),
            np.zeros(4, np.int64))  # the sweep cursor of a probing paused by its budget


class Workspace:
    """Every array the engine needs for one puzzle, made once per solve (``line``: the line strategy)."""

    def __init__(self, puzzle: Puzzle, record_steps: bool = False, cache_bytes: int = 32 << 20,
                 cache: LineCache | None = None, given: bytes | None = None, depth2: bool = False,
                 line: LineStrategy | None = None, line_cap: int = DEFAULT_ENUMERATE_CAP):
        h, w = puzzle.height, puzzle.width
        self.source = puzzle
        self.height, self.width = h, w
        lines = list(puzzle.rows) + list(puzzle.columns)
        clue_ids: dict[tuple[int, ...], int] = {}
        starts = [0]
        for clue in lines:
            starts.append(starts[-1] + len(clue))
        data = [b for clue in lines for b in clue] or [0]
        self.puzzle = (np.array(data, np.int32), np.array(starts, np.int64),
                       np.array([clue_ids.setdefault(c, len(clue_ids)) for c in lines], np.int64))
        longest = max(h, w)
        blocks = max(len(c) for c in lines) + 1
        table = max(table_size(puzzle.rows, w), table_size(puzzle.columns, h))
        # The blocks' start ranges, and per line whether a solve has narrowed them (see
        # propagate.settled_ends: only then are its pinned blocks' cells decided).
        self.windows = static_windows(self.puzzle[0], self.puzzle[1], [w] * h + [h] * w) + (
            np.zeros(h + w, np.uint8),)
        self.line, self.line_cap = line, line_cap
        self.work = line_work(longest, blocks, table, line, line_cap)
        # A cache may be shared: it memoises a pure function, whichever search asks.
        self.cache = cache if cache is not None else LineCache.for_budget(longest, cache_bytes)
        self.no_cache = LineCache(0, 0)
        size = h * w
        # Given cells are set before the root and never on the trail: no backtrack undoes them.
        self.given = given if given is not None else bytes([3]) * size
        self.cells = np.frombuffer(self.given, np.uint8).copy()
        # Probing trials record what they touch; the main grid records its trail.
        self.ws = _probe_arrays(h, w, longest, size)
        # Depth-2 probing runs a probe inside each trial, with arrays of its own; other
        # levels get empty ones of the same types (the compiled signature stays one).
        self.inner = _probe_arrays(h, w, longest, size if depth2 else 0)
        self.cursor = np.zeros(3, np.int64)
        self.trail = np.zeros(size, np.int32)
        self.trailn = np.zeros(1, np.int64)
        self.log = np.zeros((size if record_steps else 0, 5), np.int32)
        self.logn = np.zeros(1, np.int64)
        self.levels = (np.zeros(size + 1, np.int64), np.zeros(size + 1, np.int64), np.zeros(size + 1, np.int64),
                       np.zeros(size + 1, np.uint8), np.zeros(size + 1, np.uint8))
        self.state = np.zeros(3, np.int64)  # depth, phase, node propagation paused
        self.stats = np.zeros(N_STATS, np.int64)

    def fork_root(self) -> "Workspace":
        """A new search of the same space that starts where this one's root ended.

        Its grid, block windows, cache and step log are this search's after the
        root's propagation and probing, so a second search style does not redo them
        (on a 4000x4000 grid that propagation is most of the solve).  Call it once
        this search has branched.
        """
        if self.state[0] == 0 and self.stats[NODES] <= 1:
            raise ValueError("Workspace.fork_root: the root has not been searched yet")
        root_trail, root_log = int(self.levels[0][0]), int(self.levels[1][0])
        grid = np.frombuffer(self.given, np.uint8).copy()
        proven = self.trail[:root_trail]
        grid[proven] = self.cells[proven]
        fork = Workspace(self.source, self.log.shape[0] > 0, cache=self.cache, given=grid.tobytes(),
                         depth2=self.inner[3].shape[0] > 0, line=self.line, line_cap=self.line_cap)
        for mine, theirs in zip(fork.windows, self.windows):
            mine[:] = theirs
        fork.log[:root_log] = self.log[:root_log]
        fork.logn[0] = root_log
        fork.stats[STEP_ID] = self.stats[STEP_ID]
        return fork

    def remainder(self) -> bytes:
        """What every solution the search has not yet reached must satisfy.

        The given cells, then those on the trail up to the first level whose first
        branch is still open: the root's propagation and probing, then the second
        branch (and its propagation) of every level whose first branch was exhausted.
        """
        depth = int(self.state[0])
        level_trail, tried = self.levels[0], self.levels[4]
        end = int(self.trailn[0])
        for lvl in range(depth):
            if tried[lvl] == 0:
                end = int(level_trail[lvl])
                break
        grid = np.frombuffer(self.given, np.uint8).copy()
        proven = self.trail[:end]
        grid[proven] = self.cells[proven]
        return grid.tobytes()

    def steps(self) -> list[Step]:
        """The event log, grouped into steps, on the current search path."""
        rows = self.log[: int(self.logn[0])]
        w, h = self.width, self.height
        steps: list[Step] = []
        depth = 0
        i = 0
        while i < len(rows):
            j = i
            while j < len(rows) and rows[j, 0] == rows[i, 0]:
                j += 1
            technique = Technique(("line", "contradiction-probe", "both-branches-agree", "guess",
                                   "depth-2-probe")[rows[i, 1]])
            source = int(rows[i, 2])
            cells = tuple((int(x) // w, int(x) % w, int(v)) for x, v in zip(rows[i:j, 3], rows[i:j, 4]))
            note = ""
            if technique is Technique.LINE:
                where = ("row", source) if source < h else ("column", source - h)
            else:
                cell = source if source >= 0 else -1 - source
                where = ("cell", cell // w, cell % w)
                if technique is Technique.GUESS:
                    depth += source >= 0
                    note = "first branch" if source >= 0 else "second branch"
                elif technique is Technique.CONTRADICTION_PROBE:
                    note = f"{'empty' if cells[0][2] else 'filled'} leads to a contradiction"
                elif technique is Technique.DEPTH2_PROBE:
                    note = "probing inside both values of this cell"
                else:
                    note = "both values of this cell imply these cells"
            steps.append(Step(technique, where, cells, depth, note))
            i = j
        return steps


@dataclass
class SearchOutcome:
    """What the search found: solutions as cell-state bytes, exactness, limits, steps."""

    solutions: list[bytes] = field(default_factory=list)
    complete: bool = False
    limited: bool = False
    timed_out: bool = False
    steps: list[Step] | None = None


def search(space: Workspace, probing: Probing = Probing.FULL, max_solutions: int | None = 2,
           deadline: float | None = None, node_limit: int | None = None,
           probe_depth: int = 1 << 30, deep_sweeps: int = 1 << 30,
           progress: Callable[[int, int], None] | None = None,
           cancelled: Callable[[], bool] | None = None) -> SearchOutcome:
    """Run the compiled search to ``max_solutions`` (``None``: all) or a limit.

    ``node_limit`` counts the nodes of this run; ``limited`` says a limit stopped it
    and ``timed_out`` that it was the clock.  Nodes deeper than ``probe_depth`` only
    propagate; below the root a probing pass makes at most ``deep_sweeps`` sweeps.
    ``progress(decided, cells)`` is called between slices of about 20 ms, and
    ``cancelled()`` asked there too: when it says yes, the run stops like a timeout.
    """
    out = SearchOutcome()
    budget = 1
    line_budget = 256
    recording = space.log.shape[0] > 0
    first_node = int(space.stats[NODES])
    while True:
        if node_limit is not None:
            left = node_limit - (int(space.stats[NODES]) - first_node)
            if left <= 0 and space.state[2] == 0:  # a paused node is finished first
                out.limited = True
                break
            budget = max(min(budget, left), 0)
        started = time.perf_counter()
        code = search_run(space.cells, space.height, space.width, space.puzzle, probing.level, space.state,
                          space.levels, space.ws, space.work, space.cache.arrays, space.no_cache.arrays,
                          space.stats, space.trail,
                          space.trailn, space.log, space.logn, budget, probe_depth, deep_sweeps, line_budget,
                          space.windows, space.inner, space.cursor)
        spent = time.perf_counter() - started
        if code == FOUND:
            out.solutions.append(space.cells.tobytes())
            if recording and out.steps is None:
                out.steps = space.steps()
            if max_solutions is not None and len(out.solutions) >= max_solutions:
                break
        elif code == EXHAUSTED:
            out.complete = True
            break
        # Between calls: check the clock, and size the next slice to about 20 ms.
        if (deadline is not None and time.perf_counter() >= deadline) or (cancelled is not None and cancelled()):
            out.limited = out.timed_out = True
            break
        if code == PAUSED:
            grow = min(2.0, 0.02 / spent) if spent > 0 else 2.0
            budget = min(_MAX_BUDGET, max(1, int(budget * grow)))
            line_budget = min(_MAX_BUDGET, max(1, int(line_budget * grow)))
            if progress is not None:
                progress(int(space.trailn[0]), space.height * space.width)
    if recording and out.steps is None:
        out.steps = space.steps()
    return out
