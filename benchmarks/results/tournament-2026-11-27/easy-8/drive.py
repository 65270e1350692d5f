"""Solve the 60 taai2011 puzzles around lcg's median (first 300) with SPEC, ROUNDS times (throwaway)."""
import csv, sys, tempfile, os
from pathlib import Path
from benchmarks.easy import first_puzzles_text
from nonolab.formats import load_all
from nonolab.solvers import build
from nonolab.solvers.base import Given, Limits
spec = sys.argv[1] if len(sys.argv) > 1 else "lcg"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
which = sys.argv[3] if len(sys.argv) > 3 else "mid"
rows = list(csv.DictReader(open("/work/wt/easy8/benchmarks/results/tournament-2026-11-27/lead-7/easy-taai2011.csv")))
rows.sort(key=lambda r: float(r["lcg cpu"]))
mid = [r["puzzle"] for r in rows[120:180]] if which == "mid" else [r["puzzle"] for r in rows]
text = first_puzzles_text(Path("/work/shared/tournament/taai2011.txt"), 300)
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
    fh.write(text)
puzzles = {p.name.lstrip("$"): p for p in load_all(fh.name)}
os.unlink(fh.name)
total = {}
for _ in range(rounds):
    for k in mid:
        res = build(spec).solve(puzzles[k], Limits(max_solutions=1), Given.of(()))
        for c, v in res.stats.counters.items():
            if isinstance(v, (int, float)): total[c] = total.get(c, 0) + v
print({k: total[k] for k in sorted(total) if k in ("conflicts","decisions","line_runs","probes","probes_skipped","hint_rounds","propagations","probe_line_runs","cache_hits","explanations","explanation_hits","explanation_checks","learned_literals")})
