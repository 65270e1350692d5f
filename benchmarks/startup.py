"""Start-up and large grids, whole process: what a user waits for, against pbnsolve.

    python -m benchmarks.startup [--runs 5] [--large 1000,2000,4000] [--gargantua] [--cauldron PATH]
        [--large-runs 3] [--pbnsolve PATH] [--out benchmarks/results/startup]

Each case is one command run ``--runs`` times in a fresh process; the table gives the
median and the spread of the wall times, and the median CPU time (user + system of the
process: what a shared machine disturbs least):

* ``python -c pass``, ``nonolab --help`` and ``nonolab check`` on the 20x20 cat
  (``puzzles/webpbn``), in turn, round after round (the floor any Python tool pays, and
  what nonolab adds to it: the ratio of the check's times to the floor's is printed);
* ``import numpy``, for scale.
* ``--gargantua``, ``--cauldron``, ``--large``: ``nonolab check -b native`` on Gargantua
  (200x200, the corpus), Cauldron (512x512, ``inputs/cauldron.non`` of
  pierre-dejoue/picross-solver, not in the corpus: over its 100 KB limit for originals)
  and on the ``large`` suite's smooth squares (written to ``.non`` files in a
  temporary folder), each against ``pbnsolve -u`` on the same file when ``--pbnsolve``
  names its binary; plus the in-process solve time (``NativeSolver().solve``, best of
  the runs).

The contenders of a case (nonolab, pbnsolve) run in turn, round after round, the order
rotating each round, so a busy moment of a shared machine falls on all of them alike.
Two versions of nonolab side by side: ``nonolab bench ... --base PATH`` (the
``startup`` suite of ``python -m benchmarks.run`` times the 20x20 check in processes).

Writes ``OUT.csv`` and ``OUT.json`` (one row per case and run count) and prints a
markdown table.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAT = ROOT / "puzzles" / "webpbn" / "webpbn-00006-cat.non"
GARGANTUA = ROOT.parent / "shared" / "corpus" / "nonograms-org" / "nonograms-org-51237-gargantua.non"
NONOLAB = [sys.executable, "-m", "nonolab"]
# A warm install has its modules' bytecode compiled (pip does it at install time): the
# child processes may write .pyc files even where the caller's environment forbids it,
# and each case runs once untimed first.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wall(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str, float]:
    """Seconds one run of ``command`` takes, its first line of output, and its CPU seconds."""
    cpu = _cpu_of_children()
    started = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    elapsed = time.perf_counter() - started
    if out.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} failed ({out.returncode}): {out.stderr.strip()[-300:]}")
    return elapsed, (out.stdout.strip().splitlines() or [""])[0], _cpu_of_children() - cpu


def measure(name: str, command: list[str], runs: int, env: dict[str, str] | None = None,
            warm: bool = True) -> dict:
    """The median, fastest and slowest of ``runs`` whole-process runs of ``command``
    (after one untimed run when ``warm``)."""
    env = env or ENV
    if warm:
        _wall(command, env)
    times, cpus, answer = [], [], ""
    for _ in range(runs):
        elapsed, answer, cpu = _wall(command, env)
        times.append(elapsed)
        cpus.append(cpu)
    return {"case": name, "command": " ".join(Path(c).name if c == sys.executable else c for c in command),
            "runs": runs, "median_s": round(statistics.median(times), 4), "min_s": round(min(times), 4),
            "max_s": round(max(times), 4), "cpu_median_s": round(statistics.median(cpus), 4), "answer": answer}


def measure_together(cases: list[tuple[str, list[str], dict[str, str] | None]], runs: int) -> list[dict]:
    """:func:`measure` for several ``(name, command, env)`` cases at once: one untimed run
    each, then ``runs`` rounds that run every case once, in an order rotated each round."""
    times: list[list[float]] = [[] for _ in cases]
    cpus: list[list[float]] = [[] for _ in cases]
    answers = [""] * len(cases)
    for _, command, env in cases:
        _wall(command, env or ENV)
    for round_ in range(runs):
        for k in range(len(cases)):
            i = (k + round_) % len(cases)
            elapsed, answers[i], cpu = _wall(cases[i][1], cases[i][2] or ENV)
            times[i].append(elapsed)
            cpus[i].append(cpu)
    return [{"case": name, "command": " ".join(Path(c).name if c == sys.executable else c for c in command),
             "runs": runs, "median_s": round(statistics.median(t), 4), "min_s": round(min(t), 4),
             "max_s": round(max(t), 4), "cpu_median_s": round(statistics.median(c), 4), "answer": answer}
            for (name, command, _), t, c, answer in zip(cases, times, cpus, answers)]


def _in_process(path: Path, runs: int) -> float:
    """The best in-process ``NativeSolver().solve`` time on the puzzle at ``path`` (count to 2)."""
    from nonolab.formats import load
    from nonolab.solvers.base import Limits
    from nonolab.solvers.native import NativeSolver

    puzzle = load(path)
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        NativeSolver().solve(puzzle, Limits(max_solutions=2))
        best = min(best, time.perf_counter() - started)
    return round(best, 4)


def _large_files(sizes: list[int], folder: Path) -> list[tuple[str, Path]]:
    from nonolab.bench.suites import DEFAULT_SEEDS, large_puzzle
    from nonolab.formats import dump

    out = []
    for size in sizes:
        name = f"smooth-{size}x{size}"
        dump(large_puzzle(size, DEFAULT_SEEDS["large"]), folder / f"{name}.non")
        out.append((name, folder / f"{name}.non"))
    return out


def _one(name: str, command: list[str]) -> list[tuple[str, list[str], dict[str, str] | None]]:
    """A case with one contender (``measure_together`` takes several)."""
    return [(name, command, None)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--large-runs", type=int, default=3, help="runs of each Gargantua and large case")
    parser.add_argument("--large", default="", help="comma-separated sides of the large suite (e.g. 1000,2000,4000)")
    parser.add_argument("--gargantua", action="store_true", help="Gargantua 200x200 from ../shared/corpus")
    parser.add_argument("--cauldron", type=Path, help="Cauldron 512x512's .non file")
    parser.add_argument("--pbnsolve", type=Path, help="pbnsolve's binary, to time it on the same files")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "startup")
    args = parser.parse_args(argv)

    rows = [*measure_together([*_one("python -c pass", [sys.executable, "-c", "pass"]),
                               *_one("nonolab --help", NONOLAB + ["--help"]),
                               *_one("nonolab check (20x20)", NONOLAB + ["check", str(CAT)])], args.runs),
            measure("python -c 'import numpy'", [sys.executable, "-c", "import numpy"], args.runs)]
    with tempfile.TemporaryDirectory() as folder:
        targets = (([("gargantua-200x200", GARGANTUA)] if args.gargantua else [])
                   + ([("cauldron-512x512", args.cauldron)] if args.cauldron else [])
                   + _large_files([int(s) for s in args.large.split(",") if s.strip()], Path(folder)))
        for name, path in targets:
            cases = _one(f"{name}: nonolab check -b native", NONOLAB + ["check", "-b", "native", str(path)])
            if args.pbnsolve:
                cases.append((f"{name}: pbnsolve -u", [str(args.pbnsolve), "-u", str(path)], None))
            together = measure_together(cases, args.large_runs)
            together[0]["in_process_s"] = _in_process(path, args.large_runs)
            rows += together

    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fields = ["case", "runs", "median_s", "min_s", "max_s", "cpu_median_s", "in_process_s", "answer", "command"]
    with args.out.with_suffix(".csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    args.out.with_suffix(".json").write_text(json.dumps(
        {"machine": machine, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows},
        indent=1) + "\n", encoding="utf-8")
    print(f"Machine: {machine}; {time.strftime('%Y-%m-%d', time.gmtime())}\n")
    print("| case | runs | median s | min s | max s | CPU median s | in-process solve s | answer |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['case']} | {r['runs']} | {r['median_s']:.3f} | {r['min_s']:.3f} | {r['max_s']:.3f} | "
              f"{r['cpu_median_s']:.3f} | {r.get('in_process_s', '')} | {r['answer']} |")
    floor, check = (next(r for r in rows if r["case"] == name) for name in ("python -c pass", "nonolab check (20x20)"))
    print(f"\nnonolab check (20x20) / python -c pass: {check['median_s'] / floor['median_s']:.2f} (wall, medians), "
          f"{check['cpu_median_s'] / max(floor['cpu_median_s'], 1e-9):.2f} (CPU, medians)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
