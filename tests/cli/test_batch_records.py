"""Batch records speak the four words (issue 23, as it applies to batch; issue 30).

A puzzle that could not be checked (unreadable, over a limit, a library error) has no
verdict: ``"verdict": null``, ``"status": "error"`` and its one-line reason in ``error``
(schema_version 3; version 2 wrote ``"verdict": "error"``).  The summary counts it as
"could not be checked", never as a verdict; a results file of version 2 resumes; one of
a newer version is refused in one line naming the file and the line.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from nonolab.batch.results import UNCHECKED, parse_records, summary_word, upgraded
from nonolab.batch.tasks import SCHEMA_VERSION
from nonolab.errors import BatchError

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
HEART = PUZZLES / "nonolab" / "heart.non"            # unique
SIMPLE2 = PUZZLES / "hakank" / "simple2.non"        # multiple

#: The words a batch record's verdict may hold: the four, interrupted, or nothing (a first
#: solution, a puzzle that could not be checked).  A cross-check's agreement is not one
#: (until schema_version 4 it was allowed here, so this test did not catch it in ``verdict``).
WORDS = {None, "unique", "multiple", "contradiction", "timeout", "interrupted"}


@pytest.fixture
def run(run):
    return functools.partial(run, "batch")


@pytest.fixture
def broken(tmp_path) -> Path:
    path = tmp_path / "broken.non"
    path.write_text("width 3\n")      # no height: it cannot be read
    return path


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("task", ["check", "solve", "count", "grade", "verify"])
def test_a_puzzle_that_could_not_be_checked_has_no_verdict(run, tmp_path, broken, task):
    out = tmp_path / "out.jsonl"
    backend = "native,cnf" if task == "verify" else "native"
    result = run(HEART, broken, "--do", task, "-b", backend, "--out", out, "--no-progress")
    assert result.exit_code == 1, result.output
    records = _records(out)
    assert {r["verdict"] for r in records} <= WORDS
    failed = next(r for r in records if r["file"] == str(broken))
    assert (failed["schema_version"], failed["status"], failed["verdict"]) == (SCHEMA_VERSION, "error", None)
    assert failed["error"].startswith(f"{broken}:1:") and "\n" not in failed["error"]
    assert all(r["status"] == "ok" and r["error"] is None for r in records if r is not failed)


def test_a_backend_that_cannot_run_has_no_verdict_in_a_crosscheck(run, tmp_path):
    out = tmp_path / "out.jsonl"
    assert run(HEART, "--do", "verify", "-b", "native,cnf:max_states=1", "--out", out, "--no-progress").exit_code == 0
    answers = {a["backend"]: a for a in _records(out)[0]["answers"]}
    assert answers["native"]["verdict"] == "unique" and answers["native"]["error"] is None
    refused = answers["cnf:max_states=1"]
    assert refused["verdict"] is None and "max_states" in refused["error"]


def test_the_summary_counts_them_apart_never_as_a_verdict(run, tmp_path, broken):
    result = run(HEART, SIMPLE2, broken, "--out", tmp_path / "out.jsonl", "--no-progress")
    assert result.exit_code == 1
    assert "could not be checked: 1" in result.stdout.splitlines()
    verdicts = _table_rows(result.stdout, "verdict")
    assert verdicts == {"unique": "1", "multiple": "1"}, result.stdout


def _table_rows(text: str, head: str) -> dict[str, str]:
    """The rows of the rich table whose first column is ``head``, as {first cell: last cell}."""
    rows: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"[│┃]", line)[1:-1]]
        if cells and cells[0] == head:
            inside = True
        elif inside and line.startswith("└"):
            return rows
        elif inside and cells:
            rows[cells[0]] = cells[-1]
    return rows


def _version_2(record: dict) -> dict:
    """``record`` as nonolab wrote it before version 3."""
    old = dict(record, schema_version=2)
    if old["status"] == "error":
        old["verdict"] = "error"
    if old.get("answers"):
        old["answers"] = [dict(a, verdict="error") if a["verdict"] is None else a for a in old["answers"]]
    return old


def test_a_results_file_of_version_2_resumes(run, tmp_path, broken):
    out = tmp_path / "out.jsonl"
    run(HEART, broken, "--out", out, "--no-progress")
    old = [_version_2(r) for r in _records(out)]
    assert any(r["verdict"] == "error" for r in old)
    out.write_text("".join(json.dumps(r) + "\n" for r in old))
    result = run(HEART, SIMPLE2, broken, "--out", out, "--resume", "--no-progress")
    assert result.exit_code == 1, result.output
    assert "2 puzzles already in the results file; 1 to run" in result.stderr
    assert "could not be checked: 1" in result.stdout.splitlines()
    assert _table_rows(result.stdout, "verdict") == {"unique": "1", "multiple": "1"}
    records = _records(out)
    assert records[:2] == old and records[2]["schema_version"] == SCHEMA_VERSION   # the old lines stay as written
    assert [r["verdict"] for r in parse_records(out.read_bytes(), str(out))[0]] == ["unique", None, "multiple"]


def test_a_results_file_of_version_3_cross_checks_resumes_with_the_words(run, tmp_path):
    # Version 3 put agree/disagree/inconclusive in verdict and the word in consensus.
    out = tmp_path / "out.jsonl"
    run(HEART, "--do", "verify", "-b", "native,cnf", "--out", out, "--no-progress")
    (new,) = _records(out)
    assert (new["schema_version"], new["verdict"], new["agreement"]) == (SCHEMA_VERSION, "unique", "agree")
    old = {key: value for key, value in new.items() if key != "agreement"}
    old.update(schema_version=3, verdict="disagree", consensus="unique")
    out.write_text(json.dumps(old) + "\n")
    result = run(HEART, SIMPLE2, "--do", "verify", "-b", "native,cnf", "--out", out, "--resume", "--no-progress")
    assert result.exit_code == 1, result.output          # the old disagreement still counts
    assert _table_rows(result.stdout, "verdict") == {"unique": "1", "multiple": "1"}
    assert "backends disagree: 1 (see each record's problems)" in result.stdout.splitlines()
    read = parse_records(out.read_bytes(), str(out))[0]
    assert [(r["verdict"], r["agreement"]) for r in read] == [("unique", "disagree"), ("multiple", "agree")]
    assert all("consensus" not in r for r in read)


def test_a_results_file_of_a_newer_version_is_refused_in_one_line(run, tmp_path):
    out = tmp_path / "out.jsonl"
    run(HEART, "--out", out, "--no-progress")
    before = out.read_text()
    newer = dict(_records(out)[0], schema_version=SCHEMA_VERSION + 1)
    out.write_text(before + json.dumps(newer) + "\n")
    result = run(HEART, SIMPLE2, "--out", out, "--resume", "--no-progress")
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert message.startswith(f"nonolab: error: {out}:2: a record of schema_version {SCHEMA_VERSION + 1}")
    assert "\n" not in message and "Traceback" not in result.output
    assert out.read_text() == before + json.dumps(newer) + "\n"     # nothing lost or appended


def test_upgraded_reads_version_2_and_refuses_what_it_cannot_read():
    old = {"schema_version": 2, "file": "a.non", "task": "verify", "status": "error", "verdict": "error",
           "error": "a.non: cannot read the file",
           "answers": [{"backend": "cnf", "verdict": "error", "error": "refused"},
                       {"backend": "native", "verdict": "unique", "error": None}]}
    new = upgraded(old)
    assert (new["schema_version"], new["status"], new["verdict"]) == (2, "error", None)
    assert [a["verdict"] for a in new["answers"]] == [None, "unique"]
    assert old["verdict"] == "error"           # the caller's record is not changed
    assert upgraded({"file": "a.non", "task": "check", "verdict": "unique"})["verdict"] == "unique"   # version 1
    for version in (SCHEMA_VERSION + 1, 0, "3", None):
        with pytest.raises(BatchError, match="schema_version"):
            upgraded({"schema_version": version, "file": "a.non", "task": "check"}, "r.jsonl", 4)


def test_no_summary_word_is_error():
    seen = {summary_word({"task": "check", "status": "error", "verdict": None, "error": "x"}),
            summary_word({"task": "check", "status": "error", "verdict": "error", "error": "x"}),   # read raw
            summary_word({"task": "solve", "status": "ok", "verdict": None, "solver_status": "solved"}),
            summary_word({"task": "check", "status": "ok", "verdict": "unique"})}
    assert seen == {UNCHECKED, "uniqueness not asked", "unique"}
