"""Conflicts lcg's engine needs to the first solution, with a conflict cap (issue 25, branch tail7).

    python benchmarks/results/tournament-2026-11-27/tail-7/conflicts.py [--cap 300000] [--puzzles SET:N,...] SPEC...

SPEC is an lcg spec (``lcg``, ``lcg:modes=1000,rephase=1000``).  The engine is built as
``LcgSolver.solve`` builds it (the same options, so the same conflicts) and run in
conflict budgets, so a search that runs away stops at the cap (printed as ``>cap``)
instead of at a clock.  One JSON line per puzzle and spec: conflicts, CPU seconds of this
thread, mode switches, rephases, the load; then the sums.
"""
import argparse
import json
import os
import time

from benchmarks.tail import _puzzles
from nonolab.solvers import build
from nonolab.solvers.lcg import _FIRST_MODE, _MINIMISE, _EXPLAIN, _RESTARTS, _PHASES, _probe_budget

TEN = ("icga2018:626,tcga2012:652,tcga2014:694,taai2015:701,taai2015:575,taai2015:600,icga2017:631,"
       "taai2014:670,tcga2016:492,tcga2013:708")


def engine_for(solver, puzzle):
    """The engine LcgSolver.solve builds for a black-and-white puzzle, no given cells, one search."""
    assert not solver.interleave
    return solver._engine.Engine(
        puzzle.width, puzzle.height, puzzle.rows, puzzle.columns, [], _MINIMISE[solver.minimise],
        _EXPLAIN[solver.explain], _RESTARTS[solver.restarts], _probe_budget(puzzle) if solver.probing else 0,
        target_phases=_PHASES[solver.phases], hint_rounds=solver.hint_rounds, hint_conflicts=solver.hint_conflicts,
        follow_conflicts=solver.follow_conflicts, probe_binaries=solver.probe_binaries, hint_after=solver.hint_after,
        modes=_FIRST_MODE[solver.first_mode] if solver.modes else 0, mode_conflicts=max(solver.modes, 1),
        focused_decay=solver.focused_decay, rephase=solver.rephase,
        **({"focused_target": _PHASES[solver.focused_phases]} if hasattr(solver, "focused_phases") else {}))


def first_solution(solver, puzzle, cap):
    engine = engine_for(solver, puzzle)
    start = time.thread_time()
    outcome = 0
    while outcome == 0 and engine.stats()["conflicts"] < cap:
        outcome = engine.run(1e6, cap - engine.stats()["conflicts"])
    stats = engine.stats()
    return {"found": outcome == 1, "conflicts": stats["conflicts"], "cpu": round(time.thread_time() - start, 3),
            "switches": stats["mode_switches"], "rephases": stats["rephases"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--cap", type=int, default=300_000)
    ap.add_argument("--puzzles", default=TEN)
    args = ap.parse_args()
    sums = {s: [0, 0.0, 0, 0] for s in args.specs}
    for key in args.puzzles.split(","):
        name, number = key.split(":")
        puzzle = _puzzles(name)[number]
        for spec in args.specs:
            got = first_solution(build(spec), puzzle, args.cap)
            s = sums[spec]
            s[0] += got["conflicts"]; s[1] += got["cpu"]; s[2] = max(s[2], got["conflicts"]); s[3] += not got["found"]
            print(json.dumps({"puzzle": key, "spec": spec, **got, "load": round(os.getloadavg()[0], 2)}), flush=True)
    for spec, (total, cpu, worst, capped) in sums.items():
        print(json.dumps({"spec": spec, "conflicts": total, "cpu": round(cpu, 2), "slowest": worst, "capped": capped}))


if __name__ == "__main__":
    main()
