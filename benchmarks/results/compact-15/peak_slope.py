# Peak RSS (ru_maxrss) of one process: build the stripes puzzle, then (mode "explain") explain it;
# mode "build" stops after building. The slope of the peak between two sizes, explain minus build,
# is what explain adds a cell, with no start-up or puzzle-building transient in it.
import resource, sys
from nonolab.core import Palette, Puzzle, Solution
n, k, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cells = [[0 if c % 10 == 0 else 1 + r % k for c in range(n)] for r in range(n)]
p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
if mode == "explain":
    from nonolab.harness.explanation import explain
    e = explain(p, time_limit=600)
    assert e.verdict.value == "unique"
else:
    import numpy  # explain imports it on the branch; the control holds it too
print(n, k, mode, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
