"""Tables of count-22's A/B runs (benchmarks.tail ab lines / guards.py lines).

    python3 benchmarks/results/count-22/table.py ab-check-139.jsonl [--top 25]
"""
import json, sys
from collections import defaultdict

rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"round"')]
top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
specs = list(dict.fromkeys(r["spec"] for r in rows))
by = defaultdict(dict)
for r in rows:
    by[r["puzzle"]].setdefault(r["spec"], []).append(r)
a, b = specs
print(f"| puzzle | {a} CPU / wall s (load) | {b} CPU / wall s (load) | {b}: phase, conflicts |")
print("|---|---:|---:|---|")
order = sorted(by, key=lambda p: -max(x["wall"] for s in by[p].values() for x in s))
for p in order[:top]:
    cells = []
    for s in specs:
        cells.append(", ".join(f"{x['cpu']:.2f} / {x['wall']:.2f} ({x['load']})" for x in by[p].get(s, [])))
    last = by[p][b][-1]
    print(f"| {p} | {cells[0]} | {cells[1]} | {last['phase'].replace('|', '/')} {last['conflicts']} |")
for s in specs:
    got = [x for p in by for x in by[p].get(s, [])]
    print(f"{s}: runs {len(got)}, CPU {sum(x['cpu'] for x in got):.2f} s, wall {sum(x['wall'] for x in got):.2f} s, "
          f"over 2 CPU s {sum(x['cpu'] > 2 for x in got)}, over 1 CPU s {sum(x['cpu'] > 1 for x in got)}, "
          f"over 2 s wall {sum(x['wall'] > 2 for x in got)}, load {min(x['load'] for x in got)}-{max(x['load'] for x in got)}, "
          f"conflicts of the answering search {sum(int(x['conflicts'] or 0) for x in got)}")
