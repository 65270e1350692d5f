"""python summary.py ab-ten.txt: ab.sh's runs per puzzle, every counter compared across builds and
rounds, CPU of each run and best / best (markdown rows), the round totals."""
import json, sys
from collections import defaultdict

runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
COUNTERS = ("outcome", "conflicts", "decisions", "propagations", "line_runs", "explanations",
            "explanation_checks", "learned_literals", "minimised_literals")
by = defaultdict(list)
for r in runs:
    by[r["puzzle"]].append(r)
same = all(len({tuple(r[k] for k in COUNTERS) for r in rs}) == 1 for rs in by.values())
print("every counter identical across builds and rounds:", same)
best = {"base": 0.0, "new": 0.0}
for p, rs in by.items():
    cpu = {b: [r["cpu"] for r in rs if r["build"] == b] for b in ("base", "new")}
    for b in best:
        best[b] += min(cpu[b])
    print(f"| {p} | {rs[0]['conflicts']:,} | {', '.join(f'{c:.2f}' for c in cpu['base'])} | "
          f"{', '.join(f'{c:.2f}' for c in cpu['new'])} | {min(cpu['new']) / min(cpu['base']):.2f} |")
print(f"| total (best of each) | {sum(rs[0]['conflicts'] for rs in by.values()):,} | {best['base']:.2f} | "
      f"{best['new']:.2f} | {best['new'] / best['base']:.2f} |")
for rnd in sorted({r["round"] for r in runs}):
    for b in ("base", "new"):
        print(f"round {rnd} {b}: {sum(r['cpu'] for r in runs if r['round'] == rnd and r['build'] == b):.2f} s")
