"""`check --report` (``nonolab.harness.report.report``) over every puzzle of ../shared/corpus.

One process, after warm-up; a time limit per puzzle.  Prints a table and writes
``report_corpus.csv`` and ``report_corpus.json`` (into ``--out``, default
``benchmarks/results``) and ``report_corpus.md`` (the summary for RESULTS.md):

* how many reports came back within the limit, and how many are complete;
* the numeric difficulty against pbnsolve's classes in index.csv: line-solvable
  should score below 1, "needs search" 1 or more; and the rank correlation of the
  difficulty with pbnsolve's CPU time over the unique puzzles;
* the repairs of the puzzles with several solutions: flips, minimal or greedy, and
  each repaired puzzle proven unique again by a second backend (an exact CNF count);
  a repair the report's share of the limit could not finish is run alone with
  ``--repair-limit`` seconds.

    python -m benchmarks.report_corpus [--time-limit 60] [--repair-limit 180] [--only FOLDER,...] [--backend auto]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

from benchmarks.check_corpus import command_line
from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.harness.repair import repair
from nonolab.harness.report import report
from nonolab.solvers import get
from nonolab.solvers.base import Limits

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
SLACK = 1.0   # seconds past the limit still counted "within": the last question's own overrun


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (ties share their mean rank)."""
    if len(xs) < 3:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return round(cov / (sx * sy), 3) if sx and sy else None


def _recheck(puzzle: Puzzle, limit: float) -> str:
    result = get("cnf").solve(puzzle, Limits(2, limit))
    return "unique" if result.unique else "NOT unique" if result.count >= 2 else "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=40.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results"))
    parser.add_argument("--repair-limit", type=float, default=180.0,
                        help="for a puzzle with several solutions whose report could not finish its repair: "
                             "seconds for the repair alone (0: none)")
    args = parser.parse_args(argv)
    args.command = command_line("report_corpus", argv)
    index = list(csv.DictReader((CORPUS / "index.csv").open(encoding="utf-8")))
    if args.only:
        index = [row for row in index if row["source"] in set(args.only.split(","))]
    report(Puzzle(rows=((1,),), columns=((1,),)), args.backend)  # warm-up: load the compiled engine
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, records = [], []
    for entry in index:
        puzzle = load(CORPUS / entry["file"])
        start = time.perf_counter()
        rep = report(puzzle, args.backend, args.time_limit)
        wall = time.perf_counter() - start
        repaired, alone = rep.repair, ""
        if (repaired is not None and repaired.status not in ("repaired", "unique") and args.repair_limit
                and rep.verdict == "multiple"):
            # The report's share of the limit was not enough: the repair alone, with more time.
            start_alone = time.perf_counter()
            repaired = repair(puzzle, None, "native", 3, args.repair_limit)
            alone = round(time.perf_counter() - start_alone, 3)
        best = repaired.best if repaired is not None else None
        row = {
            "puzzle": entry["file"], "size": f"{entry['width']}x{entry['height']}",
            "pbnsolve_class": entry["pbnsolve_class"], "pbnsolve_s": entry["pbnsolve_u_cpu_s"],
            "verdict": rep.verdict, "grade": rep.grade.grade.value if rep.grade and rep.grade.grade else "",
            "difficulty": rep.difficulty if rep.difficulty is not None else "",
            "warnings": " ".join(w.code for w in rep.warnings), "complete": rep.complete,
            "within_limit": wall <= args.time_limit + SLACK, "time": round(wall, 3),
            "repair": repaired.status if repaired else "", "flips": len(best.flips) if best else "",
            "minimal": repaired.minimal if repaired else "", "method": repaired.method if repaired else "",
            "lower_bound": repaired.lower_bound if repaired else "",
            "repaired_unique": best.unique if best else "",
            "recheck_cnf": _recheck(best.puzzle, args.time_limit) if best else "",
            "repair_flips": best.describe() if best else "",
            "repair_alone_s": alone,
        }
        rows.append(row)
        records.append({"file": entry["file"], **rep.as_dict()})
        print(f"{entry['file']}: {rep.verdict} {row['grade']} {row['difficulty']} {row['repair']} "
              f"{row['flips']} {wall:.2f}s", file=sys.stderr, flush=True)
    with (out / "report_corpus.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (out / "report_corpus.json").write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    summary = _summary(rows, args)
    (out / "report_corpus.md").write_text("\n".join(summary) + "\n", encoding="utf-8")
    print("\n".join(summary))
    return 0


def _summary(rows: list[dict], args) -> list[str]:
    within = sum(r["within_limit"] for r in rows)
    complete = sum(r["complete"] for r in rows)
    scored = [r for r in rows if r["difficulty"] != "" and r["pbnsolve_class"].startswith("unique")]
    line = [r for r in scored if r["pbnsolve_class"] == "unique, line-solvable"]
    search = [r for r in scored if r["pbnsolve_class"] == "unique, needs search"]
    line_ok = sum(r["difficulty"] < 1 for r in line)
    search_ok = sum(r["difficulty"] >= 1 for r in search)
    rho = spearman([r["difficulty"] for r in scored], [float(r["pbnsolve_s"]) for r in scored])
    multiple = [r for r in rows if r["pbnsolve_class"] == "multiple solutions" or r["verdict"] == "multiple"]
    proven = [r for r in multiple if r["repaired_unique"] is True and r["recheck_cnf"] == "unique"]

    def mean(xs):
        return f"{sum(xs) / len(xs):.2f}" if xs else "-"

    out = [
        f"Command: `{args.command}`",
        f"Machine: {os.cpu_count()} cores (shared), CPython {platform.python_version()}, {date.today()}",
        "",
        f"- puzzles: {len(rows)}; report within the {args.time_limit:g} s limit (+{SLACK:g} s): {within}; "
        f"complete (no part cut short): {complete}",
        f"- difficulty against pbnsolve's classes (unique puzzles with a grade): line-solvable scored below 1: "
        f"{line_ok}/{len(line)}; needs search scored 1 or more: {search_ok}/{len(search)}; mean difficulty "
        f"{mean([r['difficulty'] for r in line])} (line-solvable) and {mean([r['difficulty'] for r in search])} "
        f"(needs search); Spearman rank correlation with pbnsolve's CPU time: {rho}",
        f"- puzzles with several solutions: {len(multiple)}; repaired and proven unique (the repair's exact count "
        f"and again by CNF): {len(proven)}; the fewest flips proven: "
        f"{sum(r['minimal'] is True for r in multiple)}; repaired by the repair alone with up to "
        f"{args.repair_limit:g} s after the report's share ran out: "
        f"{sum(r['repair_alone_s'] != '' and r['repaired_unique'] is True for r in multiple)} "
        f"(of {sum(r['repair_alone_s'] != '' for r in multiple)} tried)",
        "",
        "| puzzle | size | pbnsolve class | verdict | grade | difficulty | repair | flips | minimal | CNF recheck "
        "| report s | repair alone s |",
        "|---|---|---|---|---|---:|---|---:|---|---|---:|---:|",
    ]
    for r in rows:
        if r["pbnsolve_class"] != "unique, line-solvable" or r["difficulty"] == "" or r["difficulty"] >= 1 \
                or not r["within_limit"]:
            out.append(f"| {r['puzzle']} | {r['size']} | {r['pbnsolve_class']} | {r['verdict']} | {r['grade']} | "
                       f"{r['difficulty']} | {r['repair_flips'] or r['repair']} | {r['flips']} | {r['minimal']} | "
                       f"{r['recheck_cnf']} | {r['time']} | {r['repair_alone_s']} |")
    return out


if __name__ == "__main__":
    sys.exit(main())
