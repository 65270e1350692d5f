"""Conflicts (and CPU) of lcg specs on named tournament puzzles, first solution or count to 2; one JSON line each."""
import argparse, csv, json, os, time
from benchmarks.tail import _puzzles
from nonolab.solvers import build
from nonolab.solvers.base import Limits
TEN = ("icga2018:626,tcga2012:652,tcga2014:694,taai2015:701,taai2015:575,taai2015:600,icga2017:631,"
       "taai2014:670,tcga2016:492,tcga2013:708")
ap = argparse.ArgumentParser(); ap.add_argument("specs", nargs="+"); ap.add_argument("--puzzles", default=TEN)
ap.add_argument("--max", type=int, default=1); ap.add_argument("--limit", type=float, default=600)
a = ap.parse_args()
keys = a.puzzles.split(",") if "," in a.puzzles or ":" in a.puzzles else [r["puzzle"] for r in csv.DictReader(open(a.puzzles))]
for key in keys:
    name, number = key.split(":")
    p = _puzzles(name)[number]
    for spec in a.specs:
        t = time.process_time()
        r = build(spec).solve(p, Limits(a.max, a.limit))
        c = r.stats.counters
        print(json.dumps({"puzzle": key, "spec": spec, "conflicts": c["conflicts"], "default": c.get("conflicts_default"),
                          "rescue": c.get("conflicts_rescue"), "rescue2": c.get("conflicts_rescue2"),
                          "winner": c.get("rescue_winner"), "turns": c.get("rescue_turns"), "solutions": len(r.solutions),
                          "status": r.status.value, "cpu": round(time.process_time() - t, 3),
                          "load": round(os.getloadavg()[0], 2)}), flush=True)
