"""One whole-population csv in scan.py's columns from a screen.py csv (its whole sets taai2011 and
icga2017: the hard48 rows are dropped, their sets' rows kept) and a scan.py csv of the other 13 sets.

    python merge.py SCREEN.csv REST.csv OUT.csv.gz

The conflicts are deterministic for a spec, so a puzzle's row is the same whichever driver ran it."""
import csv
import gzip
import sys

from collections import Counter

screen, rest, out = sys.argv[1:4]
COLUMNS = ["set", "puzzle", "conflicts", "solved", "cpu", "load"]
rows = [r for r in csv.DictReader(open(screen)) if r["set"] in ("taai2011", "icga2017")]
seen = Counter((r["set"], r["puzzle"]) for r in rows)
rows = [r for i, r in enumerate(rows) if i >= 48 or seen[(r["set"], r["puzzle"])] == 1]
assert sorted(Counter(r["set"] for r in rows).values()) == [1000, 1000], Counter(r["set"] for r in rows)
rows += list(csv.DictReader(open(rest)))
assert len(rows) == 15000 and len({(r["set"], r["puzzle"]) for r in rows}) == 15000, len(rows)
with gzip.open(out, "wt", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([r[c] for c in COLUMNS])
