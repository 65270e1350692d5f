"""A real Dask cluster on localhost (issue 30, item 3): a `dask scheduler` and two `dask worker`
processes, batch and census run against them, a worker killed mid-run, a client killed and resumed.

Every process started here is in its own session and is killed (with its children) at the
end, whatever happened.  Nothing waits on a duration: the waits are bounded loops that fail
with a message when the cluster never comes up or a run never ends.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

import nonolab
from nonolab.batch import run_batch
from nonolab.batch.cluster import run_on_dask
from nonolab.batch.tasks import Job, with_puzzle

pytest.importorskip("dask.distributed")

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"], [sys.executable, "-m", "distributed.cli.dask_worker"]
#: Bounded waits: polls of POLL seconds, at most this many (generous on a loaded machine).
POLL, POLLS = 0.2, 1500


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


class Cluster:
    """A scheduler and named workers, each a process group of its own."""

    def __init__(self, root: Path):
        self.root = root
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.workers: dict[str, subprocess.Popen] = {}
        self.scheduler = self._start([*DASK[0], "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                                      "--no-dashboard"], "scheduler")

    def _start(self, command: list[str], name: str) -> subprocess.Popen:
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 — closed with the process
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                cwd=self.root)

    def add_worker(self, name: str, *options: str) -> None:
        self.workers[name] = self._start(
            [*DASK[1], self.address, "--name", name, "--nthreads", "1", "--no-nanny", "--no-dashboard",
             "--local-directory", str(self.root / name), *options], name)

    def kill_worker(self, name: str) -> None:
        _kill(self.workers.pop(name))

    def wait_for(self, count: int) -> None:
        from dask.distributed import Client
        for _ in range(POLLS):
            try:
                with Client(self.address, timeout=5, set_as_default=False) as client:
                    if len(client.scheduler_info()["workers"]) == count:
                        return
            except OSError:
                pass
            time.sleep(POLL)
        raise AssertionError(f"the cluster never had {count} workers; see {self.root}/*.log")

    def close(self) -> None:
        for proc in [*self.workers.values(), self.scheduler]:
            _kill(proc)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    found = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        found.add_worker("w1")
        found.add_worker("w2")
        found.wait_for(2)
        yield found
    finally:
        found.close()


def _two_workers(cluster: Cluster) -> None:
    """Back to two workers (a test before may have killed one)."""
    for name in ("w1", "w2", "w3", "w4"):
        if len(cluster.workers) == 2:
            break
        if name not in cluster.workers:
            cluster.add_worker(name + "b")
    cluster.wait_for(2)


def _puzzles(tmp_path: Path, copies: int) -> tuple[Path, dict[tuple[str, int], str]]:
    """``copies`` copies of the shipped puzzles, and the verdict each must get."""
    expected = {}
    with open(PUZZLES / "index.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for copy in range(copies):
        for row in rows:
            target = tmp_path / "set" / str(copy) / row["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(PUZZLES / row["file"], target)
            solutions = int(row["solutions"])
            expected[str(target), 1] = "unique" if solutions == 1 else "multiple" if solutions else "contradiction"
    return tmp_path / "set", expected


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_batch_survives_a_worker_killed_mid_run(cluster, tmp_path):
    _two_workers(cluster)
    folder, expected = _puzzles(tmp_path, 2)
    out = tmp_path / "out.jsonl"
    seen = []
    victim = next(iter(cluster.workers))

    def kill_after_three(record):
        seen.append(record)
        if len(seen) == 3:
            cluster.kill_worker(victim)

    summary = run_batch([folder], "check", out, scheduler=cluster.address,
                        on_record=kill_after_three)
    records = _records(out)
    assert victim not in cluster.workers and len(seen) > 3  # the kill came mid-run
    keys = [(r["file"], r["index"]) for r in records]
    assert len(keys) == len(set(keys)) == len(expected)  # none lost, none twice
    assert {k: r["verdict"] for k, r in zip(keys, records)} == expected
    assert all(r["status"] == "ok" for r in records), [r["error"] for r in records if r["error"]]
    assert summary.answered


def test_census_survives_a_worker_killed_mid_run(cluster):
    _two_workers(cluster)
    victim = next(iter(cluster.workers))
    seen = []

    def kill_after_five(result):
        seen.append(result.chunks_done)
        if len(seen) == 5:
            cluster.kill_worker(victim)

    result = nonolab.census(4, 4, scheduler=cluster.address, progress=kill_after_five, chunk_pictures=1 << 12)
    assert victim not in cluster.workers and len(seen) == result.chunks > 5
    assert (result.pictures, result.unique, result.line) == (65536, 52362, 51234)


def test_puzzles_travel_as_data(cluster, tmp_path):
    # Jobs whose files do not exist anywhere: the workers answer from the puzzles sent.
    _two_workers(cluster)
    folder, expected = _puzzles(tmp_path, 1)
    jobs = [replace(with_puzzle(Job(path, "check", "native", 60.0, index)), path=path + ".elsewhere")
            for path, index in expected]
    records = list(run_on_dask(jobs, cluster.address))
    shutil.rmtree(folder)
    assert {(r["file"][:-len(".elsewhere")], r["index"]): r["verdict"] for r in records} == expected


def _run_until(command: list[str], out: Path, enough) -> None:
    """Start ``command``, and kill it (the client) once ``enough(out)`` holds."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(POLLS):
            if proc.poll() is not None or (out.exists() and enough(out)):
                break
            time.sleep(POLL / 4)
        assert proc.poll() is None, "the run ended before it could be killed"
    finally:
        _kill(proc)


def _nonolab(*args: str) -> list[str]:
    return [sys.executable, "-m", "nonolab", *args]


def test_a_killed_batch_client_resumes(cluster, tmp_path):
    _two_workers(cluster)
    folder, expected = _puzzles(tmp_path, 3)
    out = tmp_path / "out.jsonl"
    command = _nonolab("batch", str(folder), "--out", str(out), "--scheduler", cluster.address,
                       "--no-progress")
    _run_until(command, out, lambda p: len(p.read_bytes().splitlines()) >= 4)
    assert len(_records(out)) < len(expected)
    done = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=POLL * POLLS)
    assert done.returncode == 0, done.stderr
    records = _records(out)
    keys = [(r["file"], r["index"]) for r in records]
    assert len(keys) == len(set(keys)) == len(expected)
    assert {k: r["verdict"] for k, r in zip(keys, records)} == expected


def test_a_killed_census_client_resumes(cluster, tmp_path):
    _two_workers(cluster)
    out = tmp_path / "census.json"
    command = _nonolab("census", "--size", "4x4", "--out", str(out), "--scheduler", cluster.address,
                       "--chunk-pictures", "4096", "--no-progress")

    def some_chunks(path: Path) -> bool:
        try:
            return json.loads(path.read_text())["chunks_done"] >= 5
        except ValueError:
            return False

    _run_until(command, out, some_chunks)
    partial = json.loads(out.read_text())
    assert not partial["complete"]
    # Resumed without --chunk-pictures: the file's own chunks are kept.
    done = subprocess.run(command[:-3] + ["--no-progress"], capture_output=True, text=True,
                          timeout=POLL * POLLS)
    assert done.returncode == 0, done.stderr
    final = json.loads(out.read_text())
    assert final["complete"] and final["chunks"] == partial["chunks"]
    assert (final["pictures"], final["unique"], final["line"]) == (65536, 52362, 51234)
    assert "unique             52,362" in done.stdout


def test_a_cancelled_batch_frees_its_workers(tmp_path, monkeypatch):
    # Ctrl-C of `batch --scheduler` sets the cancel event. Dask cannot stop a running task:
    # the job (here the stuck backend, which sleeps an hour with no time limit) held its
    # worker thread, and the next batch's jobs waited behind it, until the batch stopped
    # the workers' children itself.
    import threading

    tests = Path(__file__).resolve().parent
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(Path(nonolab.__file__).resolve().parents[1]),
                                                      str(tests), os.environ.get("PYTHONPATH", "")]))
    alone = Cluster(tmp_path)   # one worker, one thread, that sees the fake backends
    try:
        alone.add_worker("only")
        alone.wait_for(1)
        from dask.distributed import Client

        from nonolab.batch.guard import open_batches
        car = str(PUZZLES / "hakank" / "car.non")
        cancel = threading.Event()
        records: list = []
        stuck = [Job(car, "check", "stuck", None, 1)]
        run = threading.Thread(target=lambda: records.extend(
            run_on_dask(stuck, alone.address, preload=("batch_plugin",), cancel=cancel)), daemon=True)
        with Client(alone.address, timeout=5, set_as_default=False) as client:
            run.start()
            for _ in range(POLLS):   # until the worker's child holds the stuck job
                if not run.is_alive() or any(client.run(open_batches).values()):
                    break
                time.sleep(POLL)
            assert run.is_alive(), "the batch ended before its stuck job started"
            cancel.set()
            run.join(POLL * POLLS / 10)   # it stops within CANCEL_POLL; a loaded machine may take longer
            assert not run.is_alive() and records == []
            assert not any(client.run(open_batches).values())   # its child was stopped
            # The worker's only thread is free again: the next batch is answered.
            answered = list(run_on_dask([Job(car, "check", "native", None, 1)], alone.address))
            assert [r["verdict"] for r in answered] == ["unique"]
    finally:
        alone.close()


def test_ctrl_c_of_a_census_stops_the_chunks_running_on_the_workers(tmp_path, monkeypatch):
    # Dask cannot stop a running task: on Ctrl-C the census kept what came back, but the
    # chunks on the workers ran to their end for nobody (seconds each; here, a chunk whose
    # count stalls until it is stopped, census_plugin), and the next census waited behind them.
    from tests.cli.test_interrupts import HANG, nonolab_env

    tests = Path(__file__).resolve().parent
    flag = tmp_path / "stall"
    flag.touch()
    monkeypatch.setenv("NONOLAB_TEST_STALL", str(flag))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(Path(nonolab.__file__).resolve().parents[1]),
                                                      str(tests), os.environ.get("PYTHONPATH", "")]))
    alone = Cluster(tmp_path)   # one worker, one thread, whose census chunks stall
    try:
        alone.add_worker("only", "--preload", "census_plugin")
        alone.wait_for(1)
        from dask.distributed import Client

        def stalled(client) -> int:   # (a lambda travels by value: this process never imports the plugin)
            return sum(client.run(lambda: __import__("census_plugin").stalled()).values())

        out = tmp_path / "census.json"
        command = _nonolab("census", "--size", "4x4", "--out", str(out), "--scheduler", alone.address,
                           "--chunk-pictures", "4096", "--no-progress")
        with Client(alone.address, timeout=5, set_as_default=False) as client:
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=nonolab_env())
            try:
                for _ in range(POLLS):   # until the worker runs a chunk
                    if proc.poll() is not None or stalled(client):
                        break
                    time.sleep(POLL)
                assert proc.poll() is None, "the census ended before its first chunk ran"
                proc.send_signal(signal.SIGINT)
                stdout, err = proc.communicate(timeout=HANG)
            finally:
                _kill(proc)
            assert proc.returncode == 130 and err.decode().endswith("nonolab: interrupted\n"), err
            assert json.loads(out.read_text())["chunks_done"] < json.loads(out.read_text())["chunks"]
            for _ in range(POLLS):   # the chunk stops (it would stall for as long as the flag is there)
                if not stalled(client):
                    break
                time.sleep(POLL)
            assert not stalled(client), "the census's chunk still runs on its worker after Ctrl-C"
        flag.unlink()
        # The worker's only thread is free: the same command goes on to the uninterrupted counts.
        done = subprocess.run(command, capture_output=True, text=True, timeout=POLL * POLLS, env=nonolab_env())
        assert done.returncode == 0, done.stderr
        final = json.loads(out.read_text())
        assert final["complete"] and (final["pictures"], final["unique"], final["line"]) == (65536, 52362, 51234)
    finally:
        alone.close()
