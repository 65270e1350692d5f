"""lcg's conflicts to the first solution on every puzzle of the tournament sets, each run capped.

    PYTHONPATH=<worktree>/src:<worktree> python scan.py CAP SPEC OUT.csv [SETS]

SETS: comma-separated (default: all 15 of benchmarks.peers.SETS). Each puzzle gets a new engine built
with SPEC (as luck-12/seeds.py does) and runs to its first solution or CAP conflicts ("solved" 0 then),
so one pathological run costs at most CAP conflicts.  Every solution found is checked against the
clues (checked_solutions raises on a wrong one).  One csv row a puzzle: set, puzzle, conflicts, solved,
CPU seconds (this process's user time; noisy: the load is beside it).  Conflicts are deterministic for
a given spec; CPU is not."""
import csv
import os
import resource
import sys

from benchmarks.peers import SETS
from benchmarks.tail import _puzzles
from nonolab.core.grid import Solution
from nonolab.solvers import build
from nonolab.solvers.base import checked_solutions

RUN_SOLUTION = 1
cap, spec, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sets = sys.argv[4].split(",") if len(sys.argv) > 4 else list(SETS)
solver = build(spec)
with open(out, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["set", "puzzle", "conflicts", "solved", "cpu", "load"])
    for name in sets:
        total = 0.0
        for key, puzzle in _puzzles(name).items():
            engine = solver._build(puzzle, [], {})
            t0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
            outcome = engine.run(100000.0, cap)
            cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - t0
            solved = outcome == RUN_SOLUTION
            if solved:
                checked_solutions(puzzle, [Solution.from_bytes(engine.solution(), puzzle.width)], spec)
            total += cpu
            writer.writerow([name, key, engine.stats()["conflicts"], int(solved), round(cpu, 4),
                             round(os.getloadavg()[0], 2)])
        f.flush()
        print(f"{name}: {total:.2f} CPU s, load {os.getloadavg()[0]:.2f}", flush=True)
