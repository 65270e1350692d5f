"""`grade` over every puzzle of ../shared/corpus, against pbnsolve's classes.

A thin caller of ``nonolab batch --do grade`` (see corpus_batch); a time limit per
puzzle.  Writes ``out/grade_corpus.csv``
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
from collections import Counter
from datetime import date

from benchmarks.corpus_batch import OUT, command_line, corpus_entries, run, word


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    parser.add_argument("--backend", default="auto", help="counts to 2 when deduction is not enough")
    args = parser.parse_args(argv)
    args.command = command_line("grade_corpus", argv)
    rows = []
    for entry, record in run("grade", args.backend, args.time_limit, corpus_entries(args.only), "grade_corpus"):
        line_class = entry["pbnsolve_class"] == "unique, line-solvable"
        graded = record.get("grade")
        rows.append({
            "puzzle": entry["file"], "size": f"{entry['width']}x{entry['height']}",
            "pbnsolve_class": entry["pbnsolve_class"],
            "grade": graded or f">{record.get('harder_than') or ''}",
            "verdict": word(record), "time": round(record["time"] or 0.0, 4),
            "steps": " ".join(f"{k}={v}" for k, v in (record.get("steps") or {}).items()),
            "line_agrees": (graded == "line") == line_class,
            "search_for_line_class": line_class and graded == "search",
        })
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
