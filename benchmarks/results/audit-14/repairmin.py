"""audit-14: repair's fewest flips against our own breadth-first search over flip sets (small
multiple-solution puzzles, black-and-white and two colours, with and without locked cells).

    PYTHONPATH=. nice python benchmarks/results/audit-14/repairmin.py --start 0 --count 200
"""
import argparse, itertools, json, random, sys
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from fuzz import puzzle_of  # noqa: E402


def clues(pic):
    h, w = len(pic), len(pic[0])
    return tuple(oracle.runs(r) for r in pic), tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))


def fewest(pic, colours, givens, locked, most=3):
    """The fewest flips that make pic's clues unique (with givens), and every such flip set."""
    h, w = len(pic), len(pic[0])
    cells = [(i, j) for i in range(h) for j in range(w) if (i, j) not in givens and (i, j) not in locked]
    for k in range(1, most + 1):
        found = []
        for combo in itertools.combinations(cells, k):
            for vals in itertools.product(*[[v for v in range(colours + 1) if v != pic[i][j]] for i, j in combo]):
                g = [list(x) for x in pic]
                for (i, j), v in zip(combo, vals):
                    g[i][j] = v
                rows, cols = clues(g)
                if len(oracle.solutions(rows, cols, givens, limit=2)) == 1:
                    found.append(tuple(sorted((i, j, v) for (i, j), v in zip(combo, vals))))
        if found:
            return k, set(found)
    return None, set()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", default="/tmp/a14r")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.harness.repair import repair
    from nonolab.core import Solution
    tally = Counter()
    for seed in range(a.start, a.start + a.count):
        rnd = random.Random(f"a14r-{seed}")
        colours = rnd.choice((1, 1, 2))
        h, w = (rnd.randint(2, 4), rnd.randint(2, 4)) if colours == 1 else (rnd.randint(2, 3), rnd.randint(2, 3))
        pic = [[rnd.randint(1, colours) if rnd.random() < 0.4 else 0 for _ in range(w)] for _ in range(h)]
        rows, cols = clues(pic)
        givens = {}
        if rnd.random() < 0.3:
            r, c = rnd.randrange(h), rnd.randrange(w)
            givens[(r, c)] = pic[r][c]
        sols = oracle.solutions(rows, cols, givens)
        if len(sols) < 2:
            continue
        locked = set()
        if rnd.random() < 0.3:
            locked = {(rnd.randrange(h), rnd.randrange(w))}
        k, sets = fewest(tuple(map(tuple, pic)), colours, givens, locked)
        p = puzzle_of(colours, rows, cols, givens)
        picture = Solution.from_values(pic) if colours > 1 else Solution(pic)
        backend = rnd.choice(["native", "cnf", "lcg", "auto", "cpsat"])
        rr = repair(p, picture, backend, max_flips=3, keep=sorted(locked))
        tally["repairs"] += 1
        tally[f"status-{rr.status}"] += 1
        best = len(rr.best.flips) if rr.best else None
        problems = []
        if k is None and rr.status == "repaired" and rr.minimal and best is not None and best <= 3:
            problems.append(f"minimal {best}, our search finds none up to 3")
        if k is not None:
            if rr.minimal and best != k:
                problems.append(f"minimal {best} flips, our search {k}")
            if best is not None and best < k:
                problems.append(f"{best} flips, fewer than our {k}")
            if rr.lower_bound > k:
                problems.append(f"lower bound {rr.lower_bound} > our {k}")
            if best is None and rr.status == "not-found":
                problems.append(f"not found, our search {k}")
        for s in rr.suggestions:
            if any((i, j) in locked or (i, j) in givens for i, j, _ in s.flips):
                problems.append("a locked or given cell flipped")
            if len(s.flips) == k and tuple(sorted(s.flips)) not in sets:
                problems.append(f"a {k}-flip suggestion our search does not find unique: {s.flips}")
        if problems:
            tally["BAD"] += 1
            with open(out / "findings.jsonl", "a") as f:
                f.write(json.dumps({"seed": seed, "backend": backend, "problems": problems, "pic": pic,
                                    "givens": sorted(givens.items()), "locked": sorted(locked), "ours": k,
                                    "status": rr.status, "best": best, "minimal": rr.minimal}) + "\n")
        else:
            tally["agree"] += 1
            if rr.minimal:
                tally["minimal-confirmed"] += 1
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
