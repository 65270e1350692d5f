"""Count to 2: auto as it is (Kissat joins after solo_budget=1 s) against the seeded lcg as
the rival in count mode too (joining after 0.3 s), on the tail and the guards; alternating."""
import dataclasses, json, os, sys, time
sys.path.insert(0, "tests")
from benchmarks.tail import _puzzles
from benchmarks.peers import _cpu_with_workers
from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers import get
from nonolab.solvers.base import Budget, Given, Limits
from nonolab.solvers.auto.solo import solo
from reference import n_dom

auto = get("auto")
base = auto.parts()
seeded = dataclasses.replace(base, rival="lcg:seed=2", engines=("lcg", "lcg:seed=2"),
                             schedule=dataclasses.replace(base.schedule, solo_budget=0.3))
def run(which, puzzle):
    limits = Limits(2, 120.0)
    c0, t0 = _cpu_with_workers(), time.perf_counter()
    if which == "main":
        r = get("auto").solve(puzzle, limits)
    else:
        r = solo(seeded, puzzle, limits, Budget.of(limits), Given({}), seeded.engine("lcg"))
    c = r.stats.counters
    return {"cpu": round(_cpu_with_workers() - c0, 3), "wall": round(time.perf_counter() - t0, 3), "count": r.count,
            "complete": r.complete, "phase": c.get("phase"), "winner": c.get("winner")}
targets = {}
for t in sys.argv[1].split(","):
    if t:
        s, k = t.split(":"); targets[t] = _puzzles(s)[k]
for n in (12, 15):
    rows, cols = n_dom(n); targets[f"{n}-Dom"] = Puzzle(rows=rows, columns=cols)
S = "../shared/corpus/webpbn-survey/"
for name, f in (("Thing", "webpbn-18297-thing.non"), ("Sierp", "webpbn-12548-sierp.non"), ("9-Dom", "webpbn-08098-9-dom.non")):
    targets[name] = load(S + f)
for i, (name, p) in enumerate(targets.items()):
    for which in (("main", "seeded") if i % 2 == 0 else ("seeded", "main")):
        print(json.dumps({"puzzle": name, "spec": which, "load": round(os.getloadavg()[0], 2), **run(which, p)}), flush=True)
