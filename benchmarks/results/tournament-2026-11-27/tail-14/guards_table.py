"""The guards (slices-6/guards.py output) side by side over specs: conflicts per run and their sum.

    python guards_table.py guards-*.jsonl   (every spec of every file, in order)"""
import json
import sys

rows, specs = {}, []
for path in sys.argv[1:]:
    for line in open(path):
        d = json.loads(line)
        for k, v in d.items():
            if k == "puzzle" or k.endswith((" cpu", " n")):
                continue
            if k not in specs:
                specs.append(k)
            rows.setdefault(d["puzzle"], {})[k] = (v, d[k + " n"])
print("| guard | " + " | ".join(f"`{s}`" for s in specs) + " |")
print("|---|" + "---:|" * len(specs))
for puzzle, got in rows.items():
    if all(got.get(s, (0, 0))[0] < 1000 for s in specs):
        continue
    cells = []
    for s in specs:
        c, n = got.get(s, (None, None))
        cells.append("" if c is None else f"{c:,}" + ("" if n in (1, 2, "1!", "2!") else f" (n={n})"))
    print(f"| {puzzle} | " + " | ".join(cells) + " |")
print("| sum, all 32 runs | " + " | ".join(f"{sum(g[s][0] for g in rows.values() if s in g):,}" for s in specs) + " |")
