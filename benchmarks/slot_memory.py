"""Peak resident memory of native's search with and without LalaFrogKK's slot (tidy-7).

9-Dom in the corner of a blank N x N grid: the root settles every other cell, the search
is 9-Dom's (far beyond the node limit), so the run ends at the node limit, by work.  One
run a process (``ru_maxrss`` is the process's peak); prints the peak above the process's
before the search, per cell, beside what the solver declares a cell.

    python -m benchmarks.slot_memory 2000 none 20000 [steps] [--cache-bytes 0]
    python -m benchmarks.slot_memory 2000 0 20000        # the slot from the first node
"""

from __future__ import annotations

import argparse
import resource

from nonolab.bench.suites import items_of
from nonolab.core import Puzzle
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("side", type=int)
    parser.add_argument("slot", help="lalafrog_after: a node count, 'none' (no slot) or 'default'")
    parser.add_argument("nodes", type=int, help="the node limit")
    parser.add_argument("steps", nargs="?", default="", help="'steps' to keep the step log")
    parser.add_argument("--cache-bytes", type=int, default=32 << 20)
    args = parser.parse_args(argv)
    small = items_of(["ndom:9"])[0].puzzle
    puzzle = Puzzle(rows=small.rows + ((),) * (args.side - small.height),
                    columns=small.columns + ((),) * (args.side - small.width))
    options = {} if args.slot == "default" else {"lalafrog_after": None if args.slot == "none" else int(args.slot)}
    solver = NativeSolver(node_limit=args.nodes, threads=1, record_steps=args.steps == "steps",
                          cache_bytes=args.cache_bytes, **options)
    solver.solve(small, Limits(max_solutions=2))   # the engine loaded before the baseline
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = solver.solve(puzzle, Limits(max_solutions=2))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c, cells = result.stats.counters, args.side ** 2
    print(f"side={args.side} slot={args.slot} steps={args.steps == 'steps'} cache={args.cache_bytes} "
          f"status={result.status.value} nodes={c['nodes']} styles={c['styles']} slot_nodes={c['slot_nodes']} "
          f"peak_MB={peak / 1024:.0f} search_bytes_per_cell={(peak - before) * 1024 / cells:.2f} "
          f"declared={solver.memory_per_cell(puzzle)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
