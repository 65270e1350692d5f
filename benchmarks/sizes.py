"""At what size does a backend stop finishing?  Random square puzzles of growing side.

    python -m benchmarks.sizes [--backends dlx,backtrack] [--sizes 5,10,15,20,25,30]
        [--count 5] [--density 0.5] [--time-limit 60] [--max-solutions 2]

``--backends`` takes backend specs, e.g. ``native:line=enumerate`` for a line strategy
of the native engine (see ``nonolab backends``).

For each side, ``count`` uniform random pictures (``nonolab.generate.random_grid``,
seed ``1000 * side + i``) give the puzzles; each backend solves each one, counting
to ``max_solutions`` within the time limit, and one line per (backend, side) says
how many finished, with the median and largest time.  A backend is not run on
larger sides once none of its puzzles of one side finished.  Prints a markdown table.
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from nonolab.generate import puzzle_from_array, random_grid
from nonolab.solvers import build
from nonolab.solvers.base import Limits


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sizes", description=__doc__.splitlines()[0])
    parser.add_argument("--backends", "--strategies", dest="backends", default="dlx,backtrack",
                        help="comma-separated backend specs")
    parser.add_argument("--sizes", type=_ints, default=[5, 10, 15, 20, 25, 30])
    parser.add_argument("--count", type=int, default=5, help="puzzles per side")
    parser.add_argument("--density", type=float, default=0.5)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--max-solutions", type=int, default=2)
    args = parser.parse_args(argv)

    limits = Limits(max_solutions=args.max_solutions, time_limit=args.time_limit)
    print("| backend | side | finished | median s | max s | counts |")
    print("|---|---|---|---|---|---|")
    for name in args.backends.split(","):
        name = name.strip()
        solver = build(name)
        solver.solve(puzzle_from_array(random_grid(8, 8, 0.5, seed=1)), limits)  # warm-up: JIT, imports
        for side in args.sizes:
            times, finished, verdicts = [], 0, []
            for i in range(args.count):
                puzzle = puzzle_from_array(random_grid(side, side, args.density, seed=1000 * side + i))
                start = time.perf_counter()
                result = solver.solve(puzzle, limits)
                times.append(time.perf_counter() - start)
                done = result.complete or result.count >= args.max_solutions
                finished += done
                # "1": unique (exhausted); "2+": stopped at max_solutions; exact counts below it.
                verdicts.append("timeout" if not done else
                                f"{result.count}{'' if result.complete else '+'}")
            print(f"| {name} | {side} | {finished}/{args.count} | {median(times):.3f} | "
                  f"{max(times):.3f} | {' '.join(verdicts)} |", flush=True)
            if not finished:
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
