"""Pickles the three cases of the callgrind A/B (smooth 2000x2000, noise 1000x1000, a colour 1000x1000 puzzle FILE solved): callgrind_cases.py FILE OUT.pkl"""
import pickle, random, sys
from nonolab.bench.suites import large_puzzle
from nonolab.formats import load
from nonolab.core import Puzzle, Solution
from nonolab.harness.uniqueness import check
from nonolab.solvers import build
out = {}
p = large_puzzle(2000, 2000); s = check(p, build("native")).result.solutions[0]
out["smooth2000"] = (s.to_bytes(), s.width, p.rows, p.columns)
rng = random.Random(1); data = bytes(rng.getrandbits(1) for _ in range(10**6)); s = Solution.from_bytes(data, 1000); p = Puzzle.from_solution(s)
out["noise1000"] = (data, 1000, p.rows, p.columns)
p = load("sys.argv[1]"); s = check(p, build("native")).result.solutions[0]
out["colour1000"] = (s.to_bytes(), s.width, p.rows, p.columns, p.row_colours, p.column_colours)
pickle.dump(out, open("sys.argv[2]", "wb"))
