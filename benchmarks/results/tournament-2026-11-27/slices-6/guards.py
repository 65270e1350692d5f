"""Conflicts of lcg specs on the guards (hard eight, N-Dom, Knotty), /1 and /2; throwaway driver (Knotty limited to 20 s: no spec finds its second solution in 120 s)."""
import sys, json, os, time
from pathlib import Path
from nonolab.formats import load
from nonolab.bench.suites import n_dom
from nonolab.solvers import build
from nonolab.solvers.base import Limits
S = Path("/work/shared/corpus/webpbn-survey")
puzzles = {n: load(S / f) for n, f in [("9-Dom", "webpbn-08098-9-dom.non"), ("Forever", "webpbn-06574-forever.non"),
           ("Lion", "webpbn-02712-lion.non"), ("Marley", "webpbn-10088-marley.non"), ("Thing", "webpbn-18297-thing.non"),
           ("Nature", "webpbn-09892-nature.non"), ("Sierp", "webpbn-12548-sierp.non"), ("Gettys", "webpbn-22336-gettys.non")]}
for n in (5, 6, 7, 8, 10, 12, 15):
    puzzles[f"{n}-Dom"] = n_dom(n)
puzzles["Knotty"] = load("/work/shared/hard/knotty.non")
specs = sys.argv[1:]
for name, p in puzzles.items():
    for m in (1, 2):
        row = {"puzzle": f"{name}/{m}"}
        for spec in specs:
            t = time.process_time()
            r = build(spec).solve(p, Limits(m, 20 if name == "Knotty" else 120))
            c = r.stats.counters
            row[spec] = c.get("conflicts")
            row[spec + " cpu"] = round(time.process_time() - t, 3)
            row[spec + " n"] = len(r.solutions) if not r.complete else f"{r.count}!"
        print(json.dumps(row), flush=True)
