"""Count to 2 on the unique guards: two specs (count-22: auto:relay_early=false, auto), alternating.

    PYTHONPATH=. python benchmarks/results/count-22/guards.py SPEC_A SPEC_B [ROUNDS]
"""
import json, os, sys
sys.path.insert(0, "tests")
from benchmarks.tail import _one
from benchmarks.tail_judge import SURVEY, SURVEY_GUARDS
from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers import build
from reference import n_dom

specs = sys.argv[1:3]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
targets = {}
for n in (15, 12, 10, 8, 7, 6, 5):
    rows, cols = n_dom(n)
    targets[f"{n}-Dom"] = Puzzle(rows=rows, columns=cols)
for name, f in SURVEY_GUARDS:
    targets[name] = load(SURVEY / f)
targets["Knotty"] = load("../shared/hard/knotty.non")   # (run from the worktree)
solvers = {s: build(s) for s in specs}
for r in range(rounds):
    for i, (name, p) in enumerate(targets.items()):
        for s in (specs if (i + r) % 2 == 0 else specs[::-1]):
            got = _one(solvers[s], p, "check", 120.0)
            print(json.dumps({"round": r, "puzzle": name, "spec": s, "load": round(os.getloadavg()[0], 2), **got}),
                  flush=True)
