"""Per run of series.csv.gz, to the first solution (the windows a shake could reach), each signal's
median over the full 1,000-conflict windows after the first, and for the changed phases (as a
fraction of the cells) the min and max of a window and of the mean of five windows (shake_churn's).

    python benchmarks/results/tournament-2026-11-27/signal-21/summary.py > summary.csv
"""
import csv
import gzip
import sys
from collections import OrderedDict
from pathlib import Path

CELLS = {"15-Dom": 961, "Thing": 1512, "Sierp": 1880, "12-Dom": 625}   # tournament grids: 625
SIGNALS = ("lbd", "size", "level", "back", "trail", "max_consistent", "far")

runs: OrderedDict = OrderedDict()
with gzip.open(Path(__file__).with_name("series.csv.gz"), "rt") as f:
    for r in csv.DictReader(f):
        runs.setdefault((r["run"], r["seed"]), []).append(r)
out = csv.writer(sys.stdout)
out.writerow(["run", "seed", "cells", "first_solution", "windows"] + [f"{s}_median" for s in SIGNALS] +
             ["flips_min", "flips_median", "flips_max", "flips5_min", "flips5_max"])
for (run, seed), rows in runs.items():
    cells = next((n for k, n in CELLS.items() if k in run), 625)
    before = []
    for r in rows:
        if int(r["found"]) >= 1:
            break
        before.append(r)
    full = [r for r in before if int(r["window"]) == 1000][1:]
    if not full:
        continue
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    flips = [int(r["flips"]) / cells for r in full]
    five = [sum(flips[i:i + 5]) / 5 for i in range(max(1, len(flips) - 4))]
    first = next((r["conflicts"] for r in rows if int(r["found"]) >= 1), "300000+")
    out.writerow([run, seed, cells, first, len(full)] +
                 [round(med([float(r[s]) for r in full]) / (cells if s in ("trail", "max_consistent") else 1), 3)
                  for s in SIGNALS] +
                 [round(x, 3) for x in (min(flips), med(flips), max(flips), min(five), max(five))])
