"""The A/B tables of race-22 from the jsonl files: python3 table.py FILE [FILE...]."""
import json, sys
from collections import defaultdict

for path in sys.argv[1:]:
    rows = [json.loads(l) for l in open(path) if l.startswith('{"round')]
    specs = list(dict.fromkeys(r["spec"] for r in rows))
    by = defaultdict(lambda: defaultdict(list))
    for r in rows:
        by[r["puzzle"]][r["spec"]].append(r)
    print(f"## {path}\n\n| puzzle | " + " | ".join(f"{s} CPU / wall s (load)" for s in specs) + " | after: phase, conflicts (last run) |")
    print("|---|" + "---:|" * len(specs) + "---|")
    total = {s: [0.0, 0.0] for s in specs}
    for p, d in by.items():
        cells = []
        for s in specs:
            got = d.get(s, [])
            cells.append(", ".join(f"{g['cpu']:.2f} / {g['wall']:.2f} ({g['load']})" for g in got))
            total[s][0] += sum(g["cpu"] for g in got)
            total[s][1] += sum(g["wall"] for g in got)
        last = d.get(specs[-1], [{}])[-1]
        print(f"| {p} | " + " | ".join(cells) + f" | {last.get('phase', '')} {last.get('conflicts', '')} |")
    print("| **total** | " + " | ".join(f"**{t[0]:.1f} / {t[1]:.1f}**" for t in total.values()) + " | |\n")
