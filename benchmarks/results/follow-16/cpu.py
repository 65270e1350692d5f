# CPU seconds of explain (the engine's search and the log read into steps) on stripes, one process a run.
import resource, sys
from nonolab.core import Palette, Puzzle, Solution
n, k = int(sys.argv[1]), int(sys.argv[2])
cells = [[0 if c % 10 == 0 else 1 + r % k for c in range(n)] for r in range(n)]
p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
import numpy
from nonolab.harness.explanation import explain
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
t = cpu()
e = explain(p, time_limit=600)
print(n, k, e.verdict.value, len(e.steps), f"cpu {cpu() - t:.2f} s")
