"""lcg's conflicts to the first solution over seeds (the `seed` option): its run-time distribution.

    PYTHONPATH=<worktree>/src:<worktree> python seeds.py CAP SEEDS [SPEC] set:key ...

SEEDS: comma-separated; SPEC (default "lcg"): the spec each seed is added to ("lcg:shake=2000").
One json line per (puzzle, seed): conflicts (CAP when the cap stopped it: "solved" false)
and CPU seconds with the load.  Conflicts are deterministic for a given seed; CPU is not."""
import json
import os
import resource
import sys

from benchmarks.tail import _puzzles
from nonolab.solvers import build

cap, seeds = int(sys.argv[1]), [int(s) for s in sys.argv[2].split(",")]
targets = sys.argv[3:]
spec = targets.pop(0) if targets and targets[0].startswith("lcg") else "lcg"
for target in targets:
    name, key = target.split(":")
    puzzle = _puzzles(name)[key]
    for seed in seeds:
        engine = build(f"{spec}{',' if ':' in spec else ':'}seed={seed}")._build(puzzle, [], {})
        t0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        outcome = engine.run(100000.0, cap)
        cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime - t0
        c = engine.stats()
        print(json.dumps({"puzzle": target, "spec": spec, "seed": seed, "solved": outcome == 1, "conflicts": c["conflicts"],
                          "decisions": c["decisions"], "shakes": c.get("shakes", 0), "cpu": round(cpu, 3), "load": os.getloadavg()[0]}), flush=True)
