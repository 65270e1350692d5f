"""`nonolab verify` (native, cpsat, cnf side by side) over every puzzle of ../shared/corpus.

A thin caller of ``nonolab batch --do verify`` (see corpus_batch): count to 2, a
time limit per backend.  Writes ``out/verify_corpus.csv`` and ``out/verify_corpus.md``.

    python -m benchmarks.verify_corpus [--time-limit 60] [--only FOLDER,...] [--backends native,cpsat,cnf]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
from datetime import date

from benchmarks.corpus_batch import OUT, command_line, corpus_entries, run, word


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", default=None, help="comma-separated corpus folders")
    parser.add_argument("--backends", default="native,cpsat,cnf")
    args = parser.parse_args(argv)
    args.command = command_line("verify_corpus", argv)
    backends = args.backends.split(",")
    rows = []
    for entry, data in run("verify", args.backends, args.time_limit, corpus_entries(args.only), "verify_corpus"):
        row = {"file": entry["file"], "size": f"{entry['width']}x{entry['height']}",
               "verdict": word(data), "agreement": data.get("agreement") or "-",
               "problems": "; ".join(data.get("problems") or []) or (data.get("error") or "")}
        for a in data.get("answers") or []:
            row[f"{a['backend']}_verdict"] = a["verdict"] or "could not be checked"
            row[f"{a['backend']}_time"] = a["time"]
        rows.append(row)
    fields = ["file", "size", "verdict", "agreement", "problems"] + [
        f"{b}_{k}" for b in backends for k in ("verdict", "time")]
    with (OUT / "verify_corpus.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    text = _markdown(rows, backends, args)
    (OUT / "verify_corpus.md").write_text(text, encoding="utf-8")
    print(text)
    return 1 if any(r["agreement"] != "agree" for r in rows) else 0


def _finished(row, backend) -> bool:
    return row.get(f"{backend}_verdict") in ("unique", "multiple", "contradiction")


def _markdown(rows, backends, args) -> str:
    all_done = [r for r in rows if all(_finished(r, b) for b in backends)]
    unfinished = [r for r in rows if r not in all_done]
    lines = [
        f"Command: `{args.command}` (`nonolab batch --do verify` over the corpus, count to 2)",
        f"Machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
        f"{date.today().isoformat()}",
        "",
        f"- puzzles: {len(rows)}; agree: {sum(r['agreement'] == 'agree' for r in rows)}; "
        f"disagree: {sum(r['agreement'] == 'disagree' for r in rows)}; "
        f"inconclusive: {sum(r['agreement'] == 'inconclusive' for r in rows)}",
        f"- finished by every backend: {len(all_done)} (all agree: "
        f"{all(r['agreement'] == 'agree' for r in all_done)})",
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
    head = "| puzzle | size | verdict | agreement | " + " | ".join(f"{b} s" for b in backends) + " |"
    lines += [head, "|---|---|---|---|" + "---:|" * len(backends)]
    for r in rows:
        cells = []
        for b in backends:
            t = r.get(f"{b}_time")
            cells.append("-" if t is None else (f"{float(t):.3f}" if _finished(r, b) else f"{r[b + '_verdict']}"))
        lines.append(f"| {r['file']} | {r['size']} | {r['verdict']} | {r['agreement']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
