"""Two versions of the lcg engine (or any backend specs) on the same puzzles, in one run.

    python -m benchmarks.lcg_ab BASE_SRC [--new SRC] [--base-specs lcg]
        [--new-specs lcg,lcg:phases=saved] [--hard8] [--ndom 12,15] [--taai t25-0319,...]
        [--time-limit 60] [--out FILE]

``BASE_SRC`` is a ``src`` folder holding another version of ``nonolab`` with its compiled
engines (e.g. main's: ``git archive main src | tar -x -C /tmp/base`` and the ``_lcg``
extension copied in).  For each puzzle, every (version, spec) is solved in a fresh
child process (the puzzle, count to the suite's limit: 2, taai25 first solution), the
order reversed from one puzzle to the next, so a neighbour's load falls on both
versions alike.  Times are the solver's own ``wall_time``; conflicts are the engine's
(lcg is deterministic: its conflicts do not depend on the load).  Writes a CSV row per
solve (as it goes) and prints a markdown table.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path

from benchmarks.corpus_batch import OUT, REPO

PREFIX = "LCGAB "
HARD8 = ("*9-dom*", "*forever*", "*lion*", "*marley*", "*thing*", "*nature*", "*sierp*", "*gettys*")
_CHILD = r'''
import json, sys
from benchmarks.suites import SUITES, Options
from nonolab.solvers import get_spec
from nonolab.solvers.base import Limits
suite, name, spec, limit, size = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
options = Options(sizes=(int(size),)) if suite == "ndom" else Options()
puzzle = next(p for n, p in SUITES[suite].items(options) if n == name)
result = get_spec(spec).solve(puzzle, Limits(max_solutions=SUITES[suite].max_solutions, time_limit=limit))
counters = result.stats.counters or {}
print("LCGAB " + json.dumps({"status": result.status.value, "count": result.count, "time": result.stats.wall_time,
                              "conflicts": counters.get("conflicts", "")}))
'''
FIELDS = ["puzzle", "version", "spec", "status", "count", "conflicts", "time"]


def puzzles(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """(suite, name, size) of every puzzle asked for, in order."""
    from benchmarks.suites import SUITES, Options

    chosen: list[tuple[str, str, str]] = []
    if args.hard8:
        chosen += [("survey", n, "0") for n, _ in SUITES["survey"].items(Options())
                   if any(fnmatch(n.lower(), g) for g in HARD8)]
    chosen += [("ndom", f"{n}-dom", str(n)) for n in args.ndom]
    chosen += [("taai25", n, "0") for n in args.taai]
    return chosen


def solve(src: Path, suite: str, name: str, spec: str, limit: float, size: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), str(REPO)]))
    done = subprocess.run([sys.executable, "-c", _CHILD, suite, name, spec, str(limit), size], env=env,
                          capture_output=True, text=True, timeout=limit + 120)
    for line in done.stdout.splitlines():
        if line.startswith(PREFIX):
            return json.loads(line[len(PREFIX):])
    return {"status": "error", "count": "", "time": "", "conflicts": done.stderr.strip().splitlines()[-1:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lcg_ab", description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the src folder of the base version")
    parser.add_argument("--new", type=Path, default=REPO / "src", help="the src folder of the new version")
    parser.add_argument("--base-specs", default="lcg", help="backend specs run on the base version")
    parser.add_argument("--new-specs", default="lcg", help="backend specs run on the new version")
    parser.add_argument("--hard8", action="store_true", help="the survey's hard eight")
    parser.add_argument("--ndom", type=lambda t: [int(x) for x in t.split(",") if x], default=[], help="N-Dom sizes")
    parser.add_argument("--taai", type=lambda t: [x for x in t.split(",") if x], default=[], help="taai25 names")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--out", type=Path, default=OUT / "lcg_ab.csv")
    args = parser.parse_args(argv)
    jobs = [("base", args.base, s) for s in args.base_specs.split(",") if s]
    jobs += [("new", args.new, s) for s in args.new_specs.split(",") if s]
    columns = [f"{version} {spec}" for version, _, spec in jobs]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict[str, dict]] = {}
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for index, (suite, name, size) in enumerate(puzzles(args)):
            order = jobs if index % 2 == 0 else jobs[::-1]
            for version, src, spec in order:
                row = solve(src, suite, name, spec, args.time_limit, size)
                rows.setdefault(name, {})[f"{version} {spec}"] = row
                writer.writerow({"puzzle": name, "version": version, "spec": spec, **row})
                handle.flush()
            print(name, {c: (rows[name][c]["time"], rows[name][c]["conflicts"]) for c in columns}, flush=True)
    print(table(rows, columns, args.time_limit))
    return 0


def table(rows: dict[str, dict[str, dict]], columns: list[str], limit: float) -> str:
    """Per puzzle: time and conflicts of each column ("timeout" past the limit)."""
    def cell(row: dict) -> str:
        answered = row["status"] in ("solved", "unsat")
        head = f"{row['time']:.2f}" if answered else row["status"]
        return f"{head} ({row['conflicts']:,} c)" if isinstance(row["conflicts"], int) else head

    lines = ["| puzzle | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    totals = {c: 0.0 for c in columns}
    for name, by_column in rows.items():
        lines.append(f"| {name} | " + " | ".join(cell(by_column[c]) for c in columns) + " |")
        for c in columns:
            totals[c] += by_column[c]["time"] if isinstance(by_column[c]["time"], float) else limit
    lines.append("| total s (a timeout counts the limit) | " + " | ".join(f"{totals[c]:.1f}" for c in columns) + " |")
    first = columns[0]
    ratios = []
    for c in columns[1:]:
        logs = [math.log(r[c]["time"] / r[first]["time"]) for r in rows.values()
                if isinstance(r[c]["time"], float) and isinstance(r[first]["time"], float) and r[first]["time"] > 0
                and r[c]["time"] > 0]
        ratios.append(f"{c} / {first}: {math.exp(sum(logs) / len(logs)):.3f}" if logs else f"{c}: -")
    return "\n".join(lines) + "\n\nTime ratios, geometric mean per puzzle: " + "; ".join(ratios)


if __name__ == "__main__":
    sys.exit(main())
