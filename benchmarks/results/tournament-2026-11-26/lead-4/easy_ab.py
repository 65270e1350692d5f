"""Each puzzle's CPU in one process, first solution, as the command line's solver runs it.

Usage: python easy_ab.py SETFILE N SPEC... (SPEC: backend[:option=value,...]); the first N puzzles of SETFILE.
"""
import sys
import time

from nonolab.cli.commands import _solver
from nonolab.formats import load_all
from nonolab.solvers.base import Given, Limits

path, count = sys.argv[1], int(sys.argv[2])
puzzles = load_all(path)[:count]
for spec in sys.argv[3:]:
    name, _, opts = spec.partition(':')
    pairs = tuple(o for o in opts.split(',') if o)
    times = []
    start = time.process_time()
    for puzzle in puzzles:
        solver = _solver(name, None, pairs, None)
        t = time.process_time()
        solver.solve(puzzle, Limits(max_solutions=1), Given.of(()))
        times.append(time.process_time() - t)
    times.sort()
    print(f"{spec:40s} total {time.process_time() - start:.3f} median {times[len(times) // 2] * 1000:.2f} ms "
          f"p90 {times[int(.9 * len(times))] * 1000:.2f}")
