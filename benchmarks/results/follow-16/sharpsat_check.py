# sharpsat's count to 2 on 12x12 with one filled cell a line (12! solutions): CPU seconds, this process
# and its children (Ganak runs in a child), and whether the exact counter ran.
import resource, sys
from nonolab.core import Puzzle
from nonolab.solvers import get
from nonolab.solvers.base import Limits
def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
puzzle = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)
t = cpu()
r = get("sharpsat").solve(puzzle, Limits(max_solutions=2))
print(r.status.value, r.count, "complete" if r.complete else "not complete", "counters", r.stats.counters, f"cpu {cpu() - t:.2f} s")
