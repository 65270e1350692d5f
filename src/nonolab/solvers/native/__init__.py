"""The native reference solver: complete line solver, propagation, probing, search.

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
from nonolab.solvers.native.cache import LineCache
from nonolab.solvers.native.line import fix_line, solve_line
from nonolab.solvers.native.probe import Probing
from nonolab.solvers.native.propagate import Propagator
from nonolab.solvers.native.search import search
from nonolab.solvers.native.steps import Step, Technique

__all__ = ["NativeSolver", "Probing", "Step", "Technique", "fix_line", "solve_line"]


class NativeSolver:
    """Line propagation, probing and depth-first search with exact counting.

    Args:
        probing: ``"full"`` (default), ``"contradiction"`` or ``"none"``.
        cache_size: entries of the line cache before it is emptied.
        node_limit: stop after this many search nodes (reported as TIMEOUT).
        record_steps: keep the step log up to the first solution in ``SolveResult.steps``.
    """

    name = "native"

    def __init__(self, probing: str | Probing = Probing.FULL, cache_size: int = 500_000,
                 node_limit: int | None = None, record_steps: bool = False):
        self.probing = Probing(probing)
        self.cache_size = cache_size
        self.node_limit = node_limit
        self.record_steps = record_steps

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> SolveResult:
        watch = Stopwatch(limits.time_limit)
        cache = LineCache(self.cache_size)
        prop = Propagator(puzzle, cache, watch.deadline)
        found = search(prop, self.probing, limits.max_solutions, self.node_limit, self.record_steps)
        w = puzzle.width
        solutions = checked_solutions(
            puzzle, (Solution.from_flat([v == 2 for v in cells], w) for cells in found.solutions), self.name)
        if found.limited:
            status = Status.TIMEOUT
        elif solutions:
            status = Status.SOLVED
        else:
            status = Status.UNSAT
        stats = Stats(self.name, watch.elapsed(), {
            "line_solves": cache.misses,
            "cache_hits": cache.hits,
            "cache_hit_rate": round(cache.hit_rate, 4),
            "propagation_rounds": prop.rounds,
            "probes": found.probes,
            "nodes": found.nodes,
            "max_depth": found.max_depth,
        })
        return SolveResult(status, solutions, found.complete and not found.limited, stats,
                           tuple(found.steps or ()))
