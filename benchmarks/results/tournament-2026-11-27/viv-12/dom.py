import sys, json, time
from nonolab.bench.suites import n_dom
from nonolab.solvers import build
from nonolab.solvers.base import Limits
for spec in sys.argv[1:]:
    for n, m in ((15, 1), (12, 2)):
        t = time.process_time()
        r = build(spec).solve(n_dom(n), Limits(m, 120))
        print(json.dumps({"spec": spec, "puzzle": f"{n}-Dom/{m}", "conflicts": r.stats.counters["conflicts"], "n": len(r.solutions), "complete": r.complete, "cpu": round(time.process_time() - t, 2)}), flush=True)
