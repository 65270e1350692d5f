"""An easy puzzle's cost inside one process: nonolab against nonosolve, per puzzle (issue 25, item 4).

    python -m benchmarks.easy [--set taai2011] [--count 300] [--specs auto,lcg] [--rounds 3] [--out CSV]

The first ``--count`` puzzles of a TAAI set (a name in ``../shared/tournament`` or a path),
first solution, one core:

- **nonosolve**: ``nonosolve --taai FIRST_N -o OUT --log LOG``, one process for the N
  puzzles; its log gives each puzzle's own time (its clock around the puzzle's solve, so
  its start-up and file reading are outside, as nonolab's are below).  That clock is a
  wall clock, so nonolab's wall time per puzzle is taken too, and the ratio of the
  medians is wall to wall (the same load on both; at load 1 wall and CPU agree within a
  few per cent for both).  Its whole process's CPU time (start-up included, 2 ms) is the
  CPU figure for all N.  Its answers are checked against the clues here.
- **nonolab**: each spec in this process, each puzzle as the command line solves a set:
  a solver built from the spec, then ``solve(puzzle, Limits(max_solutions=1))``; the wall
  and the CPU time of the process around both (building, solving, the solver's own check
  of the solution against the clues, its result record), its reaped children's added to
  the CPU (auto starts a Kissat worker only after a second of search, never on an easy
  puzzle).  Python's start-up and the puzzles' loading are outside.

Each round runs nonosolve and every spec once, the order rotating round by round; a
puzzle's figure is its least over the rounds (the machine is shared: the least is the
one the others' load disturbed least), for both solvers alike, and the CPU figure for
all N the least round's.  Printed: per solver the median and the 90th percentile of
those per-puzzle figures, lcg's conflicts in total (its search is deterministic: the
noise-free measure of a search change), and each spec's ratios to nonosolve's.
``--out`` writes one row per puzzle.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.peers import NONOSOLVE, TOURNAMENT, _check, _spawn, _taai_rows


def first_puzzles_text(path: Path, count: int) -> str:
    """The first ``count`` puzzles of a TAAI file, as TAAI text (each starts at a ``$`` line)."""
    kept: list[str] = []
    seen = 0
    for line in path.read_text().splitlines(keepends=True):
        if line.startswith("$"):
            seen += 1
        if seen > count:
            break
        kept.append(line)
    return "".join(kept)


def nonosolve_times(text: str, puzzles: dict) -> dict:
    """nonosolve on the TAAI ``text`` in one process: {id: seconds} from its log, plus
    ``wrong`` (answers that break their clues) and ``cpu`` (the whole process's)."""
    with tempfile.TemporaryDirectory() as tmp:
        source, solution, log = Path(tmp) / "set.txt", Path(tmp) / "out.sol", Path(tmp) / "log.txt"
        source.write_text(text)
        _, err, code, cpu = _spawn([str(NONOSOLVE), "--taai", str(source), "-o", str(solution), "--log", str(log)])
        if code != 0:
            raise RuntimeError(f"nonosolve exited with {code}: {err.strip()[:200]}")
        times = {}
        for line in log.read_text().splitlines():
            if line.startswith("#"):
                key, seconds = line[1:].split("\t")[:2]
                times[key] = float(seconds)
        answers = _taai_rows(solution)
    wrong = sum(not _check(puzzles[k], answers.get(k, [])) for k in puzzles)
    return {"times": times, "wrong": wrong, "cpu": cpu}


def nonolab_times(spec: str, puzzles: dict) -> dict:
    """Each puzzle solved by a solver built from ``spec`` in this process: {id: CPU seconds}
    and {id: wall seconds}, the round's CPU, lcg's conflicts in total, the puzzles left
    without a solution."""
    from nonolab.solvers import build
    from nonolab.solvers.base import Given, Limits

    def cpu() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    times, walls, conflicts, unsolved = {}, {}, 0, 0
    for key, puzzle in puzzles.items():
        start, wall = cpu(), time.perf_counter()
        result = build(spec).solve(puzzle, Limits(max_solutions=1), Given.of(()))
        times[key], walls[key] = cpu() - start, time.perf_counter() - wall
        conflicts += result.stats.counters.get("conflicts", 0)
        unsolved += result.solution is None
    return {"times": times, "walls": walls, "cpu": sum(times.values()), "conflicts": conflicts, "unsolved": unsolved}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(path: Path, count: int, specs: list[str], rounds: int) -> dict:
    """Per solver, each puzzle's least wall time (and nonolab's least CPU time) over
    ``rounds`` rounds, the least CPU time of a round, and the ratios of the medians."""
    from nonolab.formats import load_all

    text = first_puzzles_text(path, count)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text)
    try:
        puzzles = {p.name.lstrip("$"): p for p in load_all(fh.name)}
    finally:
        os.unlink(fh.name)
    solvers = ["nonosolve", *specs]
    walls: dict[str, dict[str, float]] = {s: {} for s in solvers}
    cpus: dict[str, dict[str, float]] = {s: {} for s in specs}
    facts: dict[str, dict] = {s: {} for s in solvers}
    loads = []
    for r in range(rounds):
        shift = r % len(solvers)
        for solver in solvers[shift:] + solvers[:shift]:
            loads.append(os.getloadavg()[0])
            if solver == "nonosolve":   # its log's times are its wall clock's
                got = nonosolve_times(text, puzzles)
                wall, cpu = got.pop("times"), None
            else:
                got = nonolab_times(solver, puzzles)
                wall, cpu = got.pop("walls"), got.pop("times")
            for key, seconds in wall.items():
                walls[solver][key] = min(seconds, walls[solver].get(key, seconds))
            for key, seconds in (cpu or {}).items():
                cpus[solver][key] = min(seconds, cpus[solver].get(key, seconds))
            got["cpu"] = min(got["cpu"], facts[solver].get("cpu", got["cpu"]))
            facts[solver] = got
    summary = {"set": str(path), "puzzles": len(puzzles), "rounds": rounds,
               "load": [round(min(loads), 2), round(max(loads), 2)], "solvers": {}}
    for solver in solvers:
        row = {"median_wall_ms": round(1000 * _quantile(list(walls[solver].values()), 0.5), 3),
               "p90_wall_ms": round(1000 * _quantile(list(walls[solver].values()), 0.9), 3), **facts[solver]}
        if solver in cpus:
            row.update(median_cpu_ms=round(1000 * _quantile(list(cpus[solver].values()), 0.5), 3),
                       p90_cpu_ms=round(1000 * _quantile(list(cpus[solver].values()), 0.9), 3))
        row["cpu"] = round(row["cpu"], 4)
        summary["solvers"][solver] = row
    base = summary["solvers"]["nonosolve"]
    for spec in specs:
        row = summary["solvers"][spec]
        row["median_ratio"] = round(row["median_wall_ms"] / max(base["median_wall_ms"], 1e-6), 3)
        row["cpu_ratio"] = round(row["cpu"] / max(base["cpu"], 1e-9), 3)
    summary["per_puzzle"] = {f"{s} wall": walls[s] for s in solvers} | {f"{s} cpu": cpus[s] for s in specs}
    return summary


def report(summary: dict) -> str:
    """The summary as a markdown table."""
    lines = ["| solver | median ms (wall) | p90 ms (wall) | median ms (CPU) | p90 ms (CPU) | CPU s, all N "
             "| median / nonosolve's (wall) | CPU / nonosolve's | notes |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for solver, row in summary["solvers"].items():
        if solver == "nonosolve":
            cells = [row["median_wall_ms"], row["p90_wall_ms"], "", "", row["cpu"], "1", "1",
                     f"its log's times; CPU: the process's (start-up included), wrong {row['wrong']}"]
        else:
            cells = [row["median_wall_ms"], row["p90_wall_ms"], row["median_cpu_ms"], row["p90_cpu_ms"], row["cpu"],
                     f"**{row['median_ratio']}**", row["cpu_ratio"],
                     f"lcg conflicts {row['conflicts']}, unsolved {row['unsolved']}"]
        lines.append("| " + " | ".join(str(c) for c in [solver, *cells]) + " |")
    low, high = summary["load"]
    lines.append(f"\n{summary['puzzles']} puzzles of {summary['set']}, each puzzle's least time over "
                 f"{summary['rounds']} rounds; CPU s: the least round's; load {low}-{high}")
    return "\n".join(lines)


def _write(path: Path, summary: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = list(summary["per_puzzle"])
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["puzzle", *columns])
        for key in summary["per_puzzle"]["nonosolve wall"]:
            writer.writerow([key, *(round(summary["per_puzzle"][c].get(key, float("nan")), 6) for c in columns)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.easy", description=__doc__.split("\n")[0])
    parser.add_argument("--set", default="taai2011", help="a set of ../shared/tournament, or a TAAI file's path")
    parser.add_argument("--count", type=int, default=300, help="the first COUNT puzzles (default 300)")
    parser.add_argument("--specs", default="auto", help="nonolab specs, comma-separated (default auto)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each puzzle's least time counts (default 3)")
    parser.add_argument("--out", type=Path, default=None, help="CSV of each puzzle's figures")
    args = parser.parse_args(argv)
    path = Path(args.set) if args.set.endswith(".txt") else TOURNAMENT / f"{args.set}.txt"
    if not path.exists():
        print(f"no such set: {path}", file=sys.stderr)
        return 2
    if not NONOSOLVE.exists():
        print(f"nonosolve not found at {NONOSOLVE} (set NONOSOLVE)", file=sys.stderr)
        return 2
    if args.count < 1 or args.rounds < 1:
        print("--count and --rounds must be at least 1", file=sys.stderr)
        return 2
    summary = measure(path, args.count, [s for s in args.specs.split(",") if s], args.rounds)
    if args.out:
        _write(args.out, summary)
    print(report(summary))
    print(json.dumps({k: v for k, v in summary.items() if k != "per_puzzle"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
