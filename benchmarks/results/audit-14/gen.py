"""audit-14: generate(unique=True / max_grade / repair / colours) on small sizes, each puzzle judged
by oracle.py (unique, the goal its solution) and, for max_grade="line", by our own line solver.

    PYTHONPATH=. nice python benchmarks/results/audit-14/gen.py --start 0 --count 100
"""
import argparse, json, random, sys
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402
from surfaces import line_solve  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--out", default="/tmp/a14g")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from nonolab.generate import generate
    tally = Counter()
    for seed in range(a.start, a.start + a.count):
        rnd = random.Random(f"a14g-{seed}")
        w, h = rnd.randint(2, 8), rnd.randint(2, 8)
        colours = rnd.choice((1, 1, 2, 3))
        recipe = dict(unique=True, colours=colours, style=rnd.choice(("smooth", "noise")),
                      density=rnd.choice((0.3, 0.5, 0.6)), allow_uniform_lines=True, density_range=(0.0, 1.0))
        if rnd.random() < 0.4:
            recipe["max_grade"] = "line"
        if rnd.random() < 0.5:
            recipe["repair"] = True
        if rnd.random() < 0.3:
            recipe["backend"] = rnd.choice(["native", "lcg", "cnf", "cpsat"])
        try:
            rep = generate(w, h, count=2, seed=seed, time_limit=20, **recipe)
        except Exception as e:  # noqa: BLE001
            tally["raised"] += 1
            with open(out / "findings.jsonl", "a") as f:
                f.write(json.dumps({"seed": seed, "recipe": recipe, "raised": f"{type(e).__name__}: {e}"}) + "\n")
            continue
        for g in rep.puzzles:
            p = g.puzzle
            tally["puzzles"] += 1
            if p.is_colour:
                rows = tuple(tuple(zip(n, c)) for n, c in zip(p.rows, p.row_colours))
                cols = tuple(tuple(zip(n, c)) for n, c in zip(p.columns, p.column_colours))
            else:
                rows = tuple(tuple((n, 1) for n in r) for r in p.rows)
                cols = tuple(tuple((n, 1) for n in c) for c in p.columns)
            sols = oracle.solutions(rows, cols, limit=2)
            goal = tuple(tuple(x) for x in p.goal.cells) if p.goal is not None else None
            problems = []
            if len(sols) != 1:
                problems.append(f"{len(sols)} solutions")
            elif goal is not None and sols[0] != goal:
                problems.append("the goal is not the solution")
            if recipe.get("max_grade") == "line":
                ls = line_solve(rows, cols, {})
                if ls is None or not all(len(x) == 1 for row in ls for x in row):
                    problems.append("max_grade line, our line solver does not solve it")
            if problems:
                tally["BAD"] += 1
                with open(out / "findings.jsonl", "a") as f:
                    f.write(json.dumps({"seed": seed, "recipe": recipe, "problems": problems, "rows": rows,
                                        "cols": cols}) + "\n")
    (out / f"tally-{a.start}.json").write_text(json.dumps(tally))
    print(a.start, dict(tally), flush=True)


if __name__ == "__main__":
    main()
