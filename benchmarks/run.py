"""One benchmark runner for every suite of ``benchmarks.suites``, any set of backends.

    python -m benchmarks.run SUITE [--backends native,cpsat,cnf] [--repeat N]
        [--time-limit S] [--max-solutions N] [--limit K] [--seed S] [--sizes 250,500]
        [--by-size] [--skip-larger K] [--chart KIND] [--name NAME] [--out DIR]

SUITE is corpus, corpus30, survey, large, random30, taai25 or ndom.  ``--backends`` (alias
``--strategies``) takes backend specs: a name (``native``, ``cpsat``, ``dlx`` ...) or
a name with options, as ``native:line=chain-range`` (``nonolab backends`` lists the
declared variants).  ``--skip-larger K`` records a backend as ``skipped`` on a
puzzle when it has already failed to finish, within the limit, K puzzles with fewer
cells in this run (K=1: past the first puzzle it could not finish; a larger K keeps
one small but hard puzzle from hiding all larger ones).  ``--by-size`` sorts the
suite by cells, so that the rule skips every larger puzzle that follows.  Each backend first solves a small
warm-up puzzle (not counted: JIT compilation and library imports happen there); then
every (puzzle, backend, repetition) is solved in this process and gives one row, timed
by the backend's own ``stats.wall_time``.  The ``large`` suite runs each (size, backend)
in a fresh process instead (``--child``), which also reports its peak RSS.

Writes ``OUT/SUITE.csv`` (written as it goes), ``OUT/SUITE.md`` (fit for RESULTS.md)
and ``OUT/SUITE.png`` (if matplotlib is installed).  Ctrl-C stops the run and still
writes the reports of what was measured.  Exit code 1 if two backends gave
different proven verdicts on a puzzle.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import shlex
import subprocess
import sys
from datetime import date
from fnmatch import fnmatch
from pathlib import Path
from statistics import median

from benchmarks import report
from benchmarks.corpus_batch import OUT, REPO
from benchmarks.suites import SUITES, Options, Suite, large_name, large_puzzle, large_sizes, warmup_puzzle
from nonolab.harness.uniqueness import verdict_of
from nonolab.solvers import get_spec
from nonolab.solvers.base import Limits

FIELDS = ["suite", "puzzle", "size", "backend", "repeat", "status", "verdict", "count", "complete",
          "time", "line_solves", "cache_hit_rate", "probes", "nodes", "conflicts", "winner", "error"]
MEMORY_FIELDS = ["peak_rss_mb", "rss_before_mb"]
# Engine counters copied into the CSV when the backend reports them: ``conflicts`` from
# the learning engines (lcg, cpsat, cnf; auto reports its answering engine's), and
# ``winner``, the part of an auto race that answered.
COUNTERS = ("line_solves", "cache_hit_rate", "probes", "nodes", "conflicts", "winner")
ROW_PREFIX = "ROW "  # a child's result lines on stdout


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=sorted(SUITES))
    parser.add_argument("--backends", "--strategies", dest="backends", default="native,cpsat,cnf",
                        help="comma-separated backend specs (e.g. native:line=overlap)")
    parser.add_argument("--repeat", type=int, default=1, help="solves per (puzzle, backend)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--max-solutions", type=int, default=None,
                        help="stop after N solutions (0: count all); default: the suite's")
    parser.add_argument("--limit", type=int, default=None, help="only the first K puzzles")
    parser.add_argument("--seed", type=int, default=None, help="seed of a generated suite")
    parser.add_argument("--sizes", default=None, help="large: comma-separated sides; ndom: comma-separated N")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default {OUT})")
    parser.add_argument("--memory-limit", type=int, default=4096,
                        help="large: address-space cap (RLIMIT_AS) of each child in MB, 0 for none")
    parser.add_argument("--only", default=None, metavar="GLOB[,GLOB...]",
                        help="only the puzzles whose name matches one of these shell patterns")
    parser.add_argument("--by-size", action="store_true", help="solve the puzzles smallest (in cells) first")
    parser.add_argument("--skip-larger", type=int, default=0, metavar="K",
                        help="skip a backend on a puzzle once it did not finish K smaller ones in time (0: never)")
    parser.add_argument("--chart", default=None, choices=("scaling", "strategies", "distribution", "slowest"),
                        help="the chart to draw (default: the suite's)")
    parser.add_argument("--name", default=None, help="output file stem (default: the suite's name)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only-size", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.time_limit <= 0 or (args.limit is not None and args.limit < 0):
        parser.error("--repeat must be >= 1, --time-limit > 0 and --limit >= 0")
    try:
        args.sizes = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else None
    except ValueError:
        parser.error(f"--sizes: not a comma-separated list of integers: {args.sizes!r}")
    args.backends = split_specs(args.backends)
    if not args.backends:
        parser.error("--backends: no backend named")
    return args


def split_specs(text: str) -> list[str]:
    """Comma-separated backend specs, where a spec's own options are comma-separated too:
    a piece ``KEY=VALUE`` (no backend name before it) belongs to the spec before it.

    >>> split_specs("auto,auto:cdcl=cpsat,rival=native,lcg")
    ['auto', 'auto:cdcl=cpsat,rival=native', 'lcg']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and ":" in specs[-1] and "=" in piece and ":" not in piece.split("=", 1)[0]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def limits_of(args: argparse.Namespace, suite: Suite) -> Limits:
    n = suite.max_solutions if args.max_solutions is None else args.max_solutions
    return Limits(max_solutions=n or None, time_limit=args.time_limit)


def options_of(args: argparse.Namespace) -> Options:
    return Options(seed=args.seed) if args.sizes is None else Options(seed=args.seed, sizes=args.sizes)


def build_solvers(backends: list[str]) -> dict:
    """Every backend spec, built and warmed up on a small puzzle: ``{spec: (solver, warm-up s)}``."""
    out = {}
    for name in backends:
        solver = get_spec(name)
        result = solver.solve(warmup_puzzle(), Limits(max_solutions=2, time_limit=60))
        out[name] = (solver, result.stats.wall_time)
    return out


def solve_row(suite: str, name: str, puzzle, backend: str, solver, repeat: int, limits: Limits) -> dict:
    """One solve as a CSV row; an exception becomes ``status=error`` with its message."""
    row = dict.fromkeys(FIELDS, "")
    row.update(suite=suite, puzzle=name, backend=backend, repeat=repeat)
    if isinstance(puzzle, Exception):
        row.update(size="?", status="error", verdict="error", error=_message(puzzle))
        return row
    row["size"] = f"{puzzle.width}x{puzzle.height}"
    try:
        result = solver.solve(puzzle, limits)
    except Exception as exc:  # a failing backend must not stop the benchmark
        row.update(status="error", verdict="error", error=_message(exc))
        return row
    row.update(status=result.status.value, verdict=verdict_of(result).value, count=result.count,
               complete=result.complete, time=round(result.stats.wall_time, 6))
    for key in COUNTERS:
        row[key] = result.stats.counters.get(key, "")
    return row


def _message(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "(no message)"
    return f"{type(exc).__name__}: {text}"[:300]


def _progress(n: int, total: int, name: str, rows: list[dict], extra: str = "") -> None:
    parts = []
    for backend in dict.fromkeys(r["backend"] for r in rows):
        mine = [r for r in rows if r["backend"] == backend]
        times = [r["time"] for r in mine if r["time"] != ""]
        t = f" {median(times):.3f}s" if times else ""
        parts.append(f"{backend} {report.outcome(mine[0])}{t}")
    size = rows[0]["size"] if rows else "?"
    print(f"[{n}/{total}] {name} {size}  " + " | ".join(parts) + extra, flush=True)


def skipped_row(suite: str, name: str, puzzle, backend: str, repeat: int, smaller: list[tuple[int, str]]) -> dict:
    """The row of a solve not run: ``backend`` did not finish the ``smaller`` puzzles in time."""
    row = dict.fromkeys(FIELDS, "")
    row.update(suite=suite, puzzle=name, size=f"{puzzle.width}x{puzzle.height}", backend=backend, repeat=repeat,
               status="skipped", verdict="skipped",
               error="skipped: did not finish " + ", ".join(f"{p} ({c} cells)" for c, p in smaller)
               + " within the limit")
    return row


def _items(suite: Suite, args) -> list:
    items = suite.items(options_of(args))
    if args.only:
        patterns = [p for p in args.only.split(",") if p]
        items = [item for item in items if any(fnmatch(item[0], p) for p in patterns)]
    if not args.by_size:
        return items
    # Unreadable files (exceptions) first; then by cells, stable.
    return sorted(items, key=lambda item: 0 if isinstance(item[1], Exception) else item[1].width * item[1].height)


def run_in_process(suite: Suite, args, solvers: dict, emit) -> None:
    limits = limits_of(args, suite)
    options = options_of(args)
    items = _items(suite, args)
    planned = len(items) if args.only else suite.planned(options)
    total = planned if args.limit is None else min(args.limit, planned)
    failed: dict[str, list[tuple[int, str]]] = {b: [] for b in solvers}  # (cells, puzzle) not finished
    for n, (name, puzzle) in enumerate(items, 1):
        if args.limit is not None and n > args.limit:
            break
        rows = []
        for b, (solver, _) in solvers.items():
            cells = None if isinstance(puzzle, Exception) else puzzle.width * puzzle.height
            for k in range(1, args.repeat + 1):
                smaller = sorted(f for f in failed[b] if cells is not None and f[0] < cells)
                if args.skip_larger and len(smaller) >= args.skip_larger:
                    rows.append(skipped_row(suite.name, name, puzzle, b, k, smaller[:args.skip_larger]))
                    continue
                row = solve_row(suite.name, name, puzzle, b, solver, k, limits)
                rows.append(row)
                if cells is not None and report.outcome(row) == "timeout" and k == 1:
                    failed[b].append((cells, name))
        emit(rows)
        _progress(n, total, name, rows)


def run_isolated(suite: Suite, args, emit) -> None:
    """One fresh ``--child`` process per (size, backend); the child reports rows and peak RSS."""
    sizes = list(large_sizes(options_of(args)))[:args.limit]
    for n, size in enumerate(sizes, 1):
        rows = []
        for backend in args.backends:
            cmd = [sys.executable, "-m", "benchmarks.run", suite.name, "--child", "--only-size", str(size),
                   "--backends", backend, "--repeat", str(args.repeat), "--time-limit", str(args.time_limit),
                   "--memory-limit", str(args.memory_limit)]
            for flag, value in (("--max-solutions", args.max_solutions), ("--seed", args.seed)):
                if value is not None:
                    cmd += [flag, str(value)]
            got = _run_child(cmd, timeout=120 + args.time_limit * 3 * args.repeat)
            if isinstance(got, str):
                got = [_error_row(suite.name, large_name(size), f"{size}x{size}", backend, got)]
            rows += got
        emit(rows)
        peaks = ", ".join(f"{r['backend']} {r['peak_rss_mb'] or '-'} MB" for r in rows if r["repeat"] == 1)
        _progress(n, len(sizes), large_name(size), rows, f"  (peak RSS: {peaks})")


def _run_child(cmd: list[str], timeout: float) -> list[dict] | str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        return f"child process killed after {timeout:g} s"
    rows = [json.loads(line[len(ROW_PREFIX):]) for line in proc.stdout.splitlines()
            if line.startswith(ROW_PREFIX)]
    if proc.returncode != 0 or not rows:
        tail = " ".join(proc.stderr.strip().splitlines()[-3:])
        return f"child process exited with code {proc.returncode}: {tail}"[:300]
    return rows


def _error_row(suite: str, name: str, size: str, backend: str, message: str) -> dict:
    row = dict.fromkeys(FIELDS + MEMORY_FIELDS, "")
    row.update(suite=suite, puzzle=name, size=size, backend=backend, repeat=1, status="error",
               verdict="error", error=message)
    return row


def _rss_mb() -> float:
    import resource  # Unix only, as the large suite

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)  # bytes or KiB


def child_main(args: argparse.Namespace) -> int:
    """Worker of :func:`run_isolated`: generate, warm up, solve, print rows with the peak RSS."""
    import resource

    suite = SUITES[args.suite]
    if args.memory_limit:  # over the cap: MemoryError (an error row) or a crash, not swapping
        cap = args.memory_limit * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    solvers = build_solvers(args.backends)
    puzzle = large_puzzle(args.only_size, suite.seed(options_of(args)))
    before = _rss_mb()
    rows = [solve_row(suite.name, puzzle.name, puzzle, b, solver, k, limits_of(args, suite))
            for b, (solver, _) in solvers.items() for k in range(1, args.repeat + 1)]
    peak = _rss_mb()
    for row in rows:
        row.update(peak_rss_mb=peak, rss_before_mb=before)
        print(ROW_PREFIX + json.dumps(row), flush=True)
    return 0


def header(suite: Suite, args, argv: list[str], warmups: dict, shown: int, interrupted: bool) -> list[str]:
    limits = limits_of(args, suite)
    planned = suite.planned(options_of(args))
    seed = suite.seed(options_of(args))
    warm = ", ".join(f"{b} {t:.2f} s" for b, t in warmups.items())
    lines = [
        f"### `{suite.name}`: {suite.description}",
        "",
        f"Command: `python -m benchmarks.run {shlex.join(argv)}`",
        f"Machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
        f"{date.today().isoformat()}",
        f"Settings: max_solutions {limits.max_solutions or 'all'}, time limit {limits.time_limit:g} s per "
        f"solve, {args.repeat} repeat(s)" + ("" if seed is None else f", seed {seed}")
        + f"; {shown} of {planned} puzzles" + (" (**interrupted**)" if interrupted else ""),
    ]
    if suite.isolated:
        lines.append("Timing: each (size, backend) ran in a fresh process that generated the puzzle, "
                     "made one warm-up solve of an 8x8 puzzle (JIT compilation and library imports are "
                     "not counted), then the timed solves (the backend's own wall time). Peak MB is that "
                     "process's ru_maxrss: generation, clues, warm-up and solves included. Each child's "
                     f"address space was capped at {args.memory_limit} MB (RLIMIT_AS; 0: no cap).")
    else:
        lines.append(f"Timing: in-process solves, the backend's own wall time, after one warm-up solve of "
                     f"an 8x8 puzzle per backend ({warm}; not counted), so JIT compilation and library "
                     f"imports are not counted.")
    return lines


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    if args.child:
        return child_main(args)
    suite = SUITES[args.suite]
    warmups: dict = {}
    solvers: dict = {}
    try:  # an unknown or missing backend is a usage error, found before any solve
        if suite.isolated:
            for backend in args.backends:
                get_spec(backend)
        else:
            solvers = build_solvers(args.backends)
    except Exception as exc:
        print(f"error: cannot set up the backends: {_message(exc)}", file=sys.stderr)
        return 2
    if not suite.isolated:
        warmups = {b: t for b, (_, t) in solvers.items()}
        print("warm-up solves (not counted): " + ", ".join(f"{b} {t:.2f} s" for b, t in warmups.items()),
              flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    fields = FIELDS + (MEMORY_FIELDS if suite.isolated else [])
    rows: list[dict] = []
    interrupted = False
    stem = args.name or suite.name
    with (args.out / f"{stem}.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()

        def emit(new_rows: list[dict]) -> None:
            writer.writerows(new_rows)
            fh.flush()
            rows.extend(new_rows)

        try:
            if suite.isolated:
                run_isolated(suite, args, emit)
            else:
                run_in_process(suite, args, solvers, emit)
        except KeyboardInterrupt:
            interrupted = True
            print("interrupted: writing the reports of what was measured", file=sys.stderr, flush=True)
    if not rows:
        print("no rows: nothing to report", file=sys.stderr)
        return 130 if interrupted else 0
    shown = len({r["puzzle"] for r in rows})
    chart = args.chart or suite.chart
    distribution = chart == "distribution"
    text = report.markdown(rows, args.backends, header(suite, args, argv, warmups, shown, interrupted),
                           show=15 if distribution else 30, histogram=distribution)
    (args.out / f"{stem}.md").write_text(text, encoding="utf-8")
    print(text)
    print(report.write_chart(chart, rows, args.backends, args.out / f"{stem}.png",
                             f"{suite.name}: {suite.description}", args.time_limit), flush=True)
    if interrupted:
        return 130
    return 1 if report.disagreements(report.per_puzzle(rows)) else 0


if __name__ == "__main__":
    sys.exit(main())
