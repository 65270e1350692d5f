"""`nonolab check` over every puzzle of ../shared/corpus, compared with pbnsolve's verdicts.

A thin caller of ``nonolab batch --do check`` (see corpus_batch), with a time limit
per puzzle; writes ``out/check_corpus.csv`` and ``out/check_corpus.md`` (a table fit
for RESULTS.md).

    python -m benchmarks.check_corpus [--time-limit 60] [--only FOLDER,...] [--backend native]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
from datetime import date

from benchmarks.corpus_batch import OUT, command_line, corpus_entries, run, word

def expected_word(pbnsolve_class: str) -> str | None:
    if pbnsolve_class.startswith("unique"):
        return "unique"
    if pbnsolve_class.startswith("multiple"):
        return "multiple"
    return None  # pbnsolve did not finish: nothing to compare with


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    parser.add_argument("--backend", default="native")
    args = parser.parse_args(argv)
    args.command = command_line("check_corpus", argv)
    answers = run("check", args.backend, args.time_limit, corpus_entries(args.only), "check_corpus")
    rows = []
    for entry, record in answers:
        expected = expected_word(entry["pbnsolve_class"])
        finished = record["verdict"] in ("unique", "multiple", "contradiction")
        agrees = None if expected is None or not finished else record["verdict"] == expected
        rows.append({"file": entry["file"], "size": f"{entry['width']}x{entry['height']}",
                     "pbnsolve_class": entry["pbnsolve_class"], "pbnsolve_u_cpu_s": entry["pbnsolve_u_cpu_s"],
                     "verdict": word(record), "solve_time": record["time"],
                     "error": record["error"], "agrees": agrees})
    fields = list(rows[0])
    with (OUT / "check_corpus.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    (OUT / "check_corpus.md").write_text(_markdown(rows, args), encoding="utf-8")
    print((OUT / "check_corpus.md").read_text(encoding="utf-8"))
    return 1 if any(r["agrees"] is False for r in rows) else 0


def _markdown(rows: list[dict], args) -> str:
    finished = [r for r in rows if r["verdict"] in ("unique", "multiple", "contradiction")]
    compared = [r for r in finished if r["agrees"] is not None]
    disagree = [r for r in compared if not r["agrees"]]
    unfinished = [r for r in rows if r not in finished]
    total = sum(r["solve_time"] or 0 for r in finished)
    lines = [
        f"Command: `{args.command}` (`nonolab batch --do check` over the corpus)",
        f"Machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
        f"{date.today().isoformat()}",
        "",
        f"- puzzles: {len(rows)}; finished within {args.time_limit:g} s: {len(finished)}; "
        f"not finished: {len(unfinished)}",
        f"- compared with pbnsolve's class: {len(compared)}; agree: {len(compared) - len(disagree)}; "
        f"disagree: {len(disagree)}",
        f"- total solve time of the finished puzzles: {total:.1f} s",
        "",
    ]
    if unfinished:
        lines.append("Not finished: " + ", ".join(f"`{r['file']}` ({r['verdict']})" for r in unfinished))
        lines.append("")
    lines += ["| puzzle | size | pbnsolve class | pbnsolve -u CPU s | verdict | solve s | agrees |",
              "|---|---|---|---:|---|---:|---|"]
    for r in rows:
        t = f"{r['solve_time']:.3f}" if r["solve_time"] is not None else "-"
        agree = {True: "yes", False: "**NO**", None: "-"}[r["agrees"]]
        lines.append(f"| {r['file']} | {r['size']} | {r['pbnsolve_class']} | {r['pbnsolve_u_cpu_s']} | "
                     f"{r['verdict']} | {t} | {agree} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
