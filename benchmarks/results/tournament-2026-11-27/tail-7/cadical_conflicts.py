"""Conflicts CaDiCaL 1.9.5 (python-sat) needs for the first solution of the ten tail puzzles,
on the cnf backend's regular encoding (issue 25, branch tail7: are lcg's heuristics the lever?).

    python benchmarks/results/tournament-2026-11-27/tail-7/cadical_conflicts.py [--budget 2000000]

Prints one JSON line a puzzle: conflicts, decisions, CPU seconds, and the same with the
phases of every cell set to empty (the nonogram's majority value) through ``set_phases``.
"""
import argparse
import json
import os
import time

from benchmarks.tail import _puzzles
from nonolab.solvers.cnf.encode import encode

TEN = ("icga2018:626,tcga2012:652,tcga2014:694,taai2015:701,taai2015:575,taai2015:600,icga2017:631,"
       "taai2014:670,tcga2016:492,tcga2013:708").split(",")


def run(enc, budget, phases=None):
    from pysat.solvers import Solver
    with Solver(name="cadical195", bootstrap_with=enc.clauses) as sat:
        if phases:
            sat.set_phases(phases)
        sat.conf_budget(budget)
        start = time.process_time()
        answer = sat.solve_limited()
        cpu = time.process_time() - start
        stats = sat.accum_stats()
    return {"answer": answer, "conflicts": stats.get("conflicts"), "decisions": stats.get("decisions"),
            "cpu": round(cpu, 3)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=2_000_000)
    args = ap.parse_args()
    for key in TEN:
        name, number = key.split(":")
        puzzle = _puzzles(name)[number]
        enc = encode(puzzle)
        plain = run(enc, args.budget)
        empty = run(enc, args.budget, [-(v + 1) for v in range(enc.num_cells)])
        print(json.dumps({"puzzle": key, "vars": enc.num_vars, "clauses": len(enc.clauses), "cadical": plain,
                          "cadical_empty_phases": empty, "load": round(os.getloadavg()[0], 2)}), flush=True)


if __name__ == "__main__":
    main()
