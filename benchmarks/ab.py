"""Two versions of the package, timed in one run: alternating processes on the same puzzles.

    python -m benchmarks.ab BASE_SRC [--new SRC] [--rounds 3] [--time-limit 5]
        [--large-time-limit 120] [--sizes 250,500,1000,2000,4000] [--corpus DIR]
        [--cache DIR | --cold] [--out FILE] [--raw FILE]

``BASE_SRC`` is a ``src`` folder holding another version of ``nonolab`` (e.g. main's,
from ``git archive main src | tar -x -C /tmp/base``); ``--new`` defaults to this
repository's.  Each round runs one child process per version, in alternating order
(base first in even rounds), each solving with ``native`` (count to 2): a warm-up
puzzle (import and compile or cache load, timed apart), every corpus puzzle, then the
smooth squares of the ``large`` suite.  Times are the solver's own ``wall_time``;
each puzzle's time is its fastest over the rounds, so a process slowed by a neighbour
counts less.  The first round of each version compiles the engine into an empty numba
cache (the compile time; ``--cache`` keeps the caches in a folder that may already
hold them); later rounds load the cache.  With ``--cold`` every process compiles
into an empty cache: with ``--corpus '' --sizes ''`` that measures compile time alone,
as wall and CPU time (the CPU time suffers less from a busy machine).

Prints a markdown report: per suite the summed time of the puzzles both versions
finished, the new/base ratio, and the geometric mean of per-puzzle ratios.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpus_batch import REPO
from benchmarks.suites import CORPUS, LARGE_SIZES

PREFIX = "AB "  # the child's result lines on stdout
_CHILD = r'''
import json, sys, time
started = time.perf_counter()
from nonolab.core import Puzzle
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from benchmarks.suites import LARGE, Options, corpus_items, large_puzzle, warmup_puzzle
corpus, limit, large_limit = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
sizes = [int(s) for s in sys.argv[4].split(",") if s]
solver = NativeSolver()
solver.solve(warmup_puzzle(), Limits(2, 60))
print("AB " + json.dumps({"suite": "warmup", "puzzle": "warm-up", "time": time.perf_counter() - started,
                          "cpu": time.process_time()}), flush=True)

def one(suite, name, puzzle, limit):
    r = solver.solve(puzzle, Limits(max_solutions=2, time_limit=limit))
    print("AB " + json.dumps({"suite": suite, "puzzle": name, "time": r.stats.wall_time,
                              "status": r.status.value, "count": r.count}), flush=True)

if corpus:
    for name, puzzle in corpus_items(Options(corpus=__import__("pathlib").Path(corpus))):
        if isinstance(puzzle, Puzzle):
            one("corpus", name, puzzle, limit)
for size in sizes:
    one("large", f"smooth-{size}x{size}", large_puzzle(size, LARGE.default_seed), large_limit)
'''


def run_child(src: Path, corpus: str, limit: float, sizes: str, cache: Path, large_limit: float = 120) -> list[dict]:
    """One child process on the package in ``src``: its result rows."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), str(REPO)]), NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", _CHILD, corpus, str(limit), str(large_limit), sizes], env=env, cwd=REPO,
                         capture_output=True, text=True, check=True)
    return [json.loads(line[len(PREFIX):]) for line in out.stdout.splitlines() if line.startswith(PREFIX)]


def summarise(rounds: dict[str, list[list[dict]]], cold: bool = False) -> list[str]:
    """Markdown lines: warm-up (compile, then cached) and per-suite ratios of new to base.

    ``cold``: every process compiled; the fastest of them is reported, wall and CPU.
    """
    lines = ["| | base | new | new / base |", "|---|---:|---:|---:|"]
    warm = {v: [next(r["time"] for r in rows if r["suite"] == "warmup") for rows in rounds[v]] for v in rounds}
    if cold:
        cpu = {v: [next(r.get("cpu", 0.0) for r in rows if r["suite"] == "warmup") for rows in rounds[v]]
               for v in rounds}
        for what, table in (("wall", warm), ("CPU", cpu)):
            b, n = min(table["base"]), min(table["new"])
            lines.append(f"| import + compile + warm-up solve, {what} time (fastest of {len(table['base'])}) | "
                         f"{b:.1f} s | {n:.1f} s | {n / b:.3f} |")
    else:
        lines.append(f"| first process: import + compile + warm-up solve | {warm['base'][0]:.1f} s | "
                     f"{warm['new'][0]:.1f} s | {warm['new'][0] / warm['base'][0]:.3f} |")
    if len(warm["base"]) > 1 and not cold:
        b, n = min(warm["base"][1:]), min(warm["new"][1:])
        lines.append(f"| later processes: import + cache load + warm-up solve (fastest) | {b:.2f} s | "
                     f"{n:.2f} s | {n / b:.3f} |")
    for suite in ("corpus", "large"):
        best: dict[str, dict[str, dict]] = {}
        timed_out: set[str] = set()  # in some round of some version: near the limit, not comparable
        for version, runs in rounds.items():
            for rows in runs:
                for r in rows:
                    if r["suite"] != suite:
                        continue
                    if r["status"] == "timeout":
                        timed_out.add(r["puzzle"])
                    seen = best.setdefault(version, {}).get(r["puzzle"])
                    if seen is None or r["time"] < seen["time"]:
                        best[version][r["puzzle"]] = r
        if not best:
            continue
        both = [p for p in best["base"] if p in best.get("new", {}) and p not in timed_out]
        tb = sum(best["base"][p]["time"] for p in both)
        tn = sum(best["new"][p]["time"] for p in both)
        logs = [math.log(best["new"][p]["time"] / best["base"][p]["time"]) for p in both
                if min(best["new"][p]["time"], best["base"][p]["time"]) > 0]
        geo = math.exp(sum(logs) / len(logs)) if logs else float("nan")
        timeouts = len(best["base"]) - len(both)
        lines.append(f"| {suite}: {len(both)} puzzles finished by both (sum of fastest times) | {tb:.2f} s | "
                     f"{tn:.2f} s | {tn / tb:.3f} (geometric mean per puzzle {geo:.3f}) |")
        if timeouts:
            lines.append(f"| {suite}: left out (a timeout in some round) | {timeouts} | | |")
        if suite == "large":
            for p in both:
                b, n = best["base"][p]["time"], best["new"][p]["time"]
                lines.append(f"| {p} | {b:.3f} s | {n:.3f} s | {n / b:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ab", description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the src folder of the base version")
    parser.add_argument("--new", type=Path, default=REPO / "src", help="the src folder of the new version")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per corpus puzzle")
    parser.add_argument("--large-time-limit", type=float, default=120.0, help="seconds per large puzzle")
    parser.add_argument("--sizes", default=",".join(map(str, LARGE_SIZES)), help="large: sides ('' for none)")
    parser.add_argument("--corpus", default=str(CORPUS), help="corpus folder ('' for none)")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--raw", type=Path, default=None, help="write every row here (JSON), as it goes")
    parser.add_argument("--cache", type=Path, default=None, help="keep the numba caches here (default: a temp folder)")
    parser.add_argument("--cold", action="store_true", help="every process compiles into an empty cache")
    args = parser.parse_args(argv)
    versions = {"base": args.base.resolve(), "new": args.new.resolve()}
    rounds: dict[str, list[list[dict]]] = {"base": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="nonolab-ab-") as tmp:
        caches = args.cache if args.cache is not None else Path(tmp)
        for index in range(args.rounds):
            order = ("base", "new") if index % 2 == 0 else ("new", "base")
            for version in order:
                started = time.perf_counter()
                # One numba cache per version, empty before its first process: that one compiles.
                cache = caches / (f"{version}-{index}" if args.cold else version)
                rows = run_child(versions[version], args.corpus, args.time_limit, args.sizes, cache,
                                 args.large_time_limit)
                rounds[version].append(rows)
                if args.raw is not None:
                    args.raw.write_text(json.dumps(rounds), encoding="utf-8")
                print(f"round {index + 1} {version}: {len(rows)} rows in {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    text = "\n".join(summarise(rounds, args.cold)) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
