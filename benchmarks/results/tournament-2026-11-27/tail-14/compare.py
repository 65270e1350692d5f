"""A screen's csv (screen.py) against the same puzzles in a tail-13 whole-population scan of the same seed.

    python compare.py SCREEN.csv BASELINE.csv[.gz] [...more pairs]

Prints per pair: over the hard48 puzzles, the total conflicts and the counts over 30k/60k/100k, both sides;
per whole set in the screen, the total conflicts both sides; the screen's CPU per conflict over its puzzles
above 10k conflicts and its lookahead line runs as a share of all line runs."""
import csv
import gzip
import sys
from collections import defaultdict


def read(path):
    rows = csv.DictReader(gzip.open(path, "rt") if path.endswith(".gz") else open(path))
    return {(r["set"], r["puzzle"]): r for r in rows}


hard = {tuple(line.split(":")) for line in open(__file__.rsplit("/", 1)[0] + "/hard48.txt").read().split()}
args = sys.argv[1:]
for screen_path, base_path in zip(args[::2], args[1::2]):
    screen, base = read(screen_path), read(base_path)
    print(f"## {screen_path} against {base_path}")
    for label, keys in (("hard48", [k for k in screen if k in hard]),):
        for side, rows in (("screen", screen), ("baseline", base)):
            c = [int(rows[k]["conflicts"]) for k in keys]
            print(f"  {label} {side}: {len(c)} puzzles, total {sum(c):,}, >30k {sum(x > 30000 for x in c)}, "
                  f">60k {sum(x > 60000 for x in c)}, >100k {sum(x > 100000 for x in c)}, "
                  f"unsolved {sum(rows[k]['solved'] == '0' for k in keys)}")
    sets = defaultdict(list)
    for k in screen:
        if k not in hard or True:
            sets[k[0]].append(k)
    for name, keys in sets.items():
        whole = [k for k in base if k[0] == name]
        if len(keys) < len(whole):
            continue
        a = sum(int(screen[k]["conflicts"]) for k in keys)
        b = sum(int(base[k]["conflicts"]) for k in keys)
        print(f"  set {name}: {a:,} against {b:,} ({100 * (a / b - 1):+.1f} %), >60k "
              f"{sum(int(screen[k]['conflicts']) > 60000 for k in keys)} against {sum(int(base[k]['conflicts']) > 60000 for k in keys)}")
    big = [r for r in screen.values() if int(r["conflicts"]) > 10000]
    us = 1e6 * sum(float(r["cpu"]) for r in big) / max(1, sum(int(r["conflicts"]) for r in big))
    runs = sum(int(r["line_runs"]) for r in screen.values())
    la = sum(int(r["lookahead_line_runs"]) for r in screen.values())
    print(f"  CPU {sum(float(r['cpu']) for r in screen.values()):.1f} s, {us:.1f} us/conflict (>10k), lookahead line runs "
          f"{la:,} of {runs:,} ({100 * la / max(1, runs):.1f} %), failed probes "
          f"{sum(int(r['lookahead_failed']) for r in screen.values()):,}")
