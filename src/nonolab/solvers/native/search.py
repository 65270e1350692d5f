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
from nonolab.solvers.native.bundles import (ACTIVE, DEEP_FULL_FIRST, DEEP_NEXT, DEEP_QUIET, DEPTH, LOG_CELL,
                                             LOG_COLUMNS, LOG_SOURCE, LOG_STEP, LOG_TECHNIQUE, LOG_VALUE, NODE_PAUSED,
                                             PHASE, Clues, Levels, Lines, Log, Probes, Space, Trail, Windows)
from nonolab.solvers.native.cache import MAX_DEPTH, N_STATS, NODES, STEP_ID, LineCache
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.line import static_windows, table_size
from nonolab.solvers.native.probe import Probing, choose_branch, probe, probe_depth2
from nonolab.solvers.native.propagate import GUESS, NO_SPAN, mark_all, mark_cell, propagate, record
from nonolab.solvers.native.strategies import DEFAULT_ENUMERATE_CAP, LineStrategy, line_work
from nonolab.solvers.steps import Step, Technique

ROOT, NODE, BACKTRACK = 0, 1, 2
_MAX_BUDGET = 1 << 40  # slices grow while they are short; this keeps them an int64
EXHAUSTED, FOUND, PAUSED = 0, 1, 2


@jit
def search_run(space, h, w, mode, budget, probe_depth, deep_sweeps, line_budget):  # noqa: C901
    """Advance the search of ``space`` (a :class:`~nonolab.solvers.native.bundles.Space`);
    returns EXHAUSTED (0), FOUND (1: ``space.cells`` is a solution) or PAUSED (2:
    ``budget`` nodes were processed).  Call again to go on.

    The first propagation from the empty grid goes without the cache
    (``space.no_cache`` has no slots): it never repeats a line, and on large grids
    filling the cache costs more than the line solves.  A node's propagation pauses after
    ``line_budget`` line solves (PAUSED; the same node goes on at the next call), so
    that long propagations on huge grids can report progress and honour deadlines.
    """
    cells, lines, trail, log = space.cells, space.lines, space.trail, space.log
    levels, state, probes, cursor = space.levels, space.state, space.probes, space.cursor
    dirty, stats = lines.dirty, lines.stats
    size = h * w
    logging = log.rows.shape[0] > 0
    processed = 0
    while True:
        phase = state[PHASE]
        if phase == ROOT:
            mark_all(lines, h + w)
            state[PHASE] = NODE
        elif phase == NODE:
            depth = state[DEPTH]
            if state[NODE_PAUSED] == 0:  # a new node, not one whose propagation was paused
                if processed >= budget:
                    return PAUSED
                processed += 1
                stats[NODES] += 1
                cursor[DEEP_NEXT] = 0  # depth-2 probing starts a fresh sweep at every node
                cursor[DEEP_QUIET] = 0
                cursor[DEEP_FULL_FIRST] = 1
                probes.cursor[ACTIVE] = 0  # and plain probing a fresh sweep
                if depth > stats[MAX_DEPTH]:
                    stats[MAX_DEPTH] = depth
            first = stats[NODES] == 1
            # The root's first propagation narrows the blocks' windows: every later state
            # (every node, every probe) narrows the states it saw.
            if first:  # the same bundle with the empty cache table (made here: numba types every bundle
                # passed from Python at each call, so the search is given as few as it needs)
                root = Lines(lines.clues, lines.windows, lines.work, space.no_cache, stats, dirty, lines.span,
                             lines.line, lines.out)
                ok = propagate(cells, h, w, root, trail, log, line_budget, first)
            else:
                ok = propagate(cells, h, w, lines, trail, log, line_budget, first)
            if ok == 2:
                state[NODE_PAUSED] = 1
                return PAUSED
            state[NODE_PAUSED] = 0
            node_mode = mode if depth <= probe_depth else 0
            if ok == 1 and node_mode == 3:
                ok = probe_depth2(cells, h, w, lines, probes, space.inner, trail, log, line_budget, cursor)
                if ok == 2:  # paused like a long propagation: the same node goes on at the next call
                    state[NODE_PAUSED] = 1
                    return PAUSED
            elif ok == 1:
                # A probed cell costs two trials of many line solves each: about 32 line solves.
                ok = probe(cells, h, w, node_mode, lines, probes, trail, log,
                           1 << 30 if depth == 0 else deep_sweeps, max(1, line_budget >> 5))
                if ok == 2:  # paused mid-sweep: the same node goes on probing at the next call
                    state[NODE_PAUSED] = 1
                    return PAUSED
            if ok == 0:
                state[PHASE] = BACKTRACK
                continue
            p, value = choose_branch(cells, size, probes.score0, probes.score1, node_mode > 0)
            if p < 0:
                state[PHASE] = BACKTRACK
                return FOUND
            levels.trail[depth] = trail.n[0]
            levels.log[depth] = log.n[0]
            levels.cell[depth] = p
            levels.second[depth] = 3 - value
            levels.tried[depth] = 0
            state[DEPTH] = depth + 1
            step = -1
            if logging:
                stats[STEP_ID] += 1
                step = stats[STEP_ID]
            record(cells, p, value, trail, log, step, GUESS, p)
            mark_cell(lines, p, h, w)
        else:
            depth = state[DEPTH]
            if depth == 0:
                return EXHAUSTED
            lvl = depth - 1
            for i in range(levels.trail[lvl], trail.n[0]):
                cells[trail.cells[i]] = 3
            trail.n[0] = levels.trail[lvl]
            log.n[0] = levels.log[lvl]
            if levels.tried[lvl] == 0:
                levels.tried[lvl] = 1
                p = levels.cell[lvl]
                step = -1
                if logging:
                    stats[STEP_ID] += 1
                    step = stats[STEP_ID]
                # A negative source marks the second branch of a cell in the log.
                record(cells, p, levels.second[lvl], trail, log, step, GUESS, -1 - p)
                mark_cell(lines, p, h, w)
                state[PHASE] = NODE
            else:
                state[DEPTH] = depth - 1


def _trail(size: int) -> Trail:
    return Trail(cells=np.zeros(size, np.int32), n=np.zeros(1, np.int64))


def _probes(size: int) -> Probes:
    """The work arrays of one probing level (see :func:`probe`)."""
    return Probes(scratch0=np.zeros(size, np.uint8), scratch1=np.zeros(size, np.uint8),
                  touched0=_trail(size), touched1=_trail(size), mark=np.zeros(size, np.int64),
                  stamp=np.zeros(1, np.int64), agree=np.zeros(size, np.int64), score0=np.zeros(size, np.int32),
                  score1=np.zeros(size, np.int32), cursor=np.zeros(4, np.int64))


class Workspace:
    """Every array the engine needs for one puzzle, made once per solve (``line``: the line strategy).

    ``arrays`` is the :class:`~nonolab.solvers.native.bundles.Space` the compiled
    kernels work on; ``cells`` and ``stats`` are its grid and counters.
    """

    def __init__(self, puzzle: Puzzle, record_steps: bool = False, cache_bytes: int = 32 << 20,
                 cache: LineCache | None = None, given: bytes | None = None, depth2: bool = False,
                 line: LineStrategy | None = None, line_cap: int = DEFAULT_ENUMERATE_CAP):
        h, w = puzzle.height, puzzle.width
        self.source = puzzle
        self.height, self.width = h, w
        all_clues = list(puzzle.rows) + list(puzzle.columns)
        clue_ids: dict[tuple[int, ...], int] = {}
        starts = [0]
        for clue in all_clues:
            starts.append(starts[-1] + len(clue))
        data = [b for clue in all_clues for b in clue] or [0]
        clues = Clues(data=np.array(data, np.int32), starts=np.array(starts, np.int64),
                      ids=np.array([clue_ids.setdefault(c, len(clue_ids)) for c in all_clues], np.int64))
        longest = max(h, w)
        blocks = max(len(c) for c in all_clues) + 1
        table = max(table_size(puzzle.rows, w), table_size(puzzle.columns, h))
        # The blocks' start ranges, and per line whether a solve has narrowed them (see
        # propagate.open_segment: only then are its pinned blocks' cells decided).
        windows = Windows(*static_windows(clues.data, clues.starts, [w] * h + [h] * w),
                          narrowed=np.zeros(h + w, np.uint8))
        self.line, self.line_cap = line, line_cap
        # A cache may be shared: it memoises a pure function, whichever search asks.
        self.cache = cache if cache is not None else LineCache.for_budget(longest, cache_bytes)
        lines = Lines(clues=clues, windows=windows, work=line_work(longest, blocks, table, line, line_cap),
                      cache=self.cache.table, stats=np.zeros(N_STATS, np.int64), dirty=np.zeros(h + w, np.uint8),
                      span=np.array([[NO_SPAN] * (h + w), [-1] * (h + w)], np.int32),
                      line=np.zeros(longest, np.uint8), out=np.zeros(longest, np.uint8))
        size = h * w
        # Given cells are set before the root and never on the trail: no backtrack undoes them.
        self.given = given if given is not None else bytes([3]) * size
        self.arrays = Space(
            cells=np.frombuffer(self.given, np.uint8).copy(),
            lines=lines,
            no_cache=LineCache(0, 0).table,
            trail=_trail(size),
            log=Log(rows=np.zeros((size if record_steps else 0, LOG_COLUMNS), np.int32), n=np.zeros(1, np.int64)),
            # Probing trials record what they touch; the main grid records its trail.
            probes=_probes(size),
            # Depth-2 probing runs a probe inside each trial, with arrays of its own; other
            # levels get empty ones of the same types (the compiled signature stays one).
            inner=_probes(size if depth2 else 0),
            levels=Levels(trail=np.zeros(size + 1, np.int64), log=np.zeros(size + 1, np.int64),
                          cell=np.zeros(size + 1, np.int64), second=np.zeros(size + 1, np.uint8),
                          tried=np.zeros(size + 1, np.uint8)),
            state=np.zeros(3, np.int64),
            cursor=np.zeros(3, np.int64))
        self.run: Callable | None = None  # search_run's compiled code for these arrays (see _compiled)

    @property
    def cells(self) -> np.ndarray:
        """The grid, one state mask per cell (row-major)."""
        return self.arrays.cells

    @property
    def stats(self) -> np.ndarray:
        """The counters (``cache.LINE_SOLVES``, ``cache.NODES``, ...)."""
        return self.arrays.lines.stats

    def fork_root(self) -> "Workspace":
        """A new search of the same space that starts where this one's root ended.

        Its grid, block windows, cache and step log are this search's after the
        root's propagation and probing, so a second search style does not redo them
        (on a 4000x4000 grid that propagation is most of the solve).  Call it once
        this search has branched.
        """
        mine = self.arrays
        if mine.state[DEPTH] == 0 and self.stats[NODES] <= 1:
            raise ValueError("Workspace.fork_root: the root has not been searched yet")
        root_trail, root_log = int(mine.levels.trail[0]), int(mine.levels.log[0])
        grid = np.frombuffer(self.given, np.uint8).copy()
        proven = mine.trail.cells[:root_trail]
        grid[proven] = mine.cells[proven]
        fork = Workspace(self.source, mine.log.rows.shape[0] > 0, cache=self.cache, given=grid.tobytes(),
                         depth2=mine.inner.scratch0.shape[0] > 0, line=self.line, line_cap=self.line_cap)
        theirs = fork.arrays
        for to, source in zip(theirs.lines.windows, mine.lines.windows):
            to[:] = source
        theirs.log.rows[:root_log] = mine.log.rows[:root_log]
        theirs.log.n[0] = root_log
        fork.stats[STEP_ID] = self.stats[STEP_ID]
        return fork

    def remainder(self) -> bytes:
        """What every solution the search has not yet reached must satisfy.

        The given cells, then those on the trail up to the first level whose first
        branch is still open: the root's propagation and probing, then the second
        branch (and its propagation) of every level whose first branch was exhausted.
        """
        space = self.arrays
        depth = int(space.state[DEPTH])
        end = int(space.trail.n[0])
        for lvl in range(depth):
            if space.levels.tried[lvl] == 0:
                end = int(space.levels.trail[lvl])
                break
        grid = np.frombuffer(self.given, np.uint8).copy()
        proven = space.trail.cells[:end]
        grid[proven] = space.cells[proven]
        return grid.tobytes()

    def steps(self) -> list[Step]:
        """The event log, grouped into steps, on the current search path."""
        log = self.arrays.log
        rows = log.rows[: int(log.n[0])]
        w, h = self.width, self.height
        steps: list[Step] = []
        depth = 0
        i = 0
        while i < len(rows):
            j = i
            while j < len(rows) and rows[j, LOG_STEP] == rows[i, LOG_STEP]:
                j += 1
            technique = Technique(("line", "contradiction-probe", "both-branches-agree", "guess",
                                   "depth-2-probe")[rows[i, LOG_TECHNIQUE]])
            source = int(rows[i, LOG_SOURCE])
            cells = tuple((int(x) // w, int(x) % w, int(v)) for x, v in zip(rows[i:j, LOG_CELL], rows[i:j, LOG_VALUE]))
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


def _compiled(kernel: Callable) -> Callable | None:
    """``kernel``'s compiled code, to call without numba's dispatch; ``None`` if unsure which.

    Numba types a named tuple argument in Python at every call from Python: 30 to 130 µs
    for the search's bundles, against 6 µs for arrays by position.  Called once the
    kernel has run on a workspace's arrays: if numba holds exactly one compiled version,
    it is the one those arrays (whose types never change) selected.
    """
    overloads = getattr(kernel, "overloads", None)  # None: NUMBA_DISABLE_JIT, or a test's stand-in
    if overloads is None or len(overloads) != 1:
        return None
    return next(iter(overloads.values())).entry_point


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
    arrays = space.arrays
    recording = arrays.log.rows.shape[0] > 0
    first_node = int(space.stats[NODES])
    while True:
        if node_limit is not None:
            left = node_limit - (int(space.stats[NODES]) - first_node)
            if left <= 0 and arrays.state[NODE_PAUSED] == 0:  # a paused node is finished first
                out.limited = True
                break
            budget = max(min(budget, left), 0)
        started = time.perf_counter()
        run = space.run or search_run
        code = run(arrays, space.height, space.width, probing.level, budget, probe_depth, deep_sweeps, line_budget)
        if space.run is None:
            space.run = _compiled(search_run)
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
                progress(int(arrays.trail.n[0]), space.height * space.width)
    if recording and out.steps is None:
        out.steps = space.steps()
    return out
