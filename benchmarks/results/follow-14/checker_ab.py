"""A/B of the compiled checker's wrong_lines: another build (old, its .so given first) against this tree's (new), alternating.

Usage: checker_ab.py OLD.so 65 1000 noise2000 COLOUR.non ... (a number: the large:N square; noiseN: a random NxN picture)."""
import importlib.util, sys, time, random
from nonolab.bench.suites import large_puzzle
from nonolab.formats import load
from nonolab.core import Puzzle, Solution
from nonolab.harness.uniqueness import check
from nonolab.solvers import build

def module(path):
    spec = importlib.util.spec_from_file_location("_check", path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
old = module(sys.argv.pop(1))
import nonolab.core._check as new

def noise(n, seed=1):
    rng = random.Random(seed)
    data = bytes(rng.getrandbits(1) for _ in range(n * n))
    sol = Solution.from_bytes(data, n)
    return Puzzle.from_solution(sol), sol

cases = []
for spec in sys.argv[1:]:
    if spec.startswith("noise"):
        n = int(spec[5:]); p, sol = noise(n)
    elif spec.isdigit():
        p = large_puzzle(int(spec), 2000); sol = check(p, build("native")).result.solutions[0]
    else:
        p = load(spec); sol = check(p, build("native")).result.solutions[0]
    args = (sol.to_bytes(), sol.width, p.rows, p.columns) + ((p.row_colours, p.column_colours) if p.is_colour else ())
    assert old.wrong_lines(*args) == new.wrong_lines(*args) == []
    cases.append((spec[-28:], p, args))

for name, p, args in cases:
    times = {"old": [], "new": []}
    reps = max(3, int(2e7 // (p.width * p.height)))
    for round_ in range(7):
        for label, m in (("old", old), ("new", new)) if round_ % 2 == 0 else (("new", new), ("old", old)):
            t = time.process_time()
            for _ in range(reps):
                m.wrong_lines(*args)
            times[label].append((time.process_time() - t) / reps)
    o, n = sorted(times["old"])[3], sorted(times["new"])[3]
    print(f"{name:28s} {p.width}x{p.height} colour={p.is_colour}: old {o*1e3:.3f} ms, new {n*1e3:.3f} ms, new/old {n/o:.3f}", flush=True)
