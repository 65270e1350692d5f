"""The 60 taai2011 puzzles around lcg's median (of the first 300, lead-7's run), each solved
ROUNDS times to its first solution as benchmarks.easy does (a fresh solver from SPEC), after a
warm-up of both specs; for callgrind: the difference of ROUNDS=1 and ROUNDS=0 is the solves'.

    PYTHONHASHSEED=0 valgrind --tool=callgrind python drive.py SPEC ROUNDS
"""
import csv, os, sys, tempfile
from pathlib import Path
from benchmarks.easy import first_puzzles_text
from nonolab.formats import load_all
from nonolab.solvers import build
from nonolab.solvers.base import Given, Limits

HERE = Path(__file__).resolve().parent
spec, rounds = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(HERE.parent / "lead-7" / "easy-taai2011.csv")))
rows.sort(key=lambda r: float(r["lcg cpu"]))
mid = [r["puzzle"] for r in rows[120:180]]
text = first_puzzles_text(Path("/work/shared/tournament/taai2011.txt"), 300)
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
    fh.write(text)
puzzles = {p.name.lstrip("$"): p for p in load_all(fh.name)}
os.unlink(fh.name)
limits = Limits(max_solutions=1)
for s in ("auto", "lcg"):
    for k in mid[:2]:
        build(s).solve(puzzles[k], limits, Given.of(()))
conflicts = 0
for _ in range(rounds):
    for k in mid:
        conflicts += build(spec).solve(puzzles[k], limits, Given.of(())).stats.counters["conflicts"]
print(spec, rounds, "conflicts", conflicts)
