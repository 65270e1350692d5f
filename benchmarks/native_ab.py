"""Native alone, spec against spec, puzzle by puzzle: CPU, nodes, probes, verdicts.

    python -m benchmarks.native_ab SPEC_A SPEC_B ... --paths PATH ... [--first N] [--mode check|first]
        [--time-limit S] [--rounds R] [--out CSV]

PATHS are ``nonolab bench``'s (folders, files, ``ndom:9,12,15``, ``large:250,500``,
``tournament:FILE``), or a corpus ``index.csv`` (its files, each row's pbnsolve verdict
held beside the answers); ``--first N`` keeps the first N puzzles of each.  Each puzzle is
solved by every spec in turn, the order alternating puzzle by puzzle and round by round,
in this one process; CPU time is the process's (``threads=1`` unless a spec says
otherwise, so that it is one core's).  A spec ending in ``!noskip`` runs native with
every probe (its probe skipping off: the same search, more trials).  Beside it: the engine's nodes, probes (trials),
skipped probes, the verdict and the number of solutions.  With ``restarts=false`` (one
search style) native's search is deterministic, so two specs that are meant to search
alike must show the same nodes and verdicts: the summary counts the puzzles where they
differ from the first spec's.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path


def _one(solver, puzzle, mode: str, limit: float) -> dict:
    from nonolab.solvers.base import Limits
    before, start = time.process_time(), time.perf_counter()
    result = solver.solve(puzzle, Limits(2 if mode == "check" else 1, limit))
    cpu, wall = time.process_time() - before, time.perf_counter() - start
    c = result.stats.counters
    return {"status": result.status, "solutions": len(result.solutions), "cpu": round(cpu, 4),
            "wall": round(wall, 4), "nodes": c.get("nodes", ""), "probes": c.get("probes", ""),
            "skipped": c.get("probes_skipped", ""), "slot_nodes": c.get("slot_nodes", "")}


def _expand(paths: list[str]) -> tuple[list[str], dict[str, str]]:
    """The paths with each corpus index.csv replaced by its files; their pbnsolve verdicts."""
    out, verdicts = [], {}
    for path in paths:
        if not path.endswith("index.csv"):
            out.append(path)
            continue
        folder = Path(path).parent
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                name = str(folder / row["file"])
                out.append(name)
                verdict = row["pbnsolve_class"].split(",")[0].split(" ")[0]  # unique / multiple / unsolved
                if verdict in ("unique", "multiple"):
                    verdicts[name] = verdict
    return out, verdicts


def _agrees(row: dict, verdict: str | None) -> bool:
    """Whether an answer agrees with pbnsolve's verdict (a timeout agrees with anything)."""
    if verdict is None or row["status"] == "timeout":
        return True
    if verdict == "unique":
        return row["solutions"] == 1
    return row["solutions"] == 2


def _build(spec: str):
    """The solver of ``spec``, one thread unless it says otherwise; a trailing ``!noskip``
    turns the engine's probe skipping off (native only: the same search, every probe run)."""
    from nonolab.solvers import build
    name, noskip = spec.removesuffix("!noskip"), spec.endswith("!noskip")
    solver = build(name if "threads=" in name else name + ("," if ":" in name else ":") + "threads=1")
    if noskip:
        solver._skip_probes = False
    return solver


def run(specs: list[str], paths: list[str], first: int | None, mode: str, limit: float, rounds: int,
        out: Path | None) -> dict:
    from nonolab.bench.suites import items_of
    solvers = {s: _build(s) for s in specs}
    paths, verdicts = _expand(paths)
    items = items_of(paths, first=first)
    rows = []
    for r in range(rounds):
        for i, item in enumerate(items):
            order = specs if (i + r) % 2 == 0 else specs[::-1]
            for s in order:
                got = _one(solvers[s], item.puzzle, mode, limit)
                got["agrees"] = _agrees(got, verdicts.get(item.name))
                rows.append({"round": r, "puzzle": item.name, "spec": s, "load": round(os.getloadavg()[0], 2), **got})
    summary = {s: {"cpu": 0.0, "nodes": 0, "probes": 0, "skipped": 0, "timeouts": 0, "disagree": 0,
                   "cpu_where_all_answer": 0.0} for s in specs}
    answered = {}
    for row in rows:
        key = (row["round"], row["puzzle"])
        answered[key] = answered.get(key, True) and row["status"] != "timeout"
    for row in rows:
        t = summary[row["spec"]]
        t["cpu"] += row["cpu"]
        for key in ("nodes", "probes", "skipped"):
            t[key] += row[key] or 0
        t["timeouts"] += row["status"] == "timeout"
        t["disagree"] += not row["agrees"]
        if answered[row["round"], row["puzzle"]]:
            t["cpu_where_all_answer"] += row["cpu"]
    base = {(row["round"], row["puzzle"]): row for row in rows if row["spec"] == specs[0]}
    for s in specs:
        summary[s]["cpu"] = round(summary[s]["cpu"], 3)
        summary[s]["cpu_where_all_answer"] = round(summary[s]["cpu_where_all_answer"], 3)
        summary[s]["differ_from_first"] = sum(
            1 for row in rows if row["spec"] == s
            and (row["nodes"], row["status"], row["solutions"]) != tuple(
                base[row["round"], row["puzzle"]][k] for k in ("nodes", "status", "solutions")))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return {"puzzles": len(items), "rounds": rounds, "mode": mode, "summary": summary}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.native_ab", description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--paths", nargs="+", required=True)
    parser.add_argument("--first", type=int, default=None)
    parser.add_argument("--mode", choices=("first", "check"), default="check")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    report = run(args.specs, args.paths, args.first, args.mode, args.time_limit, args.rounds, args.out)
    print(json.dumps({**report, "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
