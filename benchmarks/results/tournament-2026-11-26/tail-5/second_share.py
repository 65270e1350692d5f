"""Where lcg's count to 2 spends its CPU: up to the first solution, then to the second (throwaway driver)."""
import sys, time, json
from nonolab.formats import load_all
from nonolab.solvers.lcg import LcgSolver, _probe_budget, _MINIMISE, _EXPLAIN, _RESTARTS, _PHASES
from nonolab.solvers.switch import switch_solution
from nonolab.core.grid import Solution
s = LcgSolver()
tot = {"first": 0.0, "second": 0.0, "switch": 0.0, "build": 0.0}
for name in sys.argv[1:]:
    for p in load_all(f"/work/shared/tournament/{name}.txt"):
        t0 = time.thread_time()
        e = s._engine.Engine(p.width, p.height, p.rows, p.columns, [], _MINIMISE[s.minimise], _EXPLAIN[s.explain],
                             _RESTARTS[s.restarts], _probe_budget(p), target_phases=True, hint_rounds=s.hint_rounds,
                             hint_conflicts=s.hint_conflicts)
        t1 = time.thread_time()
        while (o := e.run(1.0)) == 0: pass
        t2 = time.thread_time()
        sol = Solution.from_bytes(e.solution(), p.width)
        t3 = time.thread_time()
        sw = switch_solution(p, sol)
        t4 = time.thread_time()
        if o == 1:
            while (o := e.run(1.0)) == 0: pass
        t5 = time.thread_time()
        tot["build"] += t1 - t0; tot["first"] += t2 - t1; tot["switch"] += t4 - t3; tot["second"] += t5 - t4
    print(name, json.dumps({k: round(v, 3) for k, v in tot.items()}), flush=True)
