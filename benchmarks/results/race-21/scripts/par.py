import time, threading, os
from benchmarks.tail import _puzzles
from nonolab.solvers import build
from nonolab.solvers.base import Limits
p = _puzzles("icga2017")["631"]
def run(seed, out):
    r = build(f"lcg:seed={seed},conflict_limit=30000").solve(p, Limits(1)); out.append(r.stats.counters["conflicts"])
for n in (1, 2, 1, 2):
    out=[]; t0=time.perf_counter(); c0=time.process_time()
    ts=[threading.Thread(target=run, args=(s,out)) for s in (0,2)[:n]]
    [t.start() for t in ts]; [t.join() for t in ts]
    w=time.perf_counter()-t0; c=time.process_time()-c0
    print(f"{n} thread(s): wall {w:.2f} cpu {c:.2f} cpu/wall {c/w:.2f} conflicts {out} load {os.getloadavg()[0]:.2f}", flush=True)
