"""The population tail of scan.py's csvs: per configuration and across them.

    python summary.py scan-lcg.csv.gz scan-seed1.csv.gz ...  (plain or gzipped csvs)   (seeds = files named scan-lcg / scan-seedN)

Prints markdown: per file the total conflicts, the counts over 30k/60k/100k conflicts and at the cap,
the count over 2 CPU s (noisy), CPU per conflict on the puzzles over 10k conflicts (with the load range), the slowest ten, and per set;
then the puzzles over 60k for every seed file, and each file's over-60k set against seed 0's."""
import csv
import gzip
import sys
from collections import defaultdict

THRESHOLDS = (30_000, 60_000, 100_000)


def read(path):
    return [dict(r, conflicts=int(r["conflicts"]), solved=int(r["solved"]), cpu=float(r["cpu"]), load=float(r["load"]))
            for r in csv.DictReader(gzip.open(path, "rt") if path.endswith(".gz") else open(path))]


def name_of(path):
    return path.rsplit("/", 1)[-1].removeprefix("scan-").removesuffix(".gz").removesuffix(".csv")


runs = {name_of(p): read(p) for p in sys.argv[1:]}
print("| configuration | puzzles | total conflicts | > 30k | > 60k | > 100k | at the cap | over 2 CPU s | CPU s | us/conflict (> 10k) | load |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for name, rows in runs.items():
    over = [sum(r["conflicts"] > t for r in rows) for t in THRESHOLDS]
    big = [r for r in rows if r["conflicts"] > 10_000]
    us = 1e6 * sum(r["cpu"] for r in big) / max(1, sum(r["conflicts"] for r in big))
    loads = [r["load"] for r in rows]
    print(f"| {name} | {len(rows)} | {sum(r['conflicts'] for r in rows):,} | {over[0]} | {over[1]} | {over[2]} | "
          f"{sum(not r['solved'] for r in rows)} | {sum(r['cpu'] > 2 for r in rows)} | {sum(r['cpu'] for r in rows):.0f} | {us:.1f} | {min(loads):.1f}-{max(loads):.1f} |")

for name, rows in runs.items():
    print(f"\n{name}, the slowest ten: " + ", ".join(
        f"{r['set']} #{r['puzzle']} {r['conflicts']:,}{'' if r['solved'] else ' (cap)'}"
        for r in sorted(rows, key=lambda r: -r["conflicts"])[:10]))

sets = list(dict.fromkeys(r["set"] for r in next(iter(runs.values()))))
print("\nPer set: total conflicts / over 60k")
print("| set | " + " | ".join(runs) + " |")
print("|---|" + "---:|" * len(runs))
for s in sets:
    cells = []
    for rows in runs.values():
        mine = [r for r in rows if r["set"] == s]
        cells.append(f"{sum(r['conflicts'] for r in mine):,} / {sum(r['conflicts'] > 60_000 for r in mine)}" if mine else "")
    print(f"| {s} | " + " | ".join(cells) + " |")

seeds = {n: rows for n, rows in runs.items() if n == "lcg" or n.startswith("seed")}
by = {n: {(r["set"], r["puzzle"]): r["conflicts"] for r in rows} for n, rows in runs.items()}
if len(seeds) > 1:
    common = set.intersection(*(set(by[n]) for n in seeds))
    for t in THRESHOLDS:
        every = sorted((k for k in common if all(by[n][k] > t for n in seeds)), key=lambda k: -min(by[n][k] for n in seeds))
        some = [k for k in common if any(by[n][k] > t for n in seeds)]
        print(f"\nOver {t:,} for every seed ({', '.join(seeds)}): {len(every)}; for at least one: {len(some)}")
        if t == 60_000:
            for k in every:
                print(f"- {k[0]} #{k[1]}: " + ", ".join(f"{n} {by[n][k]:,}" for n in seeds))
base = by.get("lcg")
if base:
    s60 = {k for k, c in base.items() if c > 60_000}
    for n in runs:
        if n == "lcg":
            continue
        o60 = {k for k, c in by[n].items() if c > 60_000}
        print(f"\n{n}: over 60k {len(o60)}, of them also over 60k at seed 0: {len(o60 & s60)}; "
              f"seed 0's over 60k that {n} brings under: {len(s60 - o60)}")
