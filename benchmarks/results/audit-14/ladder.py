"""audit-14: grade's ladder on small unique black-and-white puzzles that lines alone do not solve,
against our own contradiction probing and full probing (surfaces.probe_solve).

    PYTHONPATH=. nice python benchmarks/results/audit-14/ladder.py --start 0 --count 3000 --out DIR
"""
import argparse, json, random, sys
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from fuzz import puzzle_of  # noqa: E402
from surfaces import line_solve, probe_solve  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--out", default="/tmp/a14l")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.harness.classify import grade
    from nonolab.harness.explanation import explain
    tally = Counter()
    for seed in range(a.start, a.start + a.count):
        rnd = random.Random(f"a14l-{seed}")
        h, w = (rnd.randint(5, 10), rnd.randint(5, 10)) if seed % 3 else (rnd.randint(10, 14), rnd.randint(10, 14))
        d = rnd.choice((0.4, 0.5, 0.6))
        pic = [[int(rnd.random() < d) for _ in range(w)] for _ in range(h)]
        rows = tuple(oracle.runs(r) for r in pic)
        cols = tuple(oracle.runs([pic[r][c] for r in range(h)]) for c in range(w))
        tally["pictures"] += 1
        try:
            if len(oracle.solutions(rows, cols, limit=2, budget=200_000)) != 1:
                continue
        except oracle.TooBig:
            continue
        ls = line_solve(rows, cols, {})
        if all(len(x) == 1 for row in ls for x in row):
            continue
        tally["unique-not-line"] += 1
        p = puzzle_of(1, rows, cols)
        cp = probe_solve(rows, cols, {}, False)
        fp = probe_solve(rows, cols, {}, True)
        own = "contradiction-probe" if cp else "full-probe" if fp else "beyond"
        tally[f"own-{own}"] += 1
        for backend in ("native", rnd.choice(["auto", "cnf", "lcg"])):
            g = grade(p, backend)
            tally[f"grade-{g.grade.value if g.grade else None}"] += 1
            ok = {"contradiction-probe": ("contradiction-probe",), "full-probe": ("full-probe",),
                  "beyond": ("depth-2", "search")}[own]
            if g.grade is None or g.grade.value not in ok or g.verdict.value != "unique":
                tally["BAD"] += 1
                with open(out / "findings.jsonl", "a") as f:
                    f.write(json.dumps({"seed": seed, "backend": backend, "grade": str(g.grade), "own": own,
                                        "verdict": str(g.verdict), "rows": rows, "cols": cols}) + "\n")
        # explain with each probing level: verdict unique, and its steps never guess when ours
        # solves it with that level
        for probing, solves in (("contradiction", cp), ("full", fp)):
            ex = explain(p, f"native:probing={probing}")
            tally[f"explain-{probing}"] += 1
            if ex.verdict.value != "unique" or (solves and ex.search_steps):
                tally["BAD"] += 1
                with open(out / "findings.jsonl", "a") as f:
                    f.write(json.dumps({"seed": seed, "what": f"explain probing={probing}", "verdict": ex.verdict.value,
                                        "search_steps": ex.search_steps, "own_solves": solves,
                                        "rows": rows, "cols": cols}) + "\n")
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
