"""Drive lcg's engine directly: each named puzzle to its first solution or LIMIT conflicts.
python drive.py LIMIT set:key ...   prints one json line per puzzle with the counters."""
import json, sys, resource
from nonolab.solvers import build
from benchmarks.tail import _puzzles

limit = int(sys.argv[1])
solver = build("lcg")
for target in sys.argv[2:]:
    name, key = target.split(":")
    puzzle = _puzzles(name)[key]
    engine = solver._build(puzzle, [], {})
    t0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    outcome = engine.run(100000.0, limit) if limit > 0 else engine.run(100000.0)
    t1 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    c = engine.stats()
    keys = ("conflicts", "decisions", "propagations", "line_runs", "explanations", "explanation_checks", "learned_literals", "minimised_literals")
    print(json.dumps({"puzzle": target, "outcome": outcome, "cpu": round(t1 - t0, 3), **{k: c.get(k) for k in keys}}), flush=True)
