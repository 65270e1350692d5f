"""The native reference solver: complete line solver, propagation, probing, search.

The line solver is a choice (``line=``): the complete DP by default, or one of the
simpler strategies of :mod:`~nonolab.solvers.native.strategies` (for benchmarks and
human-labelled step logs); search keeps every answer exact with any of them.

The hot loops (line solver, cache, propagation, probing, search) are compiled with
numba; ``NUMBA_DISABLE_JIT=1`` runs the same functions as plain Python.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = NativeSolver().solve(p, Limits(max_solutions=None))
>>> result.status.value, result.count, result.complete
('solved', 2, True)
"""

from __future__ import annotations

import time
from typing import Callable, Mapping

import numpy as np

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Limits, SolveResult, Stats, Status, Stopwatch, checked_solutions
from nonolab.errors import InvalidArgument
from nonolab.solvers.options import Option
from nonolab.solvers.native.cache import CACHE_HITS, LINE_SOLVES, MAX_DEPTH, NODES, PROBES, ROUNDS
from nonolab.solvers.native.line import fix_line, solve_line
from nonolab.solvers.native.labels import label_steps
from nonolab.solvers.native.probe import Probing, implications
from nonolab.solvers.native.search import Workspace, search
from nonolab.solvers.native.strategies import DEFAULT_ENUMERATE_CAP, STRATEGIES, line_strategy
from nonolab.solvers.steps import Step, Technique

__all__ = ["NativeSolver", "Probing", "Step", "Technique", "fix_line", "solve_line"]

# Two search styles run interleaved, in alternating time slices, each resuming where
# it stopped: probing at every node (one sweep below the root) wins where probing
# prunes much (Lion, Nature, the LalaFrogKK puzzle); probing only at the root and its
# children wins where nodes must be cheap (Forever).  Interleaving costs at most twice
# the better style, and loses no work.  Measured on the survey set: benchmarks/RESULTS.md.
_STYLES = ((1 << 30, 1), (1, 1 << 30))
_SLICE = 0.05  # seconds
# What a solve costs after its search, per cell: verifying the solutions, the
# remainder, the pictures (2.9 s on a 5000x5000 grid, measured).  Under a time limit the
# search stops this much earlier, so that the whole call ends within the limit.
_FINISH_PER_CELL = 1.2e-7


class NativeSolver:
    """Line propagation, probing and depth-first search with exact counting.

    Args:
        probing: ``"full"`` (default), ``"contradiction"``, ``"none"``, or
            ``"depth-2"`` (probes that probe: for grading, far slower).
        cache_bytes: memory for the line cache (0 disables it).
        node_limit: stop after this many search nodes in all (reported as TIMEOUT).
        record_steps: keep the step log up to the first solution in ``SolveResult.steps``.
        restarts: alternate the two search styles with growing node budgets (default);
            ``False`` runs one search with ``probe_depth`` and ``deep_sweeps``.
        probe_depth: without restarts, nodes deeper than this only propagate.
        deep_sweeps: without restarts, probing sweeps per node below the root.
        progress: called as ``progress(decided_cells, all_cells)`` about every 20 ms
            while the first search style works (for progress bars on long runs).
        handoff: called once, between slices, after ``handoff_after`` seconds if the
            search is still going, with the current remainder (see
            ``SolveResult.remainder``); the search goes on.  How ``auto`` starts a
            CDCL solver on what is left while this search keeps running.

        line: the line strategy, ``"dp"`` (default, complete), ``"chain-range"``,
            ``"overlap"`` or ``"enumerate"`` (see
            :mod:`~nonolab.solvers.native.strategies`).  An incomplete one leaves
            more to search; answers stay exact.  Rule-based ones label their step
            log with human techniques (simple-overlap, block-capping, clue-exhaustion).
        line_cap: ``enumerate`` only: the block positions one line solve may try
            before it gives up on that line (leaving it unchanged).

    ``NativeSolver(line="chain-range").line_complete`` says whether the line strategy
    is complete (``VARIANTS`` lists the option values the contract suite runs).

    A count is exact only when one run exhausts its space; solutions found by any
    run are kept (each is verified), so two of them prove ``multiple`` at once.
    """

    name = "native"
    OPTIONS = (
        Option("probing", "choice", "full", "probing between line propagation and search",
               choices=tuple(p.value for p in Probing)),
        Option("line", "choice", "dp", "the line strategy (dp is complete; the others leave more to search)",
               choices=tuple(STRATEGIES)),
        Option("line_cap", "int", DEFAULT_ENUMERATE_CAP, "enumerate only: placements one line solve may try",
               minimum=1),
        Option("cache_bytes", "int", 32 << 20, "memory for the line cache (0 disables it)", minimum=0),
        Option("node_limit", "int", None, "stop after this many search nodes (reported as timeout)",
               minimum=1, optional=True),
        Option("record_steps", "bool", False, "keep the step log up to the first solution"),
        Option("restarts", "bool", True, "alternate the two search styles (off: probe_depth, deep_sweeps)"),
        Option("probe_depth", "int", 1 << 30, "without restarts: deeper nodes only propagate", minimum=0),
        Option("deep_sweeps", "int", 1 << 30, "without restarts: probing sweeps per node below the root",
               minimum=0),
        Option("handoff_after", "float", 0.5, "seconds before the handoff callback is called", minimum=0),
    )
    PROGRAMMATIC = ("progress", "handoff")
    # Option values that make a different solver (the default "dp" is the plain
    # backend), each held to the whole contract suite: see nonolab.solvers.specs.
    VARIANTS = {"line": tuple(name for name in STRATEGIES if name != "dp")}

    def __init__(self, probing: str | Probing = Probing.FULL, cache_bytes: int = 32 << 20,
                 node_limit: int | None = None, record_steps: bool = False, restarts: bool = True,
                 probe_depth: int = 1 << 30, deep_sweeps: int = 1 << 30,
                 progress: Callable[[int, int], None] | None = None,
                 handoff: Callable[[bytes], None] | None = None, handoff_after: float = 0.5,
                 line: str = "dp", line_cap: int = DEFAULT_ENUMERATE_CAP):
        self.probing = Probing(probing)
        self.line = line_strategy(line)
        if isinstance(line_cap, bool) or not isinstance(line_cap, int) or line_cap < 1:
            raise InvalidArgument(f"native: line_cap must be a positive integer, not {line_cap!r}")
        self.line_cap = line_cap
        if cache_bytes < 0:
            raise ValueError("NativeSolver: cache_bytes must be non-negative")
        self.cache_bytes = cache_bytes
        self.node_limit = node_limit
        self.record_steps = record_steps
        self.restarts = restarts
        self.probe_depth = probe_depth
        self.deep_sweeps = deep_sweeps
        self.progress = progress
        self.handoff = handoff
        self.handoff_after = handoff_after

    @property
    def line_complete(self) -> bool:
        """Whether the line strategy fixes every forced cell (only ``dp`` does)."""
        return self.line.complete

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), *,
              fixed_cells: Mapping[tuple[int, int], int] | None = None) -> SolveResult:
        """Search ``puzzle`` within ``limits``.

        Args:
            fixed_cells: ``{(row, column): 0 or 1}`` (0-based) cells given before
                the root; the solutions (and the count) are those that agree.
        """
        watch = Stopwatch.of(limits)
        given = _given(puzzle, fixed_cells) if fixed_cells else None
        depth2 = self.probing is Probing.DEPTH2
        first = Workspace(puzzle, self.record_steps, self.cache_bytes, given=given, depth2=depth2,
                          line=self.line, line_cap=self.line_cap)
        styles = list(_STYLES) if self.restarts else [(self.probe_depth, self.deep_sweeps)]
        spaces = [first]
        search_end = None if watch.deadline is None else watch.deadline - _FINISH_PER_CELL * puzzle.width * puzzle.height
        found: dict[bytes, Solution] = {}  # verified as each slice ends, inside the clock
        w = puzzle.width
        steps = None
        complete = limited = done = False
        handed = self.handoff is None
        while not done:
            for index, (probe_depth, deep_sweeps) in enumerate(styles):
                if index == len(spaces):
                    if first.stats[NODES] <= 1:
                        break  # no second style until the first one branches: line-solvable puzzles end at the root
                    spaces.append(first.fork_root())
                space = spaces[index]
                nodes = sum(int(sp.stats[NODES]) for sp in spaces)
                budget = None if self.node_limit is None else self.node_limit - nodes
                deadline = search_end
                if len(styles) > 1 or not handed:
                    slice_end = time.perf_counter() + _SLICE
                    deadline = slice_end if deadline is None else min(deadline, slice_end)
                run = search(space, self.probing, limits.max_solutions, deadline, budget, probe_depth,
                             deep_sweeps, self.progress if space is first else None, watch.cancelled)
                if steps is None and run.solutions:
                    steps = run.steps
                # Verify what this slice found now, not after the search: a count finds
                # solutions faster than they are checked, and the limit must cover both.
                fresh = [cells for cells in dict.fromkeys(run.solutions) if cells not in found]
                checked = checked_solutions(puzzle, (Solution.from_states(cells, w) for cells in fresh), self.name)
                found.update(zip(fresh, checked))
                # An exhausted search has seen every solution, so the union is all of them.
                complete = run.complete
                past = search_end is not None and time.perf_counter() >= search_end
                limited = not complete and (past or watch.cancelled() or (run.limited and not run.timed_out))
                enough = limits.max_solutions is not None and len(found) >= limits.max_solutions
                done = complete or limited or enough
                if done:
                    break
                if not handed and watch.elapsed() >= self.handoff_after:
                    handed = True
                    self.handoff(min((sp.remainder() for sp in spaces), key=lambda cells: cells.count(3)))
        solutions = tuple(found.values())
        if limits.max_solutions is not None:
            solutions = solutions[:limits.max_solutions]
        if limited:
            status = watch.stopped_status()
        elif solutions:
            status = Status.SOLVED
        else:
            status = Status.UNSAT
        s = sum(sp.stats for sp in spaces)
        solves, hits = int(s[LINE_SOLVES]), int(s[CACHE_HITS])
        stats = Stats(self.name, watch.elapsed(), {
            "line_solves": solves,
            "cache_hits": hits,
            "cache_hit_rate": round(hits / (solves + hits), 4) if solves + hits else 0.0,
            "propagation_rounds": int(s[ROUNDS]),
            "probes": int(s[PROBES]),
            "nodes": int(s[NODES]),
            "max_depth": int(s[MAX_DEPTH]),
            "styles": len(spaces),
        })
        if steps is None and self.record_steps:
            steps = first.steps()
        if steps and self.line.labelled:
            steps = label_steps(puzzle, steps, self.line, given)
        remainder = None
        if not complete:  # each style's open space is valid alone: hand on the narrower one
            remainder = min((sp.remainder() for sp in spaces), key=lambda cells: cells.count(3))
        return SolveResult(status, solutions, complete, stats, tuple(steps or ()), remainder)

    def implications(self, puzzle: Puzzle, cells: bytes, max_pairs: int = 1 << 21) -> np.ndarray:
        """What propagation derives from each value of each unknown cell of ``cells``.

        ``cells`` is a partial grid (one state mask per cell, row-major; e.g. a
        result's ``remainder``).  Returns an int32 array of rows ``(p, a, q, b)``:
        with ``cells``, cell ``p`` in state ``a`` implies cell ``q`` in state ``b``
        (1 empty, 2 filled; ``q == p`` marks a value that leads to a contradiction).
        Each row is a clause ``p != a or q == b`` true in every solution that agrees
        with ``cells``; at most ``max_pairs`` rows.

        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
        >>> NativeSolver().implications(p, bytes([3, 3, 3, 3]))[:2].tolist()
        [[0, 1, 1, 2], [0, 1, 2, 2]]
        """
        if len(cells) != puzzle.height * puzzle.width:
            raise ValueError(f"NativeSolver.implications: {len(cells)} cells for a "
                             f"{puzzle.width}x{puzzle.height} puzzle")
        space = Workspace(puzzle, False, self.cache_bytes, line=self.line, line_cap=self.line_cap)
        space.cells[:] = np.frombuffer(cells, np.uint8)
        pairs = np.zeros((max_pairs, 4), np.int32)
        n = implications(space.arrays, puzzle.height, puzzle.width, pairs)
        return pairs[:n]


def _given(puzzle: Puzzle, fixed_cells: Mapping[tuple[int, int], int]) -> bytes:
    """Fixed cells as a partial grid of state masks (2 filled, 1 empty, 3 unknown)."""
    h, w = puzzle.height, puzzle.width
    grid = bytearray([3]) * (h * w)
    for key, value in fixed_cells.items():
        if not (isinstance(key, tuple) and len(key) == 2 and 0 <= key[0] < h and 0 <= key[1] < w):
            raise ValueError(f"NativeSolver.solve: fixed cell {key!r} is outside the {w}x{h} grid")
        if value not in (0, 1) or isinstance(value, float):
            raise ValueError(f"NativeSolver.solve: fixed cell {key!r} has value {value!r}, not 0 or 1")
        grid[key[0] * w + key[1]] = 2 if value else 1
    return bytes(grid)
