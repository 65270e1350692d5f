"""`grade` over every puzzle of ../shared/corpus, against pbnsolve's classes.

One process, after warm-up; a time limit per puzzle.  Writes ``out/grade_corpus.csv``
and ``out/grade_corpus.md`` and prints the agreement on line-solvability (issue 5:
``grade`` must say ``line`` exactly for the puzzles index.csv classes "unique,
line-solvable", and never ``search`` for them).

    python -m benchmarks.grade_corpus [--time-limit 20] [--only FOLDER,...]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

from benchmarks.check_corpus import command_line
from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.harness.classify import Grade, grade

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
OUT = REPO / "benchmarks" / "out"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    args = parser.parse_args(argv)
    args.command = command_line("grade_corpus", argv)
    index = list(csv.DictReader((CORPUS / "index.csv").open(encoding="utf-8")))
    if args.only:
        index = [row for row in index if row["source"] in set(args.only.split(","))]
    grade(Puzzle(rows=((1,),), columns=((1,),)))  # warm-up: load the compiled engine
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for entry in index:
        start = time.perf_counter()
        result = grade(load(CORPUS / entry["file"]), args.time_limit)
        wall = time.perf_counter() - start
        line_class = entry["pbnsolve_class"] == "unique, line-solvable"
        rows.append({
            "puzzle": entry["file"], "size": f"{entry['width']}x{entry['height']}",
            "pbnsolve_class": entry["pbnsolve_class"],
            "grade": result.grade.value if result.grade else f">{result.harder_than.value if result.harder_than else ''}",
            "verdict": result.verdict, "time": round(wall, 4),
            "steps": " ".join(f"{k}={v}" for k, v in result.steps.items()),
            "line_agrees": (result.grade is Grade.LINE) == line_class,
            "search_for_line_class": line_class and result.grade is Grade.SEARCH,
        })
        print(f"{entry['file']}: {rows[-1]['grade']} {result.verdict} {wall:.2f}s", file=sys.stderr, flush=True)
    with (OUT / "grade_corpus.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    grades = Counter(r["grade"] for r in rows)
    agree = sum(r["line_agrees"] for r in rows)
    lines = [
        f"Command: `{args.command}`",
        f"Machine: {os.cpu_count()} cores, CPython {platform.python_version()}, {date.today()}",
        "",
        f"- puzzles: {len(rows)}; line-solvability agrees with pbnsolve: {agree}/{len(rows)}; "
        f"graded search although pbnsolve says line-solvable: {sum(r['search_for_line_class'] for r in rows)}",
        "- grades: " + ", ".join(f"{g} {n}" for g, n in sorted(grades.items())),
        f"- total time: {sum(r['time'] for r in rows):.1f} s",
        "",
        "| puzzle | size | pbnsolve class | grade | verdict | s | steps |",
        "|---|---|---|---|---|---:|---|",
    ]
    for r in rows:
        if r["grade"] != "line":
            lines.append(f"| {r['puzzle']} | {r['size']} | {r['pbnsolve_class']} | {r['grade']} | {r['verdict']} "
                         f"| {r['time']:.3f} | {r['steps']} |")
    (OUT / "grade_corpus.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[:7]))
    return 0 if agree == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
