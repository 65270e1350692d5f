"""The native engine's work, two versions side by side: CPU time in alternating processes.

    python -m benchmarks.engine_ab BASE_SRC [--new SRC] [--rounds 2] [--time-limit 5]
        [--corpus DIR] [--colour DIR] [--tasks check,explain,...] [--out FILE] [--raw FILE]

``BASE_SRC`` is a ``src`` folder holding another version of ``nonolab`` with its
extensions built in place (e.g. ``git archive a2cd917 | tar -x -C /tmp/base``, then
``python setup.py build_ext --inplace`` there).  Each round runs one child process per
version, in alternating order (base first in even rounds).  A child runs each task over
its puzzles: first a warm-up solve (the import and, for a numba engine, compiling or
loading its kernels: timed apart), then every puzzle, timing the solve's CPU time
(``time.process_time``: what the process itself spent, which a neighbour on a shared
machine disturbs far less than wall time).  Each puzzle's time is its lowest over the
rounds; a puzzle that timed out in some round is left out of that task's sums.

The tasks (each the native backend as a command asks for it):

* ``check``: count to 2, the default options (``nonolab check -b native``);
* ``explain``: the step log up to the first solution (``explain``, ``render --steps``);
* ``grade``: the grading ladder's rungs, one search node each with the step log
  (probing none, contradiction, full: what ``grade`` runs before any search);
* ``chain-range``, ``overlap``, ``enumerate``: count to 2 with that line strategy;
* ``depth-2``: the root with depth-2 probing and the step log (``grade``'s last rung);
  these four on the corpus puzzles of at most 30 cells a side;
* ``colour`` and ``colour-explain``: count to 2 and the step log, on the colour corpus.

Prints a markdown table: per task the warm-up, the puzzles both versions finished, the
summed CPU time of each, the new/base ratio and the geometric mean of per-puzzle ratios.
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

from benchmarks.corpus_batch import CORPUS, REPO

COLOUR = REPO.parent / "shared" / "corpus-colour"
TASKS = ("check", "explain", "grade", "chain-range", "overlap", "enumerate", "depth-2", "colour", "colour-explain")
PREFIX = "EAB "
_CHILD = r'''
import csv, json, sys, time
from pathlib import Path
from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from benchmarks.suites import Options, corpus_items, warmup_puzzle
tasks, corpus, colour, limit = sys.argv[1].split(","), Path(sys.argv[2]), Path(sys.argv[3]), float(sys.argv[4])
PLANS = {
    "check": [({}, 2)],
    "explain": [({"record_steps": True}, 1)],
    "grade": [({"probing": p, "restarts": False, "node_limit": 1, "record_steps": True}, 1)
              for p in ("none", "contradiction", "full")],
    "chain-range": [({"line": "chain-range"}, 2)],
    "overlap": [({"line": "overlap"}, 2)],
    "enumerate": [({"line": "enumerate"}, 2)],
    "depth-2": [({"probing": "depth-2", "restarts": False, "node_limit": 1, "record_steps": True}, 1)],
    "colour": [({}, 2)],
    "colour-explain": [({"record_steps": True}, 1)],
}

SMALL_ONLY = ("chain-range", "overlap", "enumerate", "depth-2")

def puzzles(task):
    if task.startswith("colour"):
        if not (colour / "index.csv").is_file():
            return
        for row in csv.DictReader(open(colour / "index.csv", encoding="utf-8")):
            try:
                yield row["file"], load(colour / row["file"])
            except Exception:
                continue
    else:
        small = task in SMALL_ONLY
        for name, puzzle in corpus_items(Options(corpus=corpus)):
            if not isinstance(puzzle, Exception) and (not small or max(puzzle.width, puzzle.height) <= 30):
                yield name, puzzle

def emit(**row):
    print("EAB " + json.dumps(row), flush=True)

for task in tasks:
    plan = PLANS[task]
    started = time.process_time()
    for options, wanted in plan:  # the warm-up: imports, and a numba engine's kernels
        NativeSolver(**options).solve(warmup_puzzle(), Limits(wanted, 600))
    emit(task=task, puzzle="warm-up", cpu=time.process_time() - started, status="solved")
    for name, puzzle in puzzles(task):
        cpu, status = 0.0, "solved"
        for options, wanted in plan:
            before = time.process_time()
            result = NativeSolver(**options).solve(puzzle, Limits(wanted, limit))
            cpu += time.process_time() - before
            if result.status.value in ("timeout", "interrupted") and options.get("node_limit") is None:
                status = "timeout"
        emit(task=task, puzzle=name, cpu=cpu, status=status)
'''


def run_child(src: Path, tasks: list[str], corpus: Path, colour: Path, limit: float, cache: Path) -> list[dict]:
    """One child process on the package in ``src``: its result rows."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), str(REPO)]), NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", _CHILD, ",".join(tasks), str(corpus), str(colour), str(limit)],
                         env=env, cwd=REPO, capture_output=True, text=True, check=True)
    return [json.loads(line[len(PREFIX):]) for line in out.stdout.splitlines() if line.startswith(PREFIX)]


def summarise(rounds: dict[str, list[list[dict]]], tasks: list[str]) -> list[str]:
    """Markdown lines: per task, the warm-up and the new/base ratios of the finished puzzles."""
    lines = ["| task | warm-up base / new (first round) | puzzles | base CPU s | new CPU s | new / base | "
             "geometric mean |", "|---|---:|---:|---:|---:|---:|---:|"]
    for task in tasks:
        best: dict[str, dict[str, float]] = {"base": {}, "new": {}}
        timed_out: set[str] = set()
        warm = {}
        for version, runs in rounds.items():
            warm[version] = next((r["cpu"] for r in runs[0] if r["task"] == task and r["puzzle"] == "warm-up"), 0.0)
            for rows in runs:
                for r in rows:
                    if r["task"] != task or r["puzzle"] == "warm-up":
                        continue
                    if r["status"] == "timeout":
                        timed_out.add(r["puzzle"])
                    seen = best[version].get(r["puzzle"])
                    best[version][r["puzzle"]] = r["cpu"] if seen is None else min(seen, r["cpu"])
        both = [p for p in best["base"] if p in best["new"] and p not in timed_out]
        if not both:
            continue
        tb, tn = sum(best["base"][p] for p in both), sum(best["new"][p] for p in both)
        logs = [math.log(max(best["new"][p], 1e-6) / max(best["base"][p], 1e-6)) for p in both]
        geo = math.exp(sum(logs) / len(logs))
        lines.append(f"| {task} | {warm['base']:.2f} s / {warm['new']:.2f} s | {len(both)} | {tb:.2f} | {tn:.2f} | "
                     f"{tn / tb:.3f} | {geo:.3f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine_ab", description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="the src folder of the base version")
    parser.add_argument("--new", type=Path, default=REPO / "src", help="the src folder of the new version")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=5.0, help="CPU-bound seconds per puzzle and task")
    parser.add_argument("--tasks", default=",".join(TASKS), help=f"comma-separated, of {', '.join(TASKS)}")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--colour", type=Path, default=COLOUR)
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--raw", type=Path, default=None, help="write every row here (JSON), as it goes")
    args = parser.parse_args(argv)
    tasks = [t for t in args.tasks.split(",") if t]
    unknown = sorted(set(tasks) - set(TASKS))
    if unknown:
        parser.error(f"unknown tasks {unknown}")
    versions = {"base": args.base.resolve(), "new": args.new.resolve()}
    rounds: dict[str, list[list[dict]]] = {"base": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="nonolab-eab-") as cache:
        for index in range(args.rounds):
            for version in (("base", "new") if index % 2 == 0 else ("new", "base")):
                started = time.perf_counter()
                rows = run_child(versions[version], tasks, args.corpus, args.colour, args.time_limit,
                                 Path(cache) / version)
                rounds[version].append(rows)
                if args.raw is not None:
                    args.raw.write_text(json.dumps(rounds), encoding="utf-8")
                print(f"round {index + 1} {version}: {len(rows)} rows in {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    text = "\n".join(summarise(rounds, tasks)) + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
