"""python drive.py SPEC LIMIT set:key ... : each puzzle to its first solution (or LIMIT conflicts), one json line each."""
import json, sys, resource
from nonolab.solvers import build
from benchmarks.tail import _puzzles

spec, limit = sys.argv[1], int(sys.argv[2])
solver = build(spec)
for target in sys.argv[3:]:
    name, key = target.split(":")
    puzzle = _puzzles(name)[key]
    engine = solver._build(puzzle, [], {})
    t0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    outcome = engine.run(100000.0, limit) if limit > 0 else engine.run(100000.0)
    t1 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    c = engine.stats()
    keys = ("conflicts", "line_runs", "vivify_rounds", "vivify_tried", "vivify_shortened", "vivify_removed", "vivify_line_runs", "probes")
    root = engine.root(); fixed = sum(1 for b in root if b != 2)
    print(json.dumps({"spec": spec, "puzzle": target, "root": fixed, "outcome": outcome, "cpu": round(t1 - t0, 3), **{k: c.get(k) for k in keys}}), flush=True)
