"""Does a line's two-cell clauses ever propagate what the line solver does not?  (throwaway)

For each puzzle: the root (every line solved to a fixpoint), the binary clauses of each line
at the root (as lcg's line_binaries builds them), then random partial assignments (a random
share of cells given random values): the fixpoint of the lines alone against the fixpoint of
the lines plus unit propagation over the clauses.  Prints how often they differ."""
import random, sys, json
from nonolab.formats import load_all
from nonolab.solvers.lcg._lcg import solve_line

def lines_of(h, w):
    return [[r * w + c for c in range(w)] for r in range(h)] + [[r * w + c for r in range(h)] for c in range(w)]

def fixpoint(p, lines, clues, state, clauses=None):
    state = bytearray(state)
    while True:
        changed = False
        for cells, clue in zip(lines, clues):
            out = solve_line(clue, bytes(state[i] for i in cells))
            if out is None:
                return None
            for i, v in zip(cells, out):
                if state[i] != v:
                    state[i] = v; changed = True
        if clauses:
            for (a, av), (b, bv) in clauses:   # (cell a has value av) -> (cell b has value bv)
                if state[a] == av and state[b] != bv:
                    if state[b] != 3: return None
                    state[b] = bv; changed = True
        if not changed:
            return bytes(state)

rnd = random.Random(5)
want = {"icga2018": [626], "tcga2012": [652], "tcga2014": [694], "taai2015": [701, 575, 600], "icga2017": [631],
        "taai2014": [670], "tcga2016": [492], "tcga2013": [708]}
total = differ = nclauses = 0
for name, keys in want.items():
    ps = {p.name.lstrip("$"): p for p in load_all(f"/work/shared/tournament/{name}.txt")}
    for k in keys:
        p = ps[str(k)]
        h, w = p.height, p.width
        lines = lines_of(h, w); clues = list(p.rows) + list(p.columns)
        root = fixpoint(p, lines, clues, bytes([3]) * (h * w))
        clauses = []
        for cells, clue in zip(lines, clues):
            s = bytearray(root[i] for i in cells)
            for i in range(len(cells)):
                if s[i] != 3: continue
                for val in (1, 2):
                    s[i] = val; out = solve_line(clue, bytes(s)); s[i] = 3
                    for j in range(len(cells)):
                        if j != i and s[j] == 3 and out[j] != 3:
                            clauses.append(((cells[i], val), (cells[j], out[j])))
        nclauses += len(clauses)
        for t in range(60):
            share = rnd.choice((0.05, 0.1, 0.2, 0.3))
            state = bytearray(root)
            for i in range(h * w):
                if state[i] == 3 and rnd.random() < share:
                    state[i] = rnd.choice((1, 2))
            a = fixpoint(p, lines, clues, state)
            b = fixpoint(p, lines, clues, state, clauses)
            total += 1; differ += a != b
        print(name, k, len(clauses), total, differ, flush=True)
print(json.dumps({"assignments": total, "fixpoints_differ": differ, "clauses": nclauses}))
