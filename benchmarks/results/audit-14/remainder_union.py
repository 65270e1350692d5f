import time
from nonolab.core import Puzzle
from nonolab.solvers import base, build
from nonolab.solvers.base import Limits, Given
from nonolab.solvers.native import NativeSolver
from tests.conftest import StillClock
clock = StillClock(); real_pc = time.perf_counter; time.perf_counter = clock
real = base.violations
def slow(puzzle, solution):
    clock.spend(1.0); return real(puzzle, solution)
base.violations = slow
p = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
r = NativeSolver().solve(p, Limits(50, 5.5))
base.violations = real; time.perf_counter = real_pc
print(r.status.value, r.count, r.remainder and r.remainder.to_text().replace("\n", "/"))
rest = build("cnf").solve(p, Limits(None), Given.from_grid(r.remainder))
union = set(r.solutions) | set(rest.solutions)
print("cnf on the remainder:", rest.count, rest.complete, "union:", len(union), "of 120")
