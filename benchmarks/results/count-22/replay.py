"""Where a count to 2 spends its conflicts: lcg seed 0 alone, and the seeded rival (seed 2) started
on lcg's root cells after J conflicts, each asked for 1 and for 2 solutions (lcg is deterministic:
conflicts, not seconds).  One JSON line a puzzle.

    PYTHONPATH=. python benchmarks/results/count-22/replay.py set:puzzle,... [--joins 12000,38000]

Per puzzle: c1/c2 = lcg seed 0's conflicts to its first solution / to its answer counting to 2
(complete2: no second), a0 = its first solution's
index; for each join J (when c1 > J): s1/s2 = the seeded draw's own conflicts to its first / its
answer, same = its first solution is lcg's first.
"""
import argparse, json, os, sys
sys.path.insert(0, "tests")
from benchmarks.tail import _puzzles
from benchmarks.tail_judge import guard_puzzles
from nonolab.solvers.base import Given, Limits
from nonolab.solvers.lcg import LcgSolver

CAP = 400_000


def run(puzzle, n, given=None, **options):
    r = LcgSolver(conflict_limit=CAP, **options).solve(puzzle, Limits(n), given)
    return r


def one(puzzle, joins):
    r1, r2 = run(puzzle, 1), run(puzzle, 2)
    row = {"c1": r1.stats.counters["conflicts"], "c2": r2.stats.counters["conflicts"], "n2": len(r2.solutions),
           "complete2": r2.complete, "status2": r2.status.value}
    first = r1.solutions[0] if r1.solutions else None
    for j in joins:
        if row["c1"] <= j:
            continue
        root = LcgSolver(conflict_limit=j).solve(puzzle, Limits(1)).remainder
        given = Given.from_grid(root)
        s1, s2 = run(puzzle, 1, given, seed=2), run(puzzle, 2, given, seed=2)
        row[f"j{j}"] = {"fixed": len(given.cells), "s1": s1.stats.counters["conflicts"],
                        "s2": s2.stats.counters["conflicts"], "n2": len(s2.solutions),
                        "same": bool(s1.solutions) and s1.solutions[0] == first,
                        "same_any": len(set(s2.solutions) & set(r2.solutions))}
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("targets")
    ap.add_argument("--joins", default="12000,38000")
    a = ap.parse_args()
    joins = [int(x) for x in a.joins.split(",")]
    guards = None
    for t in a.targets.split(","):
        if ":" in t:
            name, key = t.split(":")
            p = _puzzles(name)[key]
        else:
            guards = guards or guard_puzzles()
            p = guards[t]
        print(json.dumps({"puzzle": t, "load": round(os.getloadavg()[0], 2), **one(p, joins)}), flush=True)


main()
