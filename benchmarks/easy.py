"""An easy puzzle's cost inside one process: nonolab against nonosolve, per puzzle (issue 25, item 4).

    python -m benchmarks.easy [--set taai2011] [--count 300] [--specs auto,lcg] [--rounds 3] [--out CSV]

The first ``--count`` puzzles of a TAAI set (a name in ``../shared/tournament`` or a path),
first solution, one core:

- **nonosolve**: ``nonosolve --taai FIRST_N -o OUT --log LOG``, one process for the N
  puzzles; its log gives each puzzle's own time (its clock around the puzzle's solve, so
  its start-up and file reading are outside, as nonolab's are below).  That clock is a
  wall clock, which load stretches; so beside it each puzzle's time is also scaled by
  the process's CPU time over the sum of the log's times (the same stretch for every
  puzzle; at load 1 the two agree within a few per cent), and the ratios are taken
  against that CPU estimate.  Its answers are checked against the clues here.
- **nonolab**: each spec in this process, each puzzle as the command line solves a set:
  a solver built from the spec, then ``solve(puzzle, Limits(max_solutions=1))``; the CPU
  time of the process around both (building, solving, the solver's own check of the
  solution against the clues, its result record), its reaped children's added (auto
  starts a Kissat worker only after a second of search, never on an easy puzzle).
  Python's start-up and the puzzles' loading are outside.

Each round runs nonosolve and every spec once, the order rotating round by round; a
puzzle's figure is its least over the rounds (the machine is shared: the least is the
one the others' load disturbed least), for both solvers alike.  Printed: per solver the
median, the 90th percentile and the sum of those per-puzzle figures, lcg's conflicts in
total (its search is deterministic: the noise-free measure of a search change), and the
ratio of each spec's median to nonosolve's.  ``--out`` writes one row per puzzle.
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
    """Each puzzle solved by a solver built from ``spec`` in this process: {id: CPU seconds},
    lcg's conflicts in total, and the puzzles left without a solution."""
    from nonolab.solvers import build
    from nonolab.solvers.base import Given, Limits

    def cpu() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    times, conflicts, unsolved = {}, 0, 0
    for key, puzzle in puzzles.items():
        start = cpu()
        result = build(spec).solve(puzzle, Limits(max_solutions=1), Given.of(()))
        times[key] = cpu() - start
        conflicts += result.stats.counters.get("conflicts", 0)
        unsolved += result.solution is None
    return {"times": times, "conflicts": conflicts, "unsolved": unsolved}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(path: Path, count: int, specs: list[str], rounds: int) -> dict:
    """Per solver, each puzzle's least time over ``rounds`` rounds, and the totals."""
    from nonolab.formats import load_all

    text = first_puzzles_text(path, count)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(text)
    try:
        puzzles = {p.name.lstrip("$"): p for p in load_all(fh.name)}
    finally:
        os.unlink(fh.name)
    solvers = ["nonosolve", *specs]
    best: dict[str, dict[str, float]] = {s: {} for s in solvers}
    facts: dict[str, dict] = {s: {} for s in solvers}
    for r in range(rounds):
        shift = r % len(solvers)
        for solver in solvers[shift:] + solvers[:shift]:
            got = nonosolve_times(text, puzzles) if solver == "nonosolve" else nonolab_times(solver, puzzles)
            times = got.pop("times")
            if solver == "nonosolve":   # its wall clock's times, and their CPU estimate
                stretch = got["cpu"] / max(sum(times.values()), 1e-9)
                for key, seconds in times.items():
                    wall = best.setdefault("nonosolve-wall", {})
                    wall[key] = min(seconds, wall.get(key, seconds))
                times = {key: seconds * stretch for key, seconds in times.items()}
            for key, seconds in times.items():
                best[solver][key] = min(seconds, best[solver].get(key, seconds))
            facts[solver] = got
    loads = os.getloadavg()
    summary = {"set": str(path), "puzzles": len(puzzles), "rounds": rounds, "load": round(loads[0], 2), "solvers": {}}
    for solver in ["nonosolve-wall", *solvers]:
        values = list(best[solver].values())
        row = {"median_ms": round(1000 * _quantile(values, 0.5), 3), "p90_ms": round(1000 * _quantile(values, 0.9), 3),
               "total_s": round(sum(values), 3), **facts.get(solver, {})}
        summary["solvers"][solver] = row
    base = summary["solvers"]["nonosolve"]["median_ms"]
    for spec in specs:
        summary["solvers"][spec]["median_ratio"] = round(summary["solvers"][spec]["median_ms"] / base, 3)
    summary["per_puzzle"] = best
    return summary


def report(summary: dict) -> str:
    """The summary as a markdown table."""
    lines = ["| solver | median ms | p90 ms | sum s | median / nonosolve's | notes |", "|---|---:|---:|---:|---:|---|"]
    for solver, row in summary["solvers"].items():
        if solver == "nonosolve-wall":
            notes, ratio = "its log's times (wall clock)", ""
        elif solver == "nonosolve":
            notes = f"its log's times scaled to its process CPU ({row['cpu']:.3f} s), wrong {row['wrong']}"
            ratio = "1"
        else:
            notes = f"lcg conflicts {row['conflicts']}, unsolved {row['unsolved']}"
            ratio = f"**{row['median_ratio']}**"
        lines.append(f"| {solver} | {row['median_ms']} | {row['p90_ms']} | {row['total_s']} | {ratio} | {notes} |")
    lines.append(f"\n{summary['puzzles']} puzzles of {summary['set']}, least of {summary['rounds']} rounds per "
                 f"puzzle, load {summary['load']}")
    return "\n".join(lines)


def _write(path: Path, summary: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    solvers = list(summary["per_puzzle"])
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["puzzle", *solvers])
        for key in summary["per_puzzle"]["nonosolve"]:
            writer.writerow([key, *(round(summary["per_puzzle"][s].get(key, float("nan")), 6) for s in solvers)])


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
