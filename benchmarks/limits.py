"""The limits matrix: every command x every backend under ``--time-limit``, wall time and peak memory.

Each cell runs the real command line in its own process on a hard puzzle and records
the wall time, the peak resident memory of the process (``getrusage`` of the child)
and the exit code.  A command holds its limit when

    wall <= time_limit * 1.1 + start-up

where start-up is the wall time of the same command with the same backend on a 1x1
puzzle (Python, the imports and the backend's library loading, which no time limit
can bound).  Writes ``out/limits.csv`` and ``out/limits.md`` (a table fit for
RESULTS.md), and prints the table.

    python -m benchmarks.limits [--time-limit 2] [--puzzles gettys,9-dom] [--backends auto,native,...]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SURVEY = REPO.parent / "shared" / "corpus" / "webpbn-survey"
OUT = REPO / "benchmarks" / "out"

PUZZLES = {"gettys": SURVEY / "webpbn-22336-gettys.non", "9-dom": SURVEY / "webpbn-08098-9-dom.non"}
BACKENDS = ("auto", "native", "cpsat", "cnf", "lcg", "dlx", "backtrack")

# command name -> the arguments before the file; "{b}" is the backend.
COMMANDS = {
    "solve": ["solve", "-b", "{b}"],
    "check": ["check", "-b", "{b}"],
    "check --why": ["check", "--why", "-b", "{b}"],
    "count": ["count", "-b", "{b}"],
    "grade": ["grade", "-b", "{b}"],
    "explain": ["explain", "--no-grid", "-b", "{b}"],
    "verify": ["verify", "--backends", "{b}"],
}


def run(args: list[str], timeout: float) -> tuple[float, int, int, str]:
    """(wall seconds, peak RSS in MB, exit code, last stderr line) of one command."""
    start = time.perf_counter()
    # RUSAGE_CHILDREN's maximum is over every child a process ever had: each cell runs
    # under its own small parent, which reports its one child's peak.
    probe = ("import resource, subprocess, sys, time\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "m = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
             "sys.stdout.write(f'{p.returncode} {m}\\n' + (p.stderr.strip().splitlines() or [''])[-1])\n")
    try:
        proc = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "nonolab", *args],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, -1, -1, "killed by the benchmark's own timeout"
    wall = time.perf_counter() - start
    head, _, tail = proc.stdout.partition("\n")
    code, peak_kb = (int(x) for x in head.split())
    return wall, peak_kb // 1024, code, tail.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--puzzles", default=",".join(PUZZLES))
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--commands", default=",".join(COMMANDS))
    args = parser.parse_args(argv)
    limit = args.time_limit
    puzzles = [p.strip() for p in args.puzzles.split(",") if p.strip()]
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    commands = [c.strip() for c in args.commands.split(",") if c.strip()]
    missing = [p for p in puzzles if not PUZZLES[p].exists()]
    if missing:
        print(f"missing puzzles (../shared/corpus not beside the repository?): {missing}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    tiny = Path(tempfile.mkdtemp()) / "tiny.non"
    tiny.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n", encoding="utf-8")
    rows = []
    for command in commands:
        for backend in backends:
            template = [a.replace("{b}", backend) for a in COMMANDS[command]]
            startup, _, _, _ = run([*template, str(tiny)], 120)
            for name in puzzles:
                cell = [*template, str(PUZZLES[name]), "--time-limit", str(limit)]
                wall, peak, code, err = run(cell, limit * 10 + 60)
                ok = wall <= limit * 1.1 + startup
                rows.append({"command": command, "backend": backend, "puzzle": name, "time_limit": limit,
                             "wall_s": round(wall, 2), "startup_s": round(startup, 2),
                             "peak_mb": peak, "exit": code, "within": "yes" if ok else "NO",
                             "stderr": err[:120]})
                print(f"{command:<12} {backend:<9} {name:<7} wall {wall:6.2f} s (start-up {startup:4.2f}) "
                      f"peak {peak:5d} MB exit {code:3d} {'ok' if ok else 'OVER'}  {err[:60]}", flush=True)
    with open(OUT / "limits.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    command_line = f"python -m benchmarks.limits {shlex.join(sys.argv[1:] if argv is None else argv)}".rstrip()
    lines = [f"`{command_line}`",
             f"({platform.node()}, {os.cpu_count()} cores, {date.today()}; wall includes start-up; "
             f"within = wall <= limit x 1.1 + start-up, start-up = the same command on a 1x1 puzzle)", "",
             "| command | backend | puzzle | wall s | start-up s | peak MB | exit | within |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['command']} | {r['backend']} | {r['puzzle']} | {r['wall_s']} | {r['startup_s']} | "
                     f"{r['peak_mb']} | {r['exit']} | {r['within']} |")
    over = [r for r in rows if r["within"] != "yes"]
    lines += ["", f"{len(rows) - len(over)} of {len(rows)} cells within the limit."]
    (OUT / "limits.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[-1:]))
    return 0 if not over else 1


if __name__ == "__main__":
    sys.exit(main())
