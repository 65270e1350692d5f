"""`nonolab check` over every puzzle of ../shared/corpus, compared with pbnsolve's verdicts.

Runs the real command line, one process per puzzle, with a time limit, and writes
``out/check_corpus.csv`` and ``out/check_corpus.md`` (a table fit for RESULTS.md).

    python -m benchmarks.check_corpus [--time-limit 60] [--only FOLDER,...] [--backend native]
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
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
OUT = REPO / "benchmarks" / "out"


def expected_word(pbnsolve_class: str) -> str | None:
    if pbnsolve_class.startswith("unique"):
        return "unique"
    if pbnsolve_class.startswith("multiple"):
        return "multiple"
    return None  # pbnsolve did not finish: nothing to compare with


def run_one(path: Path, time_limit: float, backend: str) -> dict:
    cmd = [sys.executable, "-m", "nonolab", "check", str(path), "--json",
           "--time-limit", str(time_limit), "--backend", backend]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=time_limit * 3 + 30)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        return {"verdict": "error", "solve_time": None, "process_time": wall, "error": proc.stderr.strip()}
    data = json.loads(proc.stdout)
    counters = data["stats"]
    return {"verdict": data["verdict"], "solve_time": counters["wall_time"], "process_time": wall,
            "nodes": counters.get("nodes"), "probes": counters.get("probes"),
            "line_solves": counters.get("line_solves"), "cache_hit_rate": counters.get("cache_hit_rate")}


def command_line(script: str, argv: list[str] | None) -> str:
    """The command that reproduces this run, as the reports print it."""
    return f"python -m benchmarks.{script} {shlex.join(sys.argv[1:] if argv is None else argv)}".rstrip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    parser.add_argument("--backend", default="native")
    args = parser.parse_args(argv)
    args.command = command_line("check_corpus", argv)
    index = list(csv.DictReader((CORPUS / "index.csv").open(encoding="utf-8")))
    if args.only:
        folders = set(args.only.split(","))
        index = [row for row in index if row["source"] in folders]
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for n, entry in enumerate(index, 1):
        got = run_one(CORPUS / entry["file"], args.time_limit, args.backend)
        expected = expected_word(entry["pbnsolve_class"])
        finished = got["verdict"] in ("unique", "multiple", "contradiction")
        agrees = None if expected is None or not finished else got["verdict"] == expected
        row = {"file": entry["file"], "size": f"{entry['width']}x{entry['height']}",
               "pbnsolve_class": entry["pbnsolve_class"], "pbnsolve_u_cpu_s": entry["pbnsolve_u_cpu_s"],
               **got, "agrees": agrees}
        rows.append(row)
        print(f"[{n}/{len(index)}] {entry['file']}: {got['verdict']} "
              f"{got['solve_time'] if got['solve_time'] is not None else '-'} s"
              f"{'  DISAGREES' if agrees is False else ''}", flush=True)
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
        f"Command: `{args.command}` (one `nonolab check --json` process per puzzle)",
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
    lines += ["| puzzle | size | pbnsolve class | pbnsolve -u CPU s | verdict | solve s | nodes | agrees |",
              "|---|---|---|---:|---|---:|---:|---|"]
    for r in rows:
        t = f"{r['solve_time']:.3f}" if r["solve_time"] is not None else "-"
        agree = {True: "yes", False: "**NO**", None: "-"}[r["agrees"]]
        lines.append(f"| {r['file']} | {r['size']} | {r['pbnsolve_class']} | {r['pbnsolve_u_cpu_s']} | "
                     f"{r['verdict']} | {t} | {r.get('nodes') or '-'} | {agree} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
