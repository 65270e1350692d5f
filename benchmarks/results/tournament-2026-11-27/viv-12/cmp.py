"""cmp.py: per set and spec of scans.csv, conflicts sum, max, geometric mean ratio of (conflicts + 10)
against main, puzzles worse / better, CPU seconds."""
import csv, math
rows = list(csv.DictReader(open("scans.csv")))
specs = [c[:-len(" conflicts")] for c in rows[0] if c.endswith(" conflicts") and c != "main conflicts"]
for spec in specs:
    out = []
    for s in sorted({r["set"] for r in rows}):
        sel = [r for r in rows if r["set"] == s]
        b = [int(r["main conflicts"]) for r in sel]; n = [int(r[spec + " conflicts"]) for r in sel]
        g = math.exp(sum(math.log((y + 10) / (x + 10)) for x, y in zip(b, n)) / len(sel))
        cb = sum(float(r["main cpu"]) for r in sel); cn = sum(float(r[spec + " cpu"]) for r in sel)
        out.append(f"{s}: {sum(b)}->{sum(n)} ({sum(n)/sum(b):.3f}) max {max(b)}->{max(n)} geo {g:.3f} "
                   f"worse {sum(y > x for x, y in zip(b, n))} better {sum(y < x for x, y in zip(b, n))} cpu {cb:.1f}->{cn:.1f}")
    print(spec, " | ".join(out))
