import random, sys, resource
from nonolab.core import Palette, Puzzle, Solution
from nonolab.harness.explanation import explain
n, k, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rnd = random.Random(5)
if kind == "stripes":   # line-solvable: every column full of one-cell blocks, every tenth empty
    cells = [[0 if c % 10 == 0 else 1 + r % k for c in range(n)] for r in range(n)]
elif kind == "bands":
    cells = [[(r // 7 + c // 5) % (k + 1) for c in range(n)] for r in range(n)]
else:
    cells = [[rnd.randint(1, k) if rnd.random() < 0.7 else 0 for c in range(n)] for r in range(n)]
p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
e = explain(p, time_limit=600)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cells_set = sum(len(s.cells) for s in e.steps); ruled = sum(len(getattr(s, "ruled_out", ())) for s in e.steps)
print(n, k, kind, e.verdict.value, len(e.steps), "cells set", cells_set, "ruled out", ruled,
      f"peak {peak/1024:.0f} MB, above start {(peak-base)/1024:.0f} MB = {(peak-base)*1024/(n*n):.0f} bytes a cell")
