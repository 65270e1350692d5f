"""A batch of N worker processes gives each its share of the cores (issue 30).

native's ``threads`` defaults to every core, right for one process alone: ``batch --jobs N``
ran N processes of up to that many threads each on large grids.  The scheduler now gives each
job its worker's share (``cores // workers``, at least 1) through the declared ``threads``
option of a backend that has one, never by name; the Dask path per thread of a Dask worker.
What is checked is the option that reaches the backend inside the worker process, not time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from nonolab.batch import guard, run_batch
from nonolab.batch.tasks import Job, with_threads
from nonolab.formats import dump
from nonolab.solvers import build, names, options_of

TESTS = Path(__file__).resolve().parent
PUZZLES = TESTS.parent / "puzzles"
import nonolab  # noqa: E402

SRC = Path(nonolab.__file__).resolve().parents[1]
NAMES = ("first", "second", "third", "fourth")


@pytest.fixture
def spied(tmp_path, monkeypatch) -> tuple[list[Path], Path]:
    """Four named puzzles, and the log the ``threadspy`` backend writes in the worker processes."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SRC), str(TESTS), os.environ.get("PYTHONPATH", "")]))
    log = tmp_path / "threads.log"
    monkeypatch.setenv("NONOLAB_TEST_THREADS_LOG", str(log))
    heart = nonolab.load(PUZZLES / "nonolab" / "heart.non")
    files = []
    for name in NAMES:
        dump(heart.with_(name=name), tmp_path / f"{name}.json")
        files.append(tmp_path / f"{name}.json")
    return files, log


def _seen(log: Path) -> dict[str, set[str]]:
    """The ``threads`` each named puzzle was solved with (the workers' warm-up left out)."""
    found: dict[str, set[str]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        name, _, threads = line.rpartition(" ")
        if name in NAMES:
            found.setdefault(name, set()).add(threads)
    return found


@pytest.mark.parametrize("jobs, share", [(2, "4"), (3, "2"), (1, "8")])
def test_each_worker_process_gets_its_share_of_the_cores(spied, tmp_path, monkeypatch, jobs, share):
    files, log = spied
    monkeypatch.setattr(guard, "available_cores", lambda: 8)      # the parent schedules as if on 8 cores
    out = tmp_path / "out.jsonl"
    run_batch(files, "check", out, backend="threadspy", jobs=jobs, preload=["batch_plugin"])
    assert _seen(log) == {name: {share} for name in NAMES}
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {(r["backend"], r["verdict"]) for r in records} == {("threadspy", "unique")}   # recorded as asked


def test_threads_the_user_chose_are_kept(spied, tmp_path, monkeypatch):
    files, log = spied
    monkeypatch.setattr(guard, "available_cores", lambda: 8)
    run_batch(files, "check", tmp_path / "out.jsonl", backend="threadspy:threads=3", jobs=2,
              preload=["batch_plugin"])
    assert _seen(log) == {name: {"3"} for name in NAMES}


def test_a_share_is_never_below_one_thread(monkeypatch):
    monkeypatch.setattr(guard, "available_cores", lambda: 2)
    assert [guard.core_share(n) for n in (1, 2, 3, 64)] == [2, 1, 1, 1]


def test_the_share_goes_by_the_declared_option_never_by_name():
    for name in names():
        spec = with_threads(name, 2)
        declares = any(option.name == "threads" for option in options_of(name))
        assert (spec == f"{name}:threads=2") == declares, name
    assert Job("a.non", "verify", "native:probing=none,cnf", threads=2).run_spec() == \
        "native:probing=none,threads=2,cnf"
    assert Job("a.non", "check", "auto").run_spec() == "auto"      # no share given: the backend's default


def test_auto_hands_its_threads_to_its_native_phase():
    assert build("auto:threads=2").parts().native().threads == 2
    assert build("auto").parts().native().threads is None       # native's default: the cores available


def test_on_dask_each_thread_of_a_worker_gets_its_share(spied, tmp_path):
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    files, log = spied
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        run_batch(files, "check", tmp_path / "out.jsonl", backend="threadspy", scheduler=cluster.scheduler_address,
                  preload=["batch_plugin"])
    assert _seen(log) == {name: {str(max(1, guard.available_cores() // 2))} for name in NAMES}


def test_a_crosscheck_names_its_backends_as_asked(tmp_path):
    from nonolab.batch.tasks import run_job

    heart = PUZZLES / "nonolab" / "heart.non"
    record = run_job(Job(str(heart), "verify", "native,cnf:max_states=1", threads=1))
    assert [a["backend"] for a in record["answers"]] == ["native", "cnf:max_states=1"]
    assert record["backend"] == "native,cnf:max_states=1" and record["verdict"] == "unique"
    assert record["agreement"] == "agree"
