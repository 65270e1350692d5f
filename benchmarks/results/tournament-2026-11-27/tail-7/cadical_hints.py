"""CaDiCaL 1.9.5's conflicts on the ten tail puzzles with lcg's belief-propagation phases
(issue 25, branch tail7, step 1's optional half).

    python benchmarks/results/tournament-2026-11-27/tail-7/cadical_hints.py [--budget 2000000]

The phases: loopy belief propagation between the rows and the columns as lcg's hints.cpp
computes it (50 rounds, messages damped by half and kept in [0.01, 0.99], each line's
exact weighted share from ``_lcg.line_shares``), on the empty grid (lcg runs it after root
probing, so its hints can differ).  Each cell's phase, filled when its belief is at least
one half, goes to CaDiCaL through ``set_phases`` (CaDiCaL's forced phases, as nonosolve).
"""
import argparse
import json
import os
import time

from benchmarks.tail import _puzzles
from nonolab.solvers.cnf.encode import encode
from nonolab.solvers.lcg import engine_module

TEN = ("icga2018:626,tcga2012:652,tcga2014:694,taai2015:701,taai2015:575,taai2015:600,icga2017:631,"
       "taai2014:670,tcga2016:492,tcga2013:708").split(",")
FLOOR, SETTLED = 0.01, 1e-4


def clamp(m):
    return min(1 - FLOOR, max(FLOOR, m))


def beliefs(puzzle, rounds=50):
    shares = engine_module().line_shares
    w, h = puzzle.width, puzzle.height
    lines = [(puzzle.rows[r], [r * w + c for c in range(w)], True) for r in range(h)]
    lines += [(puzzle.columns[c], [r * w + c for r in range(h)], False) for c in range(w)]
    from_row, from_column = [0.5] * (w * h), [0.5] * (w * h)
    for _ in range(rounds):
        moved = 0.0
        for rows in (True, False):
            out, into = (from_row, from_column) if rows else (from_column, from_row)
            for clue, cells, is_row in lines:
                if is_row != rows:
                    continue
                prior = [into[x] for x in cells]
                post = shares(list(clue), [-1] * len(cells), prior)
                for x, p, q in zip(cells, post, prior):
                    p = min(1 - 1e-9, max(1e-9, p))
                    q = clamp(q)
                    yes, no = p * (1 - q), (1 - p) * q
                    new = 0.5 * out[x] + 0.5 * clamp(yes / (yes + no))
                    moved = max(moved, abs(new - out[x]))
                    out[x] = new
        if moved < SETTLED:
            break
    return [a * c / (a * c + (1 - a) * (1 - c)) for a, c in zip(from_row, from_column)]


def main():
    from pysat.solvers import Solver
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=2_000_000)
    args = ap.parse_args()
    for key in TEN:
        name, number = key.split(":")
        puzzle = _puzzles(name)[number]
        enc = encode(puzzle)
        belief = beliefs(puzzle)
        with Solver(name="cadical195", bootstrap_with=enc.clauses) as sat:
            sat.set_phases([v + 1 if b >= 0.5 else -(v + 1) for v, b in enumerate(belief)])
            sat.conf_budget(args.budget)
            start = time.process_time()
            answer = sat.solve_limited()
            cpu = time.process_time() - start
            stats = sat.accum_stats()
        print(json.dumps({"puzzle": key, "answer": answer, "conflicts": stats.get("conflicts"),
                          "decisions": stats.get("decisions"), "cpu": round(cpu, 3),
                          "filled_phases": sum(b >= 0.5 for b in belief), "load": round(os.getloadavg()[0], 2)}),
              flush=True)


if __name__ == "__main__":
    main()
