"""The tournament tail: each puzzle's CPU time and lcg's conflicts, in one process.

    python -m benchmarks.tail scan [--sets taai2011,...] [--backend lcg] [--mode first|check] [--out CSV]
    python -m benchmarks.tail ab SPEC_A SPEC_B ... --puzzles icga2017:631,tcga2016:492 [--mode first] [--rounds 2]
    python -m benchmarks.tail judge SPEC [--seeds 0,1,2,3] [--candidate-seeds 0] [--sets ...] [--part both|guards|population]

``scan`` solves every puzzle of the sets in order with one backend in this process (the
per-puzzle cost of a long-lived engine) and writes set, puzzle, CPU seconds and the
engine's conflicts; the slowest puzzles are the tail.  ``ab`` solves the named puzzles
with each spec in turn, alternating the order round by round, and prints CPU seconds and
conflicts per puzzle and spec (lcg's search is deterministic: its conflicts are a
noise-free measure beside the noisy CPU time).  ``judge`` puts an lcg spec beside the
default's range over seeds, in conflicts, on the population and the guards
(:mod:`benchmarks.tail_judge`).  CPU time is this process's plus any
Kissat worker's (``benchmarks.peers._cpu_with_workers``); wall time beside it.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import sys
import time
from pathlib import Path

from benchmarks.peers import SETS, TOURNAMENT, _cpu_with_workers


@functools.lru_cache(maxsize=None)
def _puzzles(name: str) -> dict:
    from nonolab.formats import load_all
    return {p.name.lstrip("$"): p for p in load_all(TOURNAMENT / f"{name}.txt")}


def _one(solver, puzzle, mode: str, limit: float) -> dict:
    from nonolab.solvers.base import Limits
    before, start = _cpu_with_workers(), time.perf_counter()
    result = solver.solve(puzzle, Limits(2 if mode == "check" else 1, limit))
    cpu, wall = _cpu_with_workers() - before, time.perf_counter() - start
    counters = result.stats.counters
    return {"cpu": round(cpu, 4), "wall": round(wall, 4), "conflicts": counters.get("conflicts", ""), "solutions": len(result.solutions),
            "complete": result.complete, "phase": counters.get("phase", "")}


def scan(sets: list[str], spec: str, mode: str, limit: float, out: Path) -> None:
    from nonolab.solvers import build
    solver = build(spec)
    rows = []
    for name in sets:
        for key, puzzle in _puzzles(name).items():
            row = {"set": name, "puzzle": key, **_one(solver, puzzle, mode, limit)}
            rows.append(row)
        total = sum(r["cpu"] for r in rows if r["set"] == name)
        print(f"{name}: {total:.2f} CPU s, load {os.getloadavg()[0]:.2f}", flush=True)
        _write(out, rows)
    rows.sort(key=lambda r: -r["cpu"])
    for r in rows[:30]:
        print(json.dumps(r))


def ab(specs: list[str], targets: list[str], mode: str, rounds: int, limit: float) -> None:
    from nonolab.solvers import build
    solvers = {s: build(s) for s in specs}
    loaded = {}
    for t in targets:
        name, key = t.split(":")
        loaded[t] = _puzzles(name)[key]
    totals = {s: 0.0 for s in specs}
    for r in range(rounds):
        order = specs if r % 2 == 0 else specs[::-1]
        for t in targets:
            for s in order:
                got = _one(solvers[s], loaded[t], mode, limit)
                totals[s] += got["cpu"]
                print(json.dumps({"round": r, "puzzle": t, "spec": s, "load": round(os.getloadavg()[0], 2), **got}),
                      flush=True)
    print(json.dumps({"total_cpu": {s: round(v, 3) for s, v in totals.items()}}))


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tail", description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("scan", "ab", "judge"))
    parser.add_argument("specs", nargs="*", default=["lcg"])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--puzzles", default="")
    parser.add_argument("--mode", choices=("first", "check"), default="first")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--out", type=Path, default=None,
                        help="scan: the csv (benchmarks/results/tail-scan.csv); judge: the cache folder")
    parser.add_argument("--seeds", default="0,1,2,3", help="judge: the default's seeds")
    parser.add_argument("--candidate-seeds", default="0", help="judge: the candidate's seeds")
    parser.add_argument("--part", choices=("both", "guards", "population"), default="both", help="judge: what it runs")
    parser.add_argument("--fresh", action="store_true", help="judge: run everything again, no cached run")
    args = parser.parse_args(argv)
    if args.kind == "judge":
        from benchmarks import tail_judge
        cache = tail_judge.Cache(args.out or tail_judge.OUT, args.fresh, lambda text: print(text, flush=True))
        try:
            lines = tail_judge.judge(args.specs[0], _ints(args.seeds), _ints(args.candidate_seeds),
                                     args.sets.split(","), args.part, cache)
        except (tail_judge.StaleCache, FileNotFoundError, ValueError) as exc:
            print(f"tail judge: {exc}", file=sys.stderr)
            return 2
        print("\n".join(lines))
    elif args.kind == "scan":
        scan(args.sets.split(","), args.specs[0], args.mode, args.time_limit,
             args.out or Path("benchmarks/results/tail-scan.csv"))
    else:
        ab(args.specs, args.puzzles.split(","), args.mode, args.rounds, args.time_limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
