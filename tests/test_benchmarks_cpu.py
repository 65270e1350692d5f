"""benchmarks.peers' in-process CPU counter: a pooled worker's CPU is never lost.

auto keeps idle Kissat workers in a pool; one taken for a puzzle and killed mid-puzzle
was counted before (idle) and not after (busy, then killed and not yet reaped), which
made the puzzle's CPU negative.  The fake worker here is a child process that does a
fixed amount of work, then waits: the test waits for its word, never for a time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # `benchmarks` is a top-level folder of the repository
    sys.path.insert(0, str(REPO))

from benchmarks import peers  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")

# Work until its CPU time shows in /proc (clock ticks of 10 ms), then say so and wait.
_BUSY = ("import os, sys\n"
         "while sum(os.times()[:2]) < 0.05:\n"
         "    sum(range(10000))\n"
         "print('worked', flush=True)\n"
         "sys.stdin.read()\n")


class _FakeWorker:
    """What the pool holds: ``child``, a process."""

    def __init__(self) -> None:
        self.child = subprocess.Popen([sys.executable, "-c", _BUSY], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
        assert self.child.stdout.readline() == "worked\n"


@pytest.fixture
def pool(monkeypatch):
    from nonolab.solvers.cnf import oneshot

    idle: list = []
    monkeypatch.setattr(oneshot, "_IDLE", idle)
    yield idle
    for worker in idle:
        worker.child.kill()
        worker.child.wait()


def test_a_pooled_worker_taken_and_killed_mid_puzzle_keeps_its_cpu(pool):
    worker = _FakeWorker()
    pool.append(worker)
    before = peers._cpu_with_workers()     # the worker idle in the pool: its CPU counted
    pool.remove(worker)                    # taken for a puzzle ...
    worker.child.kill()                    # ... killed by the deadline, not yet reaped
    try:
        assert peers._cpu_with_workers() - before >= 0
    finally:
        worker.child.wait()
    assert peers._cpu_with_workers() - before >= 0     # reaped: its CPU moved to RUSAGE_CHILDREN


def test_a_live_child_counts_once_whatever_the_pool_says(pool):
    others = peers._live_children_cpu()        # children of earlier tests, if any (idle)
    worker = _FakeWorker()
    try:
        alone = peers._live_children_cpu()
        assert alone - others >= 0.04         # the fake worker's 0.05 s (to a clock tick)
        pool.append(worker)                   # in the pool or not: the same child, once
        assert peers._live_children_cpu() == pytest.approx(alone, abs=0.05)
    finally:
        if worker in pool:
            pool.remove(worker)
        worker.child.kill()
        worker.child.wait()
    assert peers._live_children_cpu() == pytest.approx(others, abs=0.05)   # reaped: gone from /proc


def test_reading_the_counter_is_not_counted_as_work():
    # A hundred readings back to back: no work between them, so no CPU (to a clock tick),
    # however many /proc entries this machine has.
    first = peers._cpu_with_workers()
    for _ in range(100):
        last = peers._cpu_with_workers()
    assert last - first == pytest.approx(0.0, abs=0.02)
