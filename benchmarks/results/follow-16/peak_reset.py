# What explain adds to the resident set, with no puzzle-building transient hidden in a peak taken
# before it: build the stripes puzzle, collect, reset the kernel's peak (clear_refs 5), take the
# resident set, explain, then the peak (VmHWM) minus that base, in bytes a cell.
import gc, sys
from nonolab.core import Palette, Puzzle, Solution
def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])
n, k = int(sys.argv[1]), int(sys.argv[2])
cells = [[0 if c % 10 == 0 else 1 + r % k for c in range(n)] for r in range(n)]
p = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
import numpy  # (the branch imports it inside explain: not part of the log's cost)
from nonolab.harness.explanation import explain
gc.collect()
open("/proc/self/clear_refs", "w").write("5")
base = status("VmRSS:")
e = explain(p, time_limit=600)
peak = status("VmHWM:")
ruled = sum(len(s.ruled_out) for s in e.steps)
print(n, k, e.verdict.value, "ruled out", ruled, "base", base, "peak", peak, f"added {(peak - base) / 1024:.0f} MiB = {(peak - base) * 1024 / (n * n):.0f} bytes a cell")
