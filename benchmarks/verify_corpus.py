"""`nonolab verify` (native, cpsat, cnf side by side) over every puzzle of ../shared/corpus.

One `nonolab verify --json` process per puzzle, count to 2, a time limit per backend.
Writes ``out/verify_corpus.csv`` and ``out/verify_corpus.md``.

    python -m benchmarks.verify_corpus [--time-limit 60] [--only FOLDER,...] [--backends native,cpsat,cnf]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
from datetime import date

from benchmarks.check_corpus import CORPUS, OUT, command_line


def run_one(path, backends: str, time_limit: float) -> dict:
    cmd = [sys.executable, "-m", "nonolab", "verify", str(path), "--json", "--backends", backends,
           "--time-limit", str(time_limit), "--max-solutions", "2", "--report-dir", str(OUT / "reports")]
    n_backends = len(backends.split(","))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=(time_limit * 2 + 30) * n_backends)
    if proc.returncode not in (0, 1):
        return {"verdict": "error", "error": proc.stderr.strip(), "answers": []}
    return json.loads(proc.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    parser.add_argument("--backends", default="native,cpsat,cnf")
    args = parser.parse_args(argv)
    args.command = command_line("verify_corpus", argv)
    backends = args.backends.split(",")
    index = list(csv.DictReader((CORPUS / "index.csv").open(encoding="utf-8")))
    if args.only:
        index = [row for row in index if row["source"] in set(args.only.split(","))]
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for n, entry in enumerate(index, 1):
        data = run_one(CORPUS / entry["file"], args.backends, args.time_limit)
        row = {"file": entry["file"], "size": f"{entry['width']}x{entry['height']}",
               "verdict": data["verdict"], "consensus": data.get("consensus", "-"),
               "problems": "; ".join(data.get("problems", [])) or data.get("error", "")}
        for a in data["answers"]:
            row[f"{a['backend']}_verdict"] = a["verdict"]
            row[f"{a['backend']}_time"] = a["time"]
        rows.append(row)
        times = " ".join(f"{b}={row.get(b + '_verdict', '?')}/{row.get(b + '_time', 0):.2f}s" for b in backends)
        print(f"[{n}/{len(index)}] {entry['file']}: {row['verdict']} {row['consensus']} {times}", flush=True)
    fields = ["file", "size", "verdict", "consensus", "problems"] + [
        f"{b}_{k}" for b in backends for k in ("verdict", "time")]
    with (OUT / "verify_corpus.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    text = _markdown(rows, backends, args)
    (OUT / "verify_corpus.md").write_text(text, encoding="utf-8")
    print(text)
    return 1 if any(r["verdict"] != "agree" for r in rows) else 0


def _finished(row, backend) -> bool:
    return row.get(f"{backend}_verdict") in ("unique", "multiple", "contradiction")


def _markdown(rows, backends, args) -> str:
    all_done = [r for r in rows if all(_finished(r, b) for b in backends)]
    unfinished = [r for r in rows if r not in all_done]
    lines = [
        f"Command: `{args.command}` (one `nonolab verify --json --max-solutions 2` process per puzzle)",
        f"Machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
        f"{date.today().isoformat()}",
        "",
        f"- puzzles: {len(rows)}; agree: {sum(r['verdict'] == 'agree' for r in rows)}; "
        f"disagree: {sum(r['verdict'] == 'disagree' for r in rows)}; "
        f"inconclusive: {sum(r['verdict'] == 'inconclusive' for r in rows)}",
        f"- finished by every backend: {len(all_done)} (all agree: "
        f"{all(r['verdict'] == 'agree' for r in all_done)})",
    ]
    for b in backends:
        done = [r for r in rows if _finished(r, b)]
        total = sum(float(r[f"{b}_time"]) for r in done)
        lines.append(f"- {b}: finished {len(done)}/{len(rows)}, total time of the finished ones {total:.1f} s")
    lines.append("")
    if unfinished:
        lines.append("Not finished by some backend within the limit:")
        lines.append("")
        for r in unfinished:
            lines.append(f"- `{r['file']}`: " + ", ".join(
                f"{b} {r.get(b + '_verdict', '?')}" for b in backends if not _finished(r, b)))
        lines.append("")
    head = "| puzzle | size | verdict | consensus | " + " | ".join(f"{b} s" for b in backends) + " |"
    lines += [head, "|---|---|---|---|" + "---:|" * len(backends)]
    for r in rows:
        cells = []
        for b in backends:
            t = r.get(f"{b}_time")
            cells.append("-" if t is None else (f"{float(t):.3f}" if _finished(r, b) else f"{r[b + '_verdict']}"))
        lines.append(f"| {r['file']} | {r['size']} | {r['verdict']} | {r['consensus']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
