"""tail-13's scan.py on a chosen subset, with the lookahead's counters: the first screen of an lcg option.

    PYTHONPATH=<worktree>/src:<worktree> python screen.py CAP SPEC OUT.csv PUZZLES [SETS]

PUZZLES: a file of set:puzzle lines (hard48.txt: the 48 puzzles over 60,000 conflicts for at least one of
seeds 0-3 in tail-13's whole-population scans) or "-" for none; SETS: comma-separated whole sets.  Each
puzzle gets a new engine built with SPEC and runs to its first solution or CAP conflicts; every solution is
checked against the clues.  One csv row a puzzle: set, puzzle, conflicts, solved, CPU (user, noisy), load,
line runs, lookaheads, lookahead probes, failed probes, lookahead line runs."""
import csv
import os
import resource
import sys

from benchmarks.tail import _puzzles
from nonolab.core.grid import Solution
from nonolab.solvers import build
from nonolab.solvers.base import checked_solutions

RUN_SOLUTION = 1
cap, spec, out, listed = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
sets = sys.argv[5].split(",") if len(sys.argv) > 5 else []
work = []  # (set, key or None for all)
if listed != "-":
    for line in open(listed).read().split():
        name, key = line.split(":")
        work.append((name, key))
work += [(name, None) for name in sets]
solver = build(spec)
cache = {}
with open(out, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["set", "puzzle", "conflicts", "solved", "cpu", "load", "line_runs", "lookaheads",
                     "lookahead_probes", "lookahead_failed", "lookahead_line_runs"])
    for name, only in work:
        if name not in cache:
            cache = {name: _puzzles(name)}
        for key, puzzle in cache[name].items():
            if only is not None and str(key) != only:
                continue
            engine = solver._build(puzzle, [], {})
            t0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
            outcome = engine.run(100000.0, cap)
            cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - t0
            solved = outcome == RUN_SOLUTION
            if solved:
                checked_solutions(puzzle, [Solution.from_bytes(engine.solution(), puzzle.width)], spec)
            s = engine.stats()
            writer.writerow([name, key, s["conflicts"], int(solved), round(cpu, 4), round(os.getloadavg()[0], 2),
                             s["line_runs"], s.get("lookaheads", 0), s.get("lookahead_probes", 0),
                             s.get("lookahead_failed", 0), s.get("lookahead_line_runs", 0)])
            f.flush()
