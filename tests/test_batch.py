"""Batches: collection, records, the results file, the hard time limit, and Dask."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from nonolab.batch import collect, parse_records, run_batch, run_job
from nonolab.batch.tasks import Job
from nonolab.errors import BatchError

import nonolab  # noqa: E402

# Subprocesses import the very package this process imported (site-packages after
# `pip install .`, src/ in an editable install), with its compiled engine caches and extensions.
INSTALLED = Path(nonolab.__file__).resolve().parents[1]

TESTS = Path(__file__).resolve().parent
PUZZLES = TESTS.parent / "puzzles"
SRC = INSTALLED


def _expected_counts() -> dict[str, int]:
    with open(PUZZLES / "index.csv", newline="", encoding="utf-8") as f:
        return {row["file"]: int(row["solutions"]) for row in csv.DictReader(f)}


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def workers_see_tests(monkeypatch):
    """Worker processes import the fake backends from tests/ (through batch_plugin)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SRC), str(TESTS), os.environ.get("PYTHONPATH", "")]))


def _record(file: str, task: str = "check", **extra) -> dict:
    return {"file": file, "task": task, "backend": "auto", "verdict": "unique", "time": 0.01, **extra}


# collection ------------------------------------------------------------------------

def test_collect_walks_directories_for_known_suffixes(tmp_path):
    (tmp_path / "a" / "deep").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    for name in ("a/x.non", "a/deep/y.nin", "a/notes.md", "a/LICENSE", "a/.z.non", ".hidden/h.non", "skip.non"):
        (tmp_path / name).write_text("")
    found = collect([tmp_path], exclude=["skip.*"])
    assert [Path(p).relative_to(tmp_path).as_posix() for p in found] == ["a/x.non", "a/deep/y.nin"]
    # an explicit file is taken whatever its suffix, and a file reached twice is listed once
    assert collect([tmp_path / "a" / "notes.md", tmp_path / "a"], exclude=["deep/*"]) == [
        str(tmp_path / "a" / "notes.md"), str(tmp_path / "a" / "x.non")]
    with pytest.raises(BatchError, match="no puzzle files"):
        collect([tmp_path / "a"], exclude=["*.n*"])
    with pytest.raises(BatchError, match="no such file"):
        collect([tmp_path / "missing.non"])


# records ---------------------------------------------------------------------------

def test_a_file_that_does_not_parse_is_an_error_record(tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\nx\n")
    record = run_job(Job(str(bad), "check", "native"))
    assert record["status"] == "error" and record["verdict"] is None
    assert record["error"].startswith(f"{bad}:") and "\n" not in record["error"]


def test_a_count_cut_by_the_time_limit_is_a_timeout_even_when_multiple(tmp_path):
    from nonolab.core import Puzzle
    from nonolab.formats import dump

    nine = tmp_path / "perm9.non"  # 9! = 362880 solutions: many seconds to count, not 1
    dump(Puzzle(rows=((1,),) * 9, columns=((1,),) * 9), nine)
    run_job(Job(str(PUZZLES / "nonolab" / "switch.non"), "count", "native"))  # loads the engine
    record = run_job(Job(str(nine), "count", "native", 1.0))
    assert (record["status"], record["verdict"], record["exact"]) == ("timeout", "multiple", False)
    assert record["count"] >= 2        # and it ended: 9! solutions would take many seconds more


def test_local_pool_answers_each_file_once_with_the_known_counts(tmp_path):
    expected = _expected_counts()
    bad = tmp_path / "broken.non"
    bad.write_text("this is not a nonogram\n")
    summary = run_batch([PUZZLES, bad], "count", tmp_path / "out.jsonl", jobs=2)
    records = _lines(tmp_path / "out.jsonl")
    assert len(records) == len(expected) + 1 == len(summary.records) == summary.written
    by_file = {r["file"]: r for r in records}
    assert len(by_file) == len(records)
    for name, solutions in expected.items():
        record = by_file[str(PUZZLES / name)]
        assert (record["status"], record["count"], record["exact"]) == ("ok", solutions, True), name
    assert by_file[str(bad)]["status"] == "error" and str(bad) in by_file[str(bad)]["error"]
    assert summary.unchecked == 1 and "error" not in summary.counts() and not summary.answered
    # the results file is never taken for a puzzle, even in a folder that is scanned
    with pytest.raises(BatchError, match="besides the results file"):
        run_batch([tmp_path / "out.jsonl"], "check", tmp_path / "out.jsonl", resume=True)


# the results file ------------------------------------------------------------------

def test_parse_records_drops_only_a_torn_last_line():
    good = b'{"file": "a.non", "task": "check"}\n'
    assert parse_records(good + b'{"file": "b.non", "ta') == ([json.loads(good)], len(good), False)
    # a complete record whose newline was not written is kept, and the newline added
    assert parse_records(good + good.rstrip()) == ([json.loads(good)] * 2, 2 * len(good) - 1, True)
    with pytest.raises(BatchError, match=r"^results:1: not a result record"):
        parse_records(b"garbage\n" + good)
    # A complete last line (its newline written) is no interrupted append: refused, as in
    # the middle.  Before, it was dropped as if torn, and nothing said so.
    with pytest.raises(BatchError, match=r"^out.jsonl:2: not a result record"):
        parse_records(good + b"garbage\n", "out.jsonl")


def test_resume_says_which_torn_line_it_drops_and_refuses_garbage_leaving_the_file_as_it_was(tmp_path):
    from nonolab.batch.results import TornLine

    files = [PUZZLES / "hakank" / n for n in ("car.non", "simple2.non")]
    out = tmp_path / "out.jsonl"
    whole = json.dumps(_record(str(files[0]))) + "\n"
    out.write_text(whole + '{"file": "' + str(files[1])[:5])
    with pytest.warns(TornLine, match=r"out\.jsonl:2: dropped a torn last line .*15 bytes"):
        run_batch(files, "check", out, resume=True)
    assert [r["file"] for r in _lines(out)] == [str(f) for f in files]
    for damaged in (whole + "garbage\n" + whole, whole + "garbage\n"):   # in the middle; last, newline written
        out.write_text(damaged)
        with pytest.raises(BatchError, match=r"out\.jsonl:2: not a result record"):
            run_batch(files, "check", out, resume=True)
        assert out.read_text() == damaged


def test_the_cli_says_the_torn_line_in_one_line_and_refuses_garbage_with_exit_2(tmp_path):
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    car = PUZZLES / "hakank" / "car.non"
    out = tmp_path / "out.jsonl"
    assert CliRunner().invoke(cli, ["batch", str(car), "--out", str(out)]).exit_code == 0
    whole = out.read_text()
    out.write_text(whole + '{"file": "x')
    result = CliRunner().invoke(cli, ["batch", str(car), "--out", str(out), "--resume"])
    assert result.exit_code == 0 and out.read_text() == whole, result.output
    said = [line for line in result.stderr.splitlines() if "torn" in line]
    assert said == [f"nonolab: warning: {out}:2: dropped a torn last line (a run stopped while writing it): "
                    "11 bytes, '{\"file\": \"x'"]
    out.write_text("garbage\n" + whole)
    result = CliRunner().invoke(cli, ["batch", str(car), "--out", str(out), "--resume"])
    assert result.exit_code == 2 and result.stderr.startswith(f"nonolab: error: {out}:1: not a result record")
    assert "Traceback" not in result.stderr and out.read_text().startswith("garbage\n")


def test_resume_cuts_a_torn_last_line_and_runs_only_the_missing(tmp_path):
    files = [PUZZLES / "hakank" / n for n in ("car.non", "simple2.non", "t2.non")]
    out = tmp_path / "out.jsonl"
    done = [_record(str(files[0])), _record(str(files[1]), verdict="multiple")]
    out.write_text("".join(json.dumps(r) + "\n" for r in done) + '{"file": "' + str(files[2])[:5])
    seen = []
    with pytest.warns(UserWarning, match="torn last line"):
        summary = run_batch(files, "check", out, resume=True, on_start=lambda *a: seen.append(a))
    assert seen == [(1, 2)] and summary.written == 1 and summary.earlier == 2
    records = _lines(out)  # every line parses: the torn one is gone
    assert [r["file"] for r in records] == [str(f) for f in files]
    assert records[:2] == done and records[2]["verdict"] == "multiple"


def test_resume_with_another_backend_runs_every_puzzle_and_reports_only_its_records(tmp_path):
    # auto's records are not native's answers: resuming with -b native runs native on
    # every puzzle, keeps auto's records in the file, and sums up native's alone.
    files = [PUZZLES / "hakank" / n for n in ("car.non", "simple2.non")]
    out = tmp_path / "out.jsonl"
    done = [_record(str(f), verdict="multiple") for f in files]
    out.write_text("".join(json.dumps(r) + "\n" for r in done))
    seen = []
    summary = run_batch(files, "check", out, backend="native", resume=True, on_start=lambda *a: seen.append(a))
    assert seen == [(2, 0)] and summary.written == 2 and summary.earlier == 0
    assert {r["backend"] for r in summary.records} == {"native"}
    records = _lines(out)
    assert records[:2] == done and [r["backend"] for r in records[2:]] == ["native", "native"]
    again = run_batch(files, "check", out, backend="native", resume=True)   # now done: nothing runs
    assert again.written == 0 and again.earlier == 2 and len(_lines(out)) == 4


def test_an_existing_results_file_is_never_replaced_unasked(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps(_record("x.non")) + "\n")
    with pytest.raises(BatchError, match="--resume"):
        run_batch([PUZZLES / "hakank" / "car.non"], "check", out)
    assert _lines(out) == [_record("x.non")]
    out.write_text("garbage\n" + json.dumps(_record("x.non")) + "\n")
    with pytest.raises(BatchError, match=r"out\.jsonl:1: not a result record"):
        run_batch([PUZZLES / "hakank" / "car.non"], "check", out, resume=True)
    assert out.read_text().startswith("garbage\n")


# the hard time limit ---------------------------------------------------------------

def test_a_stuck_backend_is_killed_after_its_limit_and_the_next_job_runs(tmp_path, workers_see_tests):
    files = [PUZZLES / "hakank" / "car.non", PUZZLES / "hakank" / "hard.non"]
    limit, grace = 0.5, 0.5
    # The stuck backend sleeps an hour: that the batch ends at all is the kill.
    summary = run_batch(files, "check", tmp_path / "out.jsonl", backend="stuck", time_limit=limit, grace=grace,
                        preload=["batch_plugin"])
    records = _lines(tmp_path / "out.jsonl")
    assert sorted(r["file"] for r in records) == sorted(map(str, files))
    for record in records:
        assert (record["status"], record["verdict"], record["killed"]) == ("timeout", "timeout", True)
        assert record["time"] >= limit + grace          # not killed before its limit and grace (a busy machine only adds)
    # one worker, so the second job ran in a fresh process after the first was killed
    assert summary.counts() == {"timeout": 2}


def test_a_worker_that_dies_costs_its_job_only(tmp_path, workers_see_tests):
    files = [PUZZLES / "hakank" / "car.non", PUZZLES / "hakank" / "hard.non"]
    run_batch(files, "check", tmp_path / "out.jsonl", backend="dying", time_limit=5, preload=["batch_plugin"])
    records = _lines(tmp_path / "out.jsonl")
    assert len(records) == 2
    assert all(r["status"] == "error" and r["verdict"] is None and "died" in r["error"] for r in records)


# Dask ------------------------------------------------------------------------------

def test_dask_scheduler_gives_the_same_answers_as_the_local_pool(tmp_path, monkeypatch):
    pytest.importorskip("dask.distributed")
    from click.testing import CliRunner
    from dask.distributed import Client, LocalCluster

    from nonolab.batch import cluster, guard
    from nonolab.cli.main import cli

    monkeypatch.setattr(cluster, "WINDOW", 3)  # the sliding window of jobs in flight, refilled as they end
    shutil.copytree(PUZZLES, tmp_path / "puzzles")
    (tmp_path / "puzzles" / "broken.non").write_text("width 3\n")
    common = ["batch", str(tmp_path / "puzzles"), "--do", "count", "--no-progress"]
    runner = CliRunner()
    local = runner.invoke(cli, [*common, "--out", str(tmp_path / "local.jsonl"), "--jobs", "2"])
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as dask_cluster:
        remote = runner.invoke(cli, [*common, "--out", str(tmp_path / "dask.jsonl"),
                                     "--scheduler", dask_cluster.scheduler_address])
        with Client(dask_cluster, set_as_default=False) as client:  # the batch stopped its children
            assert list(client.run(guard.open_batches).values()) == [[]]
    assert local.exit_code == remote.exit_code == 1, remote.output  # 1: the broken file
    assert "Dask at tcp://127.0.0.1" in remote.stdout

    def answers(name):
        return {r["file"]: (r["status"], r["verdict"], r["count"], r["exact"]) for r in _lines(tmp_path / name)}

    errors = {r["file"]: r["error"] for r in _lines(tmp_path / "dask.jsonl") if r["status"] == "error"}
    assert answers("dask.jsonl") == answers("local.jsonl"), errors   # the workers' own messages, if any
    assert len(answers("dask.jsonl")) == len(_expected_counts()) + 1


def test_a_dask_worker_thread_keeps_one_child_whatever_batches_never_ended():
    """Audit 13: a client killed mid-batch (SIGKILL: it never closes its batch) left each
    Dask worker thread's child idle for good, one more for every killed client (5 after two
    kills on a 2-worker localhost cluster).  The thread's next job, of another batch, now
    closes the idle one first.  Run here in a thread, as a Dask worker runs its tasks."""
    import threading
    import time

    psutil = pytest.importorskip("psutil")
    from nonolab.batch import guard

    def children() -> set[int]:
        return {c.pid for c in psutil.Process().children()
                if c.is_running() and c.status() != psutil.STATUS_ZOMBIE
                and "nonolab.batch.worker" in " ".join(c.cmdline())}

    job = Job(str(PUZZLES / "hakank" / "nonunique.non"), "check", "native", 30.0)
    before, seen, records = children(), [], []

    def task(batch: str) -> None:
        records.append(guard.run_guarded(job, 2.0, (), batch))
        seen.append(children() - before)

    runner = threading.Thread(target=lambda: [task("killed-client"), task("next-client")])   # one Dask thread
    runner.start()
    runner.join(120)
    try:
        assert [r["verdict"] for r in records] == ["multiple", "multiple"]
        assert guard.open_batches() == ["next-client"]
        for _ in range(100):     # the idle child was told to go (closed without waiting)
            if len(children() - before) == 1:
                break
            time.sleep(0.1)
        assert len(seen[0]) == 1 and children() - before == seen[1] - seen[0] != set()
    finally:
        guard.close_batch("next-client")
    assert guard.open_batches() == []


def test_no_dask_means_a_clear_error(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.startswith(("dask", "distributed")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    from nonolab.errors import BackendUnavailable

    with pytest.raises(BackendUnavailable, match=r'pip install "nonolab\[distributed\]"'):
        run_batch([PUZZLES / "hakank" / "car.non"], "check", tmp_path / "out.jsonl", scheduler="tcp://127.0.0.1:1")


@pytest.mark.parametrize("address, says", [
    ("foo", "not a Dask scheduler address"),                 # malformed: refused before dask is asked
    ("tcp://127.0.0.1:99999", "not a Dask scheduler address"),
    ("tcp://127.0.0.1:1", "cannot reach the Dask scheduler"),   # well formed, nobody listening
])
def test_a_bad_scheduler_fails_fast_in_one_line_and_leaves_no_results_file(tmp_path, address, says):
    pytest.importorskip("dask.distributed")
    import subprocess
    import sys

    out = tmp_path / "out.jsonl"
    env = {**os.environ, "PYTHONPATH": str(INSTALLED)}
    done = subprocess.run([sys.executable, "-m", "nonolab", "batch", str(PUZZLES / "hakank" / "car.non"),
                           "--out", str(out), "--scheduler", address, "--no-progress"],
                          capture_output=True, text=True, env=env, timeout=120)   # a hang guard
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr  # one line, no traceback
    assert not out.exists()


@pytest.mark.parametrize("name", ["nonolab.batch", "nonolab.batch.tasks", "nonolab.batch.results"])
def test_doctests(name):
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(name)).failed == 0


def test_grade_task_records_the_grade_and_verdict(tmp_path):
    files = [PUZZLES / "webpbn" / "webpbn-00006-cat.non", PUZZLES / "webpbn" / "webpbn-00023-edge.non",
             PUZZLES / "nonolab" / "switch.non", PUZZLES / "nonolab" / "contradiction.non"]
    run_batch(files, "grade", tmp_path / "grades.jsonl", jobs=1)
    by_file = {r["file"]: r for r in _lines(tmp_path / "grades.jsonl")}
    got = {Path(f).name: (r["grade"], r["verdict"], r["status"]) for f, r in by_file.items()}
    assert got == {"webpbn-00006-cat.non": ("line", "unique", "ok"),
                   "webpbn-00023-edge.non": ("contradiction-probe", "unique", "ok"),
                   "switch.non": ("search", "multiple", "ok"),
                   "contradiction.non": (None, "contradiction", "ok")}   # answered: it was a "timeout"
