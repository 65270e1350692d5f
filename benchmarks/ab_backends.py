"""Two versions of the package, any backends, timed in one run: alternating processes.

    python -m benchmarks.ab_backends BASE_SRC [--new SRC] --backends auto,native
        [--suite survey --only GLOB,...] [--suite taai25 --limit 100 --every 5] [--smooth 60,100,200]
        [--rounds 3] [--time-limit 60] [--max-solutions 2] [--out FILE.csv]

``BASE_SRC`` is a ``src`` folder holding another version of ``nonolab`` (e.g.
``git archive HEAD src | tar -x -C /tmp/base``, with the compiled extensions copied
in); ``--new`` defaults to this repository's.  Each round runs one child process per
version, in alternating order (base first in even rounds); each child warms every
backend up on a small puzzle, then solves every puzzle with every backend in turn
(backends alternate within a puzzle).  The puzzles: the suite's (``--suite``, with
``--only`` and ``--limit`` as in ``benchmarks.run``, and ``--every K``: every K-th, so
that a sample spans a suite ordered by difficulty), plus the smooth squares of the
``large`` suite of the sides ``--smooth`` names (line-solvable at these sizes).
Times are the solver's own ``wall_time``.  Writes one CSV row per (round, version,
puzzle, backend) and prints, per backend and version, the sum of the per-puzzle
medians over rounds.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
from pathlib import Path
from statistics import median

from benchmarks.corpus_batch import REPO

PREFIX = "ABB "
_CHILD = r'''
import json, sys, itertools
from fnmatch import fnmatch
from nonolab.solvers import get_spec
from nonolab.solvers.base import Limits
from benchmarks.suites import SUITES, Options, large_puzzle, warmup_puzzle
suite, only, limit, every, smooth, backends, time_limit, cap = json.loads(sys.argv[1])
items = []
if suite:
    items = SUITES[suite].items(Options())
    if only:
        items = (it for it in items if any(fnmatch(it[0], "*" + g.strip("*") + "*") for g in only))
    items = list(itertools.islice(items, 0, limit, every))
items += [(f"smooth-{n}x{n}", large_puzzle(n, 2000)) for n in smooth]
for spec in backends:
    get_spec(spec).solve(warmup_puzzle(), Limits(2, 60))
for name, puzzle in items:
    for spec in backends:
        r = get_spec(spec).solve(puzzle, Limits(max_solutions=cap, time_limit=time_limit))
        c = r.stats.counters
        print("ABB " + json.dumps({"puzzle": name, "backend": spec, "time": r.stats.wall_time,
                                   "status": r.status.value, "count": r.count, "winner": c.get("winner"),
                                   "early_start": c.get("early_start"), "conflicts": c.get("conflicts")}),
              flush=True)
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab_backends", description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the src folder of the base version")
    parser.add_argument("--new", type=Path, default=REPO / "src", help="the src folder of the new version")
    parser.add_argument("--backends", default="auto", help="comma-separated backend specs")
    parser.add_argument("--suite", default="", help="a suite of benchmarks.suites ('' for none)")
    parser.add_argument("--only", default="", help="only the suite's puzzles matching these globs")
    parser.add_argument("--limit", type=int, default=None, help="only the suite's first K puzzles")
    parser.add_argument("--every", type=int, default=1, help="only every K-th puzzle of the suite")
    parser.add_argument("--smooth", default="", help="sides of smooth squares to add (e.g. 60,100,200)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--max-solutions", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="write every row here (CSV)")
    args = parser.parse_args(argv)
    job = [args.suite, [g for g in args.only.split(",") if g], args.limit, args.every,
           [int(n) for n in args.smooth.split(",") if n], args.backends.split(","), args.time_limit,
           args.max_solutions]
    specs = job[5]
    versions = {"base": args.base.resolve(), "new": args.new.resolve()}
    rows = []
    for rnd in range(args.rounds):
        order = ["base", "new"] if rnd % 2 == 0 else ["new", "base"]
        for version in order:
            env = dict(os.environ, PYTHONPATH=f"{versions[version]}{os.pathsep}{REPO}")
            out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(job)], env=env, cwd=REPO,
                                 capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                if line.startswith(PREFIX):
                    rows.append({"round": rnd, "version": version, **json.loads(line[len(PREFIX):])})
            print(f"round {rnd} {version}: done", file=sys.stderr, flush=True)
    if args.out:
        with open(args.out, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    times: dict[tuple[str, str, str], list[float]] = {}
    for row in rows:
        times.setdefault((row["backend"], row["version"], row["puzzle"]), []).append(row["time"])
    for spec in specs:
        for version in versions:
            medians = [median(t) for (s, v, _), t in times.items() if s == spec and v == version]
            print(f"{spec:30s} {version:5s} sum of medians {sum(medians):9.3f} s over {len(medians)} puzzles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
