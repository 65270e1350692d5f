"""Compare benchmarks.tail scan CSVs of one set: conflicts, CPU, slowest, puzzles over 1 / 2 s,
and the geometric mean of the conflict ratio over the puzzles either spec took 2,000+ conflicts on.

    python benchmarks/results/tournament-2026-11-27/tail-7/compare.py BASE.csv OTHER.csv...
"""
import csv
import math
import sys


def read(path):
    with open(path) as f:
        return {r["puzzle"]: r for r in csv.DictReader(f)}


def main():
    base = read(sys.argv[1])
    for path in sys.argv[1:]:
        rows = read(path)
        conflicts = sum(int(r["conflicts"]) for r in rows.values())
        cpu = sum(float(r["cpu"]) for r in rows.values())
        slow = max(rows.values(), key=lambda r: int(r["conflicts"]))
        over1 = sum(float(r["cpu"]) > 1 for r in rows.values())
        over2 = sum(float(r["cpu"]) > 2 for r in rows.values())
        ratios = [math.log(max(int(rows[k]["conflicts"]), 1) / max(int(base[k]["conflicts"]), 1)) for k in rows
                  if max(int(rows[k]["conflicts"]), int(base[k]["conflicts"])) >= 2000]
        gm = math.exp(sum(ratios) / len(ratios)) if ratios else 1.0
        print(f"{path}: {len(rows)} puzzles, {conflicts:,} conflicts, {cpu:.2f} CPU s, slowest #{slow['puzzle']} "
              f"{int(slow['conflicts']):,} ({float(slow['cpu']):.2f} s), over 1 s {over1}, over 2 s {over2}, "
              f"geo-mean ratio {gm:.3f} over {len(ratios)}")


if __name__ == "__main__":
    main()
