import sys, subprocess, json, random, itertools
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brute import count_puzzle
from nonolab.formats import loads_all
NL = os.environ.get("NONOLAB", "nonolab")
rng = random.Random(18)
checked = bad = runs = 0
configs = []
for i in range(int(sys.argv[1])):
    w, h = rng.randint(2, 7), rng.randint(2, 7)
    args = ["generate", "--size", f"{w}x{h}", "-n", str(rng.randint(1, 4)), "--seed", str(rng.randint(0, 10**6)),
            "-t", "json", "--style", rng.choice(["smooth", "noise"]), "--density", str(rng.choice([0.3, 0.5, 0.6])),
            "--allow-uniform-lines", "--min-density", "0.05", "--max-density", "0.95"]
    args += rng.choice([["--unique"], ["--unique", "--repair"], ["--max-grade", "line"], ["--max-grade", "probe"], ["--max-grade", "search", "--repair"]])
    args += rng.choice([[], [], ["-b", "lcg"], ["-b", "native"], ["-b", "cnf"], ["-b", "dlx"], ["-b", "backtrack"], ["-b", "native:probing=none"],
                        ["-b", "lcg", "-O", "conflict_limit=1"], ["-b", "auto", "-O", "native_budget=0"]])
    if w * h <= 20 and rng.random() < 0.4:
        args += ["--colours", str(rng.randint(2, 3))]
    r = subprocess.run([NL] + args, capture_output=True, text=True, timeout=300)
    runs += 1
    if r.returncode not in (0, 1):
        print("EXIT", r.returncode, args, r.stderr.strip()[-300:]); continue
    if not r.stdout.strip():
        continue
    for p in loads_all(r.stdout, "json"):
        sols = count_puzzle(p, 2)
        checked += 1
        ok = len(sols) == 1 and (p.goal is None or [list(x) for x in sols[0]] == [[p.goal[rr, cc] for cc in range(p.width)] for rr in range(p.height)])
        if not ok:
            bad += 1; print("NOT UNIQUE/GOAL", len(sols), args)
print(f"runs {runs} puzzles {checked} bad {bad}")
