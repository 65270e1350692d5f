"""Batch through check_many (issue 30, item 1): a worker whose backend declares
``Capability.BATCH`` answers ``check`` jobs a group at a time, streaming one record a job.

The records must be those of the one-by-one path (``run_job``), a fault in a group must
stay with its puzzle (a library error, a dying worker, a puzzle that overruns its limit),
and every puzzle must get exactly one record.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import nonolab
from nonolab.batch import run_batch, run_job
from nonolab.batch.guard import GuardedWorker
from nonolab.batch.tasks import Job
from nonolab.core import Puzzle
from nonolab.core.violations import clues_of
from nonolab.formats import dumps_all

TESTS = Path(__file__).resolve().parent
SRC = Path(nonolab.__file__).resolve().parents[1]


@pytest.fixture
def workers_see_tests(monkeypatch):
    """Worker processes import the fake backends from tests/ (through batch_plugin)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SRC), str(TESTS), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture
def groups(monkeypatch) -> list[int]:
    """The sizes of the groups the local pool sent to its workers."""
    sizes: list[int] = []
    real = GuardedWorker.run_group

    def spy(self, jobs):
        sizes.append(len(jobs))
        return real(self, jobs)

    monkeypatch.setattr(GuardedWorker, "run_group", spy)
    return sizes


def random_puzzles(count: int, seed: int) -> list[Puzzle]:
    """Random black-and-white pictures' clues, 1x1 to 7x7 (half the cells filled, as the public
    sets draw them); every fifth has its column clues in reverse order (clues that most often
    no picture has)."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        width, height = rng.randint(1, 7), rng.randint(1, 7)
        grid = [[rng.random() < 0.5 for _ in range(width)] for _ in range(height)]
        rows = [clues_of(row) for row in grid]
        columns = [list(clues_of([grid[r][c] for r in range(height)])) for c in range(width)]
        if n % 5 == 4:
            columns.reverse()
        out.append(Puzzle(rows=tuple(rows), columns=tuple(tuple(c) for c in columns), name=f"p{n}"))
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _without_time(record: dict) -> dict:
    """The record but its time, ``path`` and ``digest`` (which the batch adds as it writes a record)."""
    return {k: v for k, v in record.items() if k not in ("time", "path", "digest")}


def test_grouped_batch_gives_the_records_of_the_one_by_one_path(tmp_path, groups):
    path = tmp_path / "random.json"
    path.write_text(dumps_all(random_puzzles(150, 30), "json"), encoding="utf-8")
    summary = run_batch([path], "check", tmp_path / "out.jsonl", jobs=2, backend="native")
    assert max(groups, default=0) > 1          # the grouped path ran (a last job may run alone)
    grouped = {r["index"]: _without_time(r) for r in _lines(tmp_path / "out.jsonl")}
    alone = {i: _without_time(run_job(Job(str(path), "check", "native", None, i))) for i in range(1, 151)}
    assert grouped == alone
    assert {"unique", "multiple", "contradiction"} <= set(summary.counts())
    assert summary.answered


def test_a_backend_without_batch_runs_its_jobs_one_at_a_time(tmp_path, groups):
    path = tmp_path / "random.json"
    path.write_text(dumps_all(random_puzzles(6, 31), "json"), encoding="utf-8")
    run_batch([path], "check", tmp_path / "out.jsonl", backend="backtrack")
    assert groups == [] and len(_lines(tmp_path / "out.jsonl")) == 6


def test_a_fault_in_a_group_stays_with_its_puzzle(tmp_path, groups, workers_see_tests):
    """A library error, a worker that dies and a puzzle that overruns its limit, each in the
    middle of a group: that puzzle's record says so, every other puzzle is answered, once."""
    puzzles = random_puzzles(12, 32)
    for at, name in ((2, "refuse"), (5, "die"), (8, "hang")):
        puzzles[at] = Puzzle(rows=puzzles[at].rows, columns=puzzles[at].columns, name=name)
    path = tmp_path / "faulty.json"
    path.write_text(dumps_all(puzzles, "json"), encoding="utf-8")
    summary = run_batch([path], "check", tmp_path / "out.jsonl", backend="batchfaulty", time_limit=0.5,
                        grace=1.0, preload=["batch_plugin"])
    records = _lines(tmp_path / "out.jsonl")
    assert sorted(r["index"] for r in records) == list(range(1, 13))   # each puzzle exactly once
    assert groups[0] == 12
    by_name = {puzzles[r["index"] - 1].name: r for r in records}
    assert (by_name["refuse"]["status"], by_name["refuse"]["verdict"]) == ("error", None)
    assert "refused" in by_name["refuse"]["error"]
    assert by_name["die"]["status"] == "error" and by_name["die"]["verdict"] is None and "died" in by_name["die"]["error"]
    assert (by_name["hang"]["status"], by_name["hang"]["killed"]) == ("timeout", True)
    for record in records:
        if puzzles[record["index"] - 1].name not in ("refuse", "die", "hang"):
            expected = nonolab.check(puzzles[record["index"] - 1], backend="native").verdict.value
            assert (record["status"], record["verdict"]) == ("ok", expected)
    assert not summary.answered


def test_the_cli_says_some_failed_with_exit_code_1(tmp_path):
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    path = tmp_path / "set.json"
    path.write_text(dumps_all(random_puzzles(20, 33), "json"), encoding="utf-8")
    (tmp_path / "broken.non").write_text("width 3\n")
    args = ["batch", path, tmp_path / "broken.non", "--out", tmp_path / "out.jsonl", "--no-progress", "-b", "native"]
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 1
    records = _lines(tmp_path / "out.jsonl")
    assert len(records) == 21 and [r["status"] for r in records].count("error") == 1
    assert "error 1" in result.stdout
