import sys, subprocess, random
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brute import line_options
from nonolab.formats import loads_all
NL = os.environ.get("NONOLAB", "nonolab")
def line_solvable(p):
    H, W = p.height, p.width
    rows = [list(r) for r in (p.coloured_rows if p.is_colour else p.rows)]
    cols = [list(c) for c in (p.coloured_columns if p.is_colour else p.columns)]
    R = [line_options(r, W) for r in rows]; C = [line_options(c, H) for c in cols]
    allv = set(range(p.colours + 1))
    cand = [[set(allv) for _ in range(W)] for _ in range(H)]
    changed = True
    while changed:
        changed = False
        for i in range(H):
            R[i] = [o for o in R[i] if all(o[c] in cand[i][c] for c in range(W))]
            for c in range(W):
                vals = {o[c] for o in R[i]}
                if vals != cand[i][c]: cand[i][c] = vals; changed = True
        for c in range(W):
            C[c] = [o for o in C[c] if all(o[r] in cand[r][c] for r in range(H))]
            for r in range(H):
                vals = {o[r] for o in C[c]}
                if vals != cand[r][c]: cand[r][c] = vals; changed = True
    return all(len(v) == 1 for row in cand for v in row)
rng = random.Random(7); n = bad = 0
for i in range(int(sys.argv[1])):
    w, h = rng.randint(3, 10), rng.randint(3, 10)
    args = ["generate", "--size", f"{w}x{h}", "-n", "3", "-t", "json", "--seed", str(rng.randint(0, 10**6)), "--max-grade", "line",
            "--style", rng.choice(["smooth", "noise"])] + rng.choice([[], ["--repair"], ["--colours", "2"], ["--colours", "3", "--repair"]])
    r = subprocess.run([NL] + args, capture_output=True, text=True)
    if not r.stdout.strip(): continue
    for p in loads_all(r.stdout, "json"):
        n += 1
        if not line_solvable(p): bad += 1; print("NOT LINE-SOLVABLE", args)
print("line-graded", n, "bad", bad)
