"""Per puzzle (the 60 around lcg's median): whole build+solve vs engine construction vs Engine.run, least of R rounds (us)."""
import csv, sys, tempfile, os, time, statistics
from pathlib import Path
from benchmarks.easy import first_puzzles_text
from nonolab.formats import load_all
from nonolab.solvers import build
from nonolab.solvers.base import Given, Limits
from nonolab.solvers.lcg import engine_module, _probe_budget
spec = sys.argv[1] if len(sys.argv) > 1 else "lcg"
R = int(sys.argv[2]) if len(sys.argv) > 2 else 10
rows = list(csv.DictReader(open("/work/wt/easy8/benchmarks/results/tournament-2026-11-27/lead-7/easy-taai2011.csv")))
rows.sort(key=lambda r: float(r["lcg cpu"]))
mid = [r["puzzle"] for r in rows[120:180]]
text = first_puzzles_text(Path("/work/shared/tournament/taai2011.txt"), 300)
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
    fh.write(text)
puzzles = {p.name.lstrip("$"): p for p in load_all(fh.name)}
os.unlink(fh.name)
E = engine_module().Engine
res = {"solve": [], "construct": [], "run": []}
for k in mid:
    p = puzzles[k]
    best = {x: 9 for x in res}
    for _ in range(R):
        t = time.perf_counter(); build(spec).solve(p, Limits(max_solutions=1), Given.of(())); best["solve"] = min(best["solve"], time.perf_counter() - t)
        t = time.perf_counter(); e = E(p.width, p.height, p.rows, p.columns, [], 2, 0, 0, _probe_budget(p), target_phases=True, hint_rounds=50, hint_conflicts=10000, follow_conflicts=0, probe_binaries=False, hint_after=0, hint_min_open=40); best["construct"] = min(best["construct"], time.perf_counter() - t)
        t = time.perf_counter(); e.run(1.0); best["run"] = min(best["run"], time.perf_counter() - t)
    for x in res: res[x].append(best[x])
print(spec, {x: round(statistics.median(v) * 1e6, 1) for x, v in res.items()}, "sum", {x: round(sum(v) * 1e3, 2) for x, v in res.items()})
