"""The lcg backend against the cnf backend with CaDiCaL 3 on the survey's hard eight.

    python -m benchmarks.lcg_vs_cnf [--time-limit 60] [--max-solutions 2]
        [--backends lcg,cnf:solver=cadical300] [--only NAME,...] [--corpus DIR] [--out DIR]

Each puzzle is solved by each backend once, in this process, one after the other
(count to 2 by default, the question "is it unique"); time is the backend's own
``stats.wall_time``, conflicts its ``conflicts`` counter.  Prints a markdown table
(fit for RESULTS.md) and writes ``OUT/lcg_vs_cnf.csv`` as it goes.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SURVEY = REPO.parent / "shared" / "corpus" / "webpbn-survey"
OUT = REPO / "benchmarks" / "out"
# The hard eight of Wolter's survey, by webpbn number, in the survey's order.
HARD_EIGHT = {"9-Dom": "08098", "Forever": "06574", "Lion": "02712", "Marley": "10088",
              "Thing": "18297", "Nature": "09892", "Sierp": "12548", "Gettys": "22336"}
FIELDS = ("puzzle", "backend", "status", "count", "wall_time", "conflicts", "decisions", "propagations",
          "mean_explanation")


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lcg_vs_cnf", description=__doc__.split("\n")[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--max-solutions", type=int, default=2)
    parser.add_argument("--backends", default="lcg,cnf:solver=cadical300")
    parser.add_argument("--only", default="", help="comma-separated puzzle names of the hard eight")
    parser.add_argument("--corpus", type=Path, default=SURVEY)
    parser.add_argument("--out", type=Path, default=OUT)
    return parser.parse_args(argv)


def _puzzle_file(corpus: Path, number: str) -> Path:
    found = sorted(corpus.glob(f"webpbn-{number}-*"))
    if not found:
        raise SystemExit(f"lcg_vs_cnf: no webpbn-{number}-* in {corpus}")
    return found[0]


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    from nonolab.formats import load
    from nonolab.solvers import build
    from nonolab.solvers.base import Limits

    specs = [s.strip() for s in args.backends.split(",") if s.strip()]
    wanted = [n.strip() for n in args.only.split(",") if n.strip()] or list(HARD_EIGHT)
    solvers = {spec: build(spec) for spec in specs}
    warmup = load(_puzzle_file(args.corpus, HARD_EIGHT["Forever"]))
    for solver in solvers.values():  # imports and first-call costs are not measured
        solver.solve(warmup, Limits(max_solutions=1, time_limit=args.time_limit))
    args.out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    with open(args.out / "lcg_vs_cnf.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        for name in wanted:
            puzzle = load(_puzzle_file(args.corpus, HARD_EIGHT[name]))
            for spec, solver in solvers.items():
                result = solver.solve(puzzle, Limits(max_solutions=args.max_solutions, time_limit=args.time_limit))
                counters = result.stats.counters
                row = {"puzzle": name, "backend": spec, "status": result.status.value, "count": result.count,
                       "wall_time": round(result.stats.wall_time, 3), "conflicts": counters.get("conflicts", ""),
                       "decisions": counters.get("decisions", ""), "propagations": counters.get("propagations", ""),
                       "mean_explanation": counters.get("mean_explanation", "")}
                writer.writerow(row)
                handle.flush()
                rows.append(row)
                print(f"{name:8} {spec:24} {row['status']:8} {row['wall_time']:8.2f} s  "
                      f"{row['conflicts']} conflicts", file=sys.stderr, flush=True)
    print(_table(rows, specs, wanted, args))
    return 0


def _table(rows: list[dict], specs: list[str], puzzles: list[str], args: argparse.Namespace) -> str:
    by = {(r["puzzle"], r["backend"]): r for r in rows}
    head = "| puzzle | " + " | ".join(f"{s} time (s) | {s} conflicts" for s in specs) + " |"
    lines = [f"Count to {args.max_solutions}, {args.time_limit:g} s limit, one run each "
             f"(`python -m benchmarks.lcg_vs_cnf`).", "", head,
             "|---|" + "---:|---:|" * len(specs)]
    totals = {s: 0.0 for s in specs}
    for name in puzzles:
        cells = []
        for spec in specs:
            r = by[(name, spec)]
            totals[spec] += r["wall_time"]
            mark = "" if r["status"] in ("solved", "unsat") else f" ({r['status']})"
            cells.append(f"{r['wall_time']:.2f}{mark} | {r['conflicts']}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| total | " + " | ".join(f"{totals[s]:.2f} | " for s in specs) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
