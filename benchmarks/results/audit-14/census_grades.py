import sys, itertools, time
sys.path.insert(0, 'benchmarks/results/audit-14')
import oracle
from surfaces import line_solve, probe_solve
from nonolab.exhaustive.run import census
for (w,h) in [tuple(map(int, a.split("x"))) for a in sys.argv[1:]]:
    t=time.process_time()
    res = census(w,h).as_dict()
    # own: group pictures by clues
    groups = {}
    for bits in range(1 << (w*h)):
        pic = tuple(tuple((bits >> (r*w+c)) & 1 for c in range(w)) for r in range(h))
        rows = tuple(oracle.runs(r) for r in pic); cols = tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))
        groups.setdefault((rows,cols), 0); groups[(rows,cols)] += 1
    uniq = [k for k,v in groups.items() if v == 1]
    grades = {}
    line = 0
    for rows, cols in uniq:
        ls = line_solve(rows, cols, {})
        if all(len(x)==1 for row in ls for x in row):
            g = "line"
        elif probe_solve(rows, cols, {}, False):
            g = "contradiction-probe"
        elif probe_solve(rows, cols, {}, True):
            g = "full-probe"
        else:
            g = "beyond"
        grades[g] = grades.get(g,0)+1
    own = {"clue_sets": len(groups), "unique": len(uniq), "grades": grades}
    print(w,h, "census", {k: res[k] for k in ("clue_sets","unique","line","grades")}, "own", own, f"{time.process_time()-t:.1f}s")
