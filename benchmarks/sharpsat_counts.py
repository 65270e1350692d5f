"""The sharpsat backend (Ganak) against enumeration (lcg) on the corpus: the same exact counts?

    python -m benchmarks.sharpsat_counts [--time-limit 60] [--corpus DIR] [--only GLOB] [--out FILE]

For each puzzle, in this process: ``count`` with lcg (every solution, the time limit) and with
sharpsat (the same limit).  Where both finish the counts must be equal; where only sharpsat
finishes it is the only exact count.  Writes a CSV row per puzzle and prints a summary.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIELDS = ("puzzle", "lcg_count", "lcg_exact", "lcg_s", "sharpsat_count", "sharpsat_exact", "sharpsat_s", "agree")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sharpsat_counts", description=__doc__.split("\n")[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("--only", default="*")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "sharpsat_counts.csv")
    args = parser.parse_args(argv)
    from nonolab.formats import load
    from nonolab.harness.uniqueness import count
    from nonolab.solvers import get

    files = sorted(p for p in args.corpus.glob("*/*.non") if fnmatch(str(p.relative_to(args.corpus)), args.only))
    lcg, sharpsat = get("lcg"), get("sharpsat")
    print(f"# {len(files)} puzzles, limit {args.time_limit} s, load {os.getloadavg()[0]:.1f}", flush=True)
    rows = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as stream:
        writer = csv.DictWriter(stream, FIELDS)
        writer.writeheader()
        for path in files:
            puzzle = load(path)
            row = {"puzzle": str(path.relative_to(args.corpus))}
            for name, engine in (("lcg", lcg), ("sharpsat", sharpsat)):
                start = time.perf_counter()
                found = count(puzzle, engine, None, args.time_limit)
                row.update({f"{name}_count": found.count, f"{name}_exact": found.exact,
                            f"{name}_s": round(time.perf_counter() - start, 4)})
            both = row["lcg_exact"] and row["sharpsat_exact"]
            row["agree"] = (row["lcg_count"] == row["sharpsat_count"]) if both else ""
            rows.append(row)
            writer.writerow(row)
            stream.flush()
            print(" ".join(f"{k}={row[k]}" for k in FIELDS), flush=True)
    both = [r for r in rows if r["agree"] != ""]
    print(f"# both exact: {len(both)}, equal: {sum(r['agree'] is True for r in both)}; sharpsat only: "
          f"{sum(1 for r in rows if r['sharpsat_exact'] and not r['lcg_exact'])}; lcg only: "
          f"{sum(1 for r in rows if r['lcg_exact'] and not r['sharpsat_exact'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
