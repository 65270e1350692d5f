"""The corpus scripts' one way to run nonolab: ``nonolab batch`` over the corpus files.

Each script (``check_corpus``, ``verify_corpus``, ``grade_corpus``) names a batch
task, a backend and a time limit; this runs the real command line once over every
chosen file (one record per puzzle, written as each ends, killed 2 s past its limit)
and hands back each corpus entry with its record, for the script's own table.
"""

from __future__ import annotations

import csv
import json
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
OUT = REPO / "benchmarks" / "out"


def command_line(script: str, argv: list[str] | None) -> str:
    """The command that reproduces this run, as the reports print it."""
    return f"python -m benchmarks.{script} {shlex.join(sys.argv[1:] if argv is None else argv)}".rstrip()


def corpus_entries(only: str | None) -> list[dict[str, str]]:
    """The rows of the corpus' index.csv, of the folders in ``only`` (comma-separated) if given."""
    index = list(csv.DictReader((CORPUS / "index.csv").open(encoding="utf-8")))
    if only:
        index = [row for row in index if row["source"] in set(only.split(","))]
    return index


def run(task: str, backend: str, time_limit: float, entries: list[dict[str, str]], name: str,
        jobs: int = 1) -> list[tuple[dict[str, str], dict]]:
    """``nonolab batch --do TASK`` over ``entries``; each entry with its (first) record.

    The records stay in ``out/NAME.jsonl``.  An entry without a record (which batch
    never leaves: a file it cannot read is an error record) would be an error here.
    """
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / f"{name}.jsonl"
    files = [str(CORPUS / entry["file"]) for entry in entries]
    cmd = [sys.executable, "-m", "nonolab", "batch", *files, "--do", task, "--backend", backend,
           "--time-limit", str(time_limit), "--out", str(out), "--force", "--jobs", str(jobs), "--no-progress"]
    proc = subprocess.run(cmd, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"nonolab batch failed with exit code {proc.returncode}")
    records: dict[str, dict] = {}
    with out.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("index", 1) == 1:
                records[str(Path(record["file"]).resolve())] = record
    return [(entry, records[str((CORPUS / entry["file"]).resolve())]) for entry in entries]


def word(record: dict) -> str:
    """What a table shows for a record: its verdict; a puzzle that could not be checked (status
    error, no verdict since records of schema_version 3) as that; else its status (a timeout).

    >>> word({"verdict": None, "status": "error"}), word({"verdict": "unique", "status": "ok"})
    ('could not be checked', 'unique')
    """
    if record.get("verdict") and record["verdict"] != "error":
        return record["verdict"]
    return "could not be checked" if record.get("status") == "error" else record.get("status") or "-"
