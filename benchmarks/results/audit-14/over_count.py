import sys, collections
sys.path.insert(0, 'benchmarks/results/audit-14')
import fuzz, oracle
from nonolab.solvers import build, Limits, capabilities, Capability
from nonolab.errors import NonolabError
over = collections.Counter(); runs = collections.Counter()
specs = ['native','lcg','cnf','cpsat','auto','backtrack','dlx','sharpsat','native:threads=2','auto:threads=1']
for seed in range(300000, 300400):
    _, colours, rows, cols, givens = fuzz.make_case(seed)
    if len(rows)*len(cols) > 64: continue
    try:
        p = fuzz.puzzle_of(colours, rows, cols, givens)
    except NonolabError: continue
    for spec in specs:
        s = build(spec)
        caps = capabilities(s)
        if (colours > 1 and Capability.COLOUR not in caps) or (givens and Capability.GIVEN_CELLS not in caps): continue
        for N in (1, 2, 3):
            for keep in (None, 1):
                try: r = s.solve(p, Limits(N, keep=keep))
                except NonolabError: continue
                runs[spec] += 1
                if r.count > N or len(r.solutions) > N:
                    over[(spec, N, keep, r.complete)] += 1
print(dict(runs)); print(dict(over))
