"""The native reference solver: complete line solver, propagation, probing, search.

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

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Limits, SolveResult, Stats, Status, Stopwatch, checked_solutions
from nonolab.solvers.native.cache import CACHE_HITS, LINE_SOLVES, MAX_DEPTH, NODES, PROBES, ROUNDS
from nonolab.solvers.native.line import fix_line, solve_line
from nonolab.solvers.native.probe import Probing
from nonolab.solvers.native.search import Workspace, search
from nonolab.solvers.native.steps import Step, Technique

__all__ = ["NativeSolver", "Probing", "Step", "Technique", "fix_line", "solve_line"]


class NativeSolver:
    """Line propagation, probing and depth-first search with exact counting.

    Args:
        probing: ``"full"`` (default), ``"contradiction"`` or ``"none"``.
        cache_bytes: memory for the line cache (0 disables it).
        node_limit: stop after this many search nodes (reported as TIMEOUT).
        record_steps: keep the step log up to the first solution in ``SolveResult.steps``.
    """

    name = "native"

    def __init__(self, probing: str | Probing = Probing.FULL, cache_bytes: int = 32 << 20,
                 node_limit: int | None = None, record_steps: bool = False):
        self.probing = Probing(probing)
        if cache_bytes < 0:
            raise ValueError("NativeSolver: cache_bytes must be non-negative")
        self.cache_bytes = cache_bytes
        self.node_limit = node_limit
        self.record_steps = record_steps

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> SolveResult:
        watch = Stopwatch(limits.time_limit)
        space = Workspace(puzzle, self.record_steps, self.cache_bytes)
        found = search(space, self.probing, limits.max_solutions, watch.deadline, self.node_limit)
        w = puzzle.width
        solutions = checked_solutions(
            puzzle, (Solution.from_flat([v == 2 for v in cells], w) for cells in found.solutions), self.name)
        if found.limited:
            status = Status.TIMEOUT
        elif solutions:
            status = Status.SOLVED
        else:
            status = Status.UNSAT
        s = space.stats
        solves, hits = int(s[LINE_SOLVES]), int(s[CACHE_HITS])
        stats = Stats(self.name, watch.elapsed(), {
            "line_solves": solves,
            "cache_hits": hits,
            "cache_hit_rate": round(hits / (solves + hits), 4) if solves + hits else 0.0,
            "propagation_rounds": int(s[ROUNDS]),
            "probes": int(s[PROBES]),
            "nodes": int(s[NODES]),
            "max_depth": int(s[MAX_DEPTH]),
        })
        return SolveResult(status, solutions, found.complete and not found.limited, stats,
                           tuple(found.steps or ()))
