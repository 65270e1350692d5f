"""Per puzzle (and spec): median, p90, max of the conflicts over the seeds, seed 0's, and its rank.

    python summary.py FILE.jsonl ...     (seeds.py's output; a capped run counts as its cap)"""
import json
import statistics
import sys
from collections import defaultdict

runs = defaultdict(dict)
for path in sys.argv[1:]:
    for line in open(path):
        if line.startswith("{"):
            r = json.loads(line)
            runs[(r.get("spec", "lcg"), r["puzzle"])][r["seed"]] = (r["conflicts"], r["solved"], r["cpu"])


def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]


print("| spec | puzzle | seeds | min | median | p90 | max | capped | seed 0 | seed 0's rank | max/median |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (spec, puzzle), by_seed in runs.items():
    c = [v[0] for v in by_seed.values()]
    capped = sum(1 for v in by_seed.values() if not v[1])
    zero = by_seed.get(0, (None,))[0]
    rank = f"{sorted(c).index(zero) + 1}/{len(c)}" if zero is not None else ""
    med = statistics.median(c)
    print(f"| {spec} | {puzzle} | {len(c)} | {min(c):,} | {med:,.0f} | {p90(c):,} | {max(c):,} | {capped} | "
          f"{zero if zero is None else format(zero, ',')} | {rank} | {max(c) / med:.1f} |")
tot = defaultdict(lambda: [0, 0, 0.0])
for (spec, puzzle), by_seed in runs.items():
    for seed, (conf, solved, cpu) in by_seed.items():
        tot[spec][0] += conf
        tot[spec][1] += 1
        tot[spec][2] += cpu
for spec, (conf, n, cpu) in tot.items():
    print(f"{spec}: {n} runs, {conf:,} conflicts, mean {conf / n:,.0f}, CPU {cpu:.1f} s")
