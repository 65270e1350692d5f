# CPU time (process_time) of explain on a stripes colour puzzle, the puzzle built outside the timing
import sys, time
from nonolab.core import Palette, Puzzle, Solution
from nonolab.harness.explanation import explain
n, k = int(sys.argv[1]), int(sys.argv[2])
cells = [[0 if c % 10 == 0 else 1 + r % k for c in range(n)] for r in range(n)]
p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
t = time.process_time(); e = explain(p, time_limit=600); t = time.process_time() - t
print(n, k, e.verdict.value, len(e.steps), f"{t:.2f} CPU s")
