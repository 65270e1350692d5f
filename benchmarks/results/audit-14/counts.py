"""audit-14: exact counts of puzzles with thousands to a hundred thousand solutions (permutation-like
and sparse pictures, black-and-white and colour), every counting backend against oracle.py.

    PYTHONPATH=. nice python benchmarks/results/audit-14/counts.py --start 0 --count 20
"""
import argparse, json, random, sys
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from fuzz import puzzle_of  # noqa: E402

SPECS = ["native", "lcg", "cnf", "auto", "sharpsat", "native:threads=2", "native:probing=none", "cpsat", "dlx",
         "backtrack", "lcg:seed=4,shake=1"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--out", default="/tmp/a14n")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.harness.uniqueness import count
    from nonolab.solvers import Capability, build, capabilities
    from nonolab.errors import NonolabError
    tally = Counter()
    for seed in range(a.start, a.start + a.count):
        rnd = random.Random(f"a14n-{seed}")
        colours = rnd.choice((1, 1, 2))
        n = rnd.randint(5, 8)
        h, w = n, n + rnd.randint(0, 2)
        pic = [[0] * w for _ in range(h)]
        for r in range(h):
            for _ in range(rnd.randint(1, 2)):
                pic[r][rnd.randrange(w)] = rnd.randint(1, colours)
        rows = tuple(oracle.runs(r) for r in pic)
        cols = tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))
        try:
            sols = oracle.solutions(rows, cols, limit=200_001, budget=3_000_000)
        except oracle.TooBig:
            tally["oracle-toobig"] += 1
            continue
        if len(sols) > 200_000:
            continue
        T = len(sols)
        tally["puzzles"] += 1
        tally["solutions"] += T
        p = puzzle_of(colours, rows, cols)
        for spec in rnd.sample(SPECS, 4):
            s = build(spec)
            if colours > 1 and Capability.COLOUR not in capabilities(s):
                continue
            k = rnd.choice((1, 2, None if T < 5000 else 1))
            (out / "current").write_text(json.dumps({"seed": seed, "spec": spec}))
            try:
                c = count(p, s, None, 60.0, keep=k)
            except NonolabError as e:
                tally[f"refused {type(e).__name__}"] += 1
                continue
            tally["counted"] += 1
            if not c.exact:
                tally["timeout"] += 1
            if (c.exact and c.count != T) or c.count > T or any(tuple(map(tuple, x.cells)) not in set(sols) for x in c.result.solutions):
                tally["BAD"] += 1
                with open(out / "findings.jsonl", "a") as f:
                    f.write(json.dumps({"seed": seed, "spec": spec, "keep": k, "count": c.count, "exact": c.exact,
                                        "oracle": T, "rows": rows, "cols": cols}) + "\n")
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
