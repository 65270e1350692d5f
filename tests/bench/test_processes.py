"""Processes under a limit: the whole process group goes at the limit, and nothing survives a run."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from nonolab.bench.spawn import Spawner


def _gone(pid: int) -> bool:
    """The process has ended (a zombie waiting for its new parent to reap it counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def _wait_gone(pid: int, polls: int = 200) -> bool:
    for _ in range(polls):  # bounded by count, not asserted on time
        if _gone(pid):
            return True
        time.sleep(0.05)
    return _gone(pid)


PARENT_AND_CHILD = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(sys.argv[1], "w").write(str(child.pid))
{after}
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_limit_kills_the_whole_process_group(tmp_path):
    script, pid_file = tmp_path / "spawner.py", tmp_path / "child.pid"
    script.write_text(PARENT_AND_CHILD.format(after="time.sleep(600)"), encoding="utf-8")
    with Spawner() as spawner:
        ran = spawner.run([sys.executable, str(script), str(pid_file)], limit=1.0)
    assert ran.killed and ran.exit_code == -9
    assert _wait_gone(int(pid_file.read_text()))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_an_orphan_left_behind_by_a_finished_run_is_killed(tmp_path):
    script, pid_file = tmp_path / "spawner.py", tmp_path / "child.pid"
    script.write_text(PARENT_AND_CHILD.format(after="print('unique')"), encoding="utf-8")
    with Spawner() as spawner:
        ran = spawner.run([sys.executable, str(script), str(pid_file)], limit=60.0)
    assert not ran.killed and ran.exit_code == 0 and ran.stdout.strip() == "unique"
    assert _wait_gone(int(pid_file.read_text()))


def test_a_cancel_kills_the_run_and_the_figures_are_measured(tmp_path):
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    with Spawner() as spawner:
        ran = spawner.run([sys.executable, "-c", "import time; time.sleep(600)"], limit=None, cancel=cancel)
        busy = spawner.run([sys.executable, "-c", "x = bytearray(60_000_000); sum(range(2_000_000))"], limit=60)
    assert ran.killed
    assert busy.cpu > 0 and busy.wall > 0 and busy.peak_rss_mb >= 60  # its own memory, not the parent's


def test_a_program_that_is_not_there_is_an_os_error():
    with Spawner() as spawner, pytest.raises(OSError, match="no-such-solver"):
        spawner.run(["no-such-solver-here"], limit=5)


def test_the_server_kills_what_it_runs_when_the_benchmark_goes(tmp_path):
    spawner = Spawner()
    script, pid_file = tmp_path / "spawner.py", tmp_path / "child.pid"
    script.write_text(PARENT_AND_CHILD.format(after="time.sleep(600)"), encoding="utf-8")
    errors = []

    def run() -> None:
        try:
            spawner.run([sys.executable, str(script), str(pid_file)], limit=None)
        except OSError as err:  # the server went while it waited
            errors.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    for _ in range(400):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.05)
    spawner.close()
    assert _wait_gone(int(pid_file.read_text()))
    thread.join(10)
    assert errors and "server ended" in str(errors[0])


def _silent_worker(tmp_path, pid_file):
    """A worker whose "python" never says it is ready (it sleeps, after writing its pid)."""
    import os

    from nonolab.bench.workers import Tree, Worker

    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 600\n")
    script.chmod(0o755)
    return Worker(Tree("", str(script), dict(os.environ)), "native")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_cancelled_while_it_starts_is_killed_not_an_error(tmp_path):
    pid_file = tmp_path / "pid"
    cancel = threading.Event()
    cancel.set()
    with _silent_worker(tmp_path, pid_file) as worker:
        # was a JSONDecodeError: the start read its "overrun" mark as the child's hello line
        assert worker.run({"task": "check"}, None, cancel) == {"killed": True}
    if pid_file.exists():
        assert _wait_gone(int(pid_file.read_text()))


def test_a_worker_that_is_never_ready_is_a_bench_error(tmp_path, monkeypatch):
    from nonolab.bench import workers
    from nonolab.errors import BenchError

    monkeypatch.setattr(workers, "STARTUP_TIMEOUT", 0.2)
    with _silent_worker(tmp_path, tmp_path / "pid") as worker:
        with pytest.raises(BenchError, match="not ready within"):
            worker.run({"task": "check"}, None)
