import sys, random
sys.path.insert(0, 'benchmarks/results/audit-14')
import oracle
from nonolab.core import Palette, Puzzle
from nonolab.solvers import build, Limits, capabilities, Capability
from nonolab.errors import NonolabError
bad = 0; runs = 0; refused = {}
for K in (8, 9, 15, 16, 17, 30, 31, 32, 33, 40, 62, 63, 64, 65):
    try:
        pal = Palette.default_for(K)
    except Exception as e:
        print(K, 'palette', e); continue
    for seed in range(40):
        rnd = random.Random(f"{K}-{seed}")
        h, w = rnd.randint(1, 4), rnd.randint(1, 5)
        top = rnd.choice((K, K, K - 1, 1, 2))
        pic = [[rnd.randint(1, top) if rnd.random() < 0.6 else 0 for _ in range(w)] for _ in range(h)]
        # make sure the top colour is used sometimes
        if rnd.random() < 0.5: pic[rnd.randrange(h)][rnd.randrange(w)] = K
        rows = tuple(oracle.runs(r) for r in pic); cols = tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))
        if rnd.random() < 0.3:
            cells = [v for row in pic for v in row]; rnd.shuffle(cells)
            cols = tuple(oracle.runs([cells[r*w+c] for r in range(h)]) for c in range(w))
        L = lambda ls: tuple(tuple(n for n, _ in l) for l in ls)
        C = lambda ls: tuple(tuple(c for _, c in l) for l in ls)
        try:
            p = Puzzle(rows=L(rows), columns=L(cols), row_colours=C(rows), column_colours=C(cols), palette=pal)
        except NonolabError as e:
            refused[('puzzle', str(e)[:60])] = refused.get(('puzzle', str(e)[:60]), 0) + 1; continue
        truth = set(oracle.solutions(rows, cols, limit=20))
        for spec in ('native', 'lcg', 'cnf', 'cpsat', 'auto', 'native:probing=none'):
            s = build(spec)
            try:
                r = s.solve(p, Limits(None if len(truth) < 20 else 5))
            except NonolabError as e:
                k = (spec, K, type(e).__name__, str(e)[:80]); refused[k] = refused.get(k, 0) + 1; continue
            except Exception as e:
                print('RAISED', spec, K, seed, type(e).__name__, e); bad += 1; continue
            runs += 1
            got = {tuple(map(tuple, x.cells)) for x in r.solutions}
            if not got <= truth or (r.complete and len(got) != len(truth)):
                bad += 1; print('BAD', spec, K, seed, len(got), len(truth), r.complete, rows, cols)
print('runs', runs, 'bad', bad)
for k, v in sorted(refused.items(), key=str): print(v, k)
