import sys, time
sys.path.insert(0, 'benchmarks/results/audit-14')
import fuzz, oracle
from nonolab.harness.uniqueness import check_many
from nonolab.solvers import build
ps=[]; tr=[]
for seed in range(200000, 206000):
    _, colours, rows, cols, givens = fuzz.make_case(seed)
    try:
        t = oracle.solutions(rows, cols, givens, limit=3, budget=100000); p = fuzz.puzzle_of(colours, rows, cols, givens)
    except Exception: continue
    ps.append(p); tr.append(len(t))
print(len(ps), flush=True)
for spec, tl in (('native', None), ('auto', None), ('native', 0.01), ('auto', 0.005), ('native:batch_slice=0', None), ('auto:batch_slice=0', None), ('native:threads=2', None)):
    t0 = time.process_time()
    out = list(check_many(ps, build(spec), tl, errors='yield'))
    bad = errs = tmo = 0
    for p, t, c in zip(ps, tr, out):
        if isinstance(c, Exception): errs += 1; continue
        want = {0:'contradiction',1:'unique'}.get(t,'multiple')
        if c.verdict.value == 'timeout' and tl: tmo += 1; continue
        if c.verdict.value != want: bad += 1; print(spec, c.verdict.value, want, p)
    print(spec, tl, len(ps), len(out), 'errors', errs, 'timeouts', tmo, 'bad', bad, f'{time.process_time()-t0:.1f}s', flush=True)
