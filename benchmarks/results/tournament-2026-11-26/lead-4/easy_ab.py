import sys, time
from nonolab.formats import load_all
from nonolab.cli.commands import _solver
from nonolab.solvers.base import Given, Limits
ps = load_all('/tmp/t300.txt')
for spec in sys.argv[1:]:
    name, _, opts = spec.partition(':')
    pairs = tuple(o for o in opts.split(',') if o)
    ts=[]
    t0=time.process_time()
    for p in ps:
        s = _solver(name, None, pairs, None)
        t=time.process_time()
        r=s.solve(p, Limits(max_solutions=1), Given.of(()))
        ts.append(time.process_time()-t)
    ts.sort()
    print(f"{spec:40s} total {time.process_time()-t0:.3f} median {ts[len(ts)//2]*1000:.2f} ms p90 {ts[int(.9*len(ts))]*1000:.2f}")
