"""Running jobs under a hard wall-clock limit: long-lived worker processes and a watchdog.

Each :class:`GuardedWorker` owns one child process (:mod:`.worker`) with pipes of
its own, and runs one job at a time in it.  When a job overruns its budget (the
solver's time limit plus a grace), the child is killed and the job recorded as a
``timeout``; the next job starts a fresh child.  Because no pipe or queue is shared
between workers, a kill cannot lose or corrupt another worker's result, and each
job yields exactly one record.

Why not one process per job: loading the compiled native engine costs about a
second per process, more than most puzzles take.  Why not
``concurrent.futures.ProcessPoolExecutor``: it cannot kill one stuck task; killing
its worker breaks the whole pool.  Why ``subprocess`` rather than
``multiprocessing``: a Dask worker is a daemonic process, which
``multiprocessing`` forbids to have children; the same guard then serves both the
local pool and Dask.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Iterable, Iterator

from nonolab.batch.tasks import Job, new_record
from nonolab.errors import BackendUnavailable, BatchError, UnknownBackend

#: Seconds a worker may take to load and warm up its backends (OR-tools and python-sat
#: take a second or two on a loaded machine; a stalled import must still end).
STARTUP_TIMEOUT = 600.0

_FATAL = {"BackendUnavailable": BackendUnavailable, "UnknownBackend": UnknownBackend}


def _child_env() -> dict[str, str]:
    """This environment, with the directory of this very ``nonolab`` package on the path.

    A child must import the same code as its parent, however the parent found it (a
    source checkout on ``sys.path``, say); an installed package needs nothing, and
    its site-packages must not go ahead of the standard library.
    """
    import site

    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    installed = {*getattr(site, "getsitepackages", list)(), site.getusersitepackages()}
    if root not in installed:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


class GuardedWorker:
    """One child process that runs jobs one at a time, killed and replaced when a job overruns.

    Args:
        backends: the backends the child loads and warms up before its first job.
        grace: seconds a job may run past its time limit before the kill.
        preload: modules the child imports first (plugins registering backends or tasks).

    >>> with GuardedWorker(("native",)) as worker:                    # doctest: +SKIP
    ...     worker.run(Job("cat.non", "check", "native", 10.0))["verdict"]
    'unique'
    """

    def __init__(self, backends: Iterable[str], grace: float = 2.0, preload: Iterable[str] = ()):
        self.backends = tuple(backends)
        self.grace = grace
        self.preload = tuple(preload)
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue[bytes | None] | None = None
        # close() may come from another thread while this one starts a child.
        self._lock = threading.Lock()
        self._closed = False

    def __enter__(self) -> "GuardedWorker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start(self) -> None:
        cmd = [sys.executable, "-m", "nonolab.batch.worker"]
        for backend in self.backends:
            cmd += ["--backend", backend]
        for module in self.preload:
            cmd += ["--preload", module]
        env = _child_env()
        with self._lock:
            if self._closed:
                raise BatchError("the worker was closed")
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
            self._proc, self._lines = proc, queue.Queue()
        lines = self._lines
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
        try:
            hello = lines.get(timeout=STARTUP_TIMEOUT)
        except queue.Empty:
            self._kill()
            raise BatchError(f"a worker process did not start within {STARTUP_TIMEOUT:.0f} s") from None
        message = json.loads(hello) if hello else None
        if not message or not message.get("ready"):
            code = self._kill()
            if message and "fatal" in message:
                raise _FATAL.get(message.get("kind"), BatchError)(message["fatal"])
            raise BatchError(f"a worker process failed to start (exit code {code}); see its messages above")

    def run(self, job: Job) -> dict[str, Any]:
        """The record of ``job``: the child's answer, or ``timeout`` if it was killed, or ``error`` if it died."""
        if self._proc is None:
            self._start()
        # Local references: close() from another thread may clear the attributes.
        proc, lines = self._proc, self._lines
        start = time.perf_counter()
        budget = job.budget(self.grace)
        try:
            if proc is None or lines is None:
                raise BrokenPipeError("the worker was closed")
            proc.stdin.write((json.dumps(job.as_dict()) + "\n").encode("utf-8"))
            proc.stdin.flush()
            line = lines.get(timeout=budget)
        except (OSError, ValueError):  # ValueError: its stdin was closed by close()
            line = None  # it died between jobs: answer as for a death during this one
        except queue.Empty:
            self._kill()
            return new_record(job, status="timeout", verdict="timeout", complete=False, killed=True,
                              time=round(time.perf_counter() - start, 6),
                              error=f"no answer within {budget:.1f} s; its worker process was killed")
        if line is None:
            code = self._kill()
            return new_record(job, status="error", verdict="error", time=round(time.perf_counter() - start, 6),
                              error=f"the worker process died (exit code {code}) while on this puzzle")
        return json.loads(line)

    def _kill(self) -> int | None:
        with self._lock:
            proc, self._proc, self._lines = self._proc, None, None
        if proc is None:
            return None
        proc.kill()
        code = proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        return code

    def close(self, wait: float = 1.0) -> None:
        """Stop the child for good: close its stdin (it exits after its job), kill it after ``wait`` s."""
        with self._lock:
            self._closed = True
            proc = self._proc
        if proc is not None and wait > 0:
            try:
                proc.stdin.close()
                proc.wait(timeout=wait)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()


def _pump(stream, lines: queue.Queue) -> None:
    """Move the child's lines to a queue, so that the parent can wait for one with a timeout."""
    try:
        for line in iter(stream.readline, b""):
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


class LocalPool:
    """``workers`` guarded worker processes fed by as many threads; results as they complete.

    The threads only wait on pipes; the solving happens in the children, so the GIL
    is no bottleneck.

    >>> with LocalPool(2, ("native",)) as pool:                       # doctest: +SKIP
    ...     records = list(pool.run(jobs))
    """

    def __init__(self, workers: int, backends: Iterable[str], grace: float = 2.0, preload: Iterable[str] = ()):
        if workers < 1:
            raise ValueError("LocalPool: workers must be at least 1")
        self._workers = [GuardedWorker(backends, grace, preload) for _ in range(workers)]
        self._idle: queue.Queue[GuardedWorker] = queue.Queue()
        for worker in self._workers:
            self._idle.put(worker)
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nonolab-batch")

    def __enter__(self) -> "LocalPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _run(self, job: Job) -> dict[str, Any]:
        worker = self._idle.get()
        try:
            return worker.run(job)
        finally:
            self._idle.put(worker)

    def run(self, jobs: Iterable[Job]) -> Iterator[dict[str, Any]]:
        """Run ``jobs`` (in this order of start) and yield one record per job as each completes."""
        futures = [self._threads.submit(self._run, job) for job in jobs]
        for future in as_completed(futures):
            yield future.result()

    def close(self) -> None:
        # Kill the children first: a thread waiting on a child with no time limit
        # wakes up only when its pipe closes.
        self._threads.shutdown(wait=False, cancel_futures=True)
        for worker in self._workers:
            worker.close(wait=0)
        self._threads.shutdown(wait=True)


# The guarded workers of this process started for Dask tasks, by (batch, thread):
# each thread of a Dask worker keeps one child across the jobs of a batch, and
# the batch closes its children when it ends (close_batch), not those of another.
_GUARDED: dict[tuple[str, int], GuardedWorker] = {}
_CLOSED: set[str] = set()  # a cancelled task may still start after its batch closed
_GUARDED_LOCK = threading.Lock()


def run_guarded(job: Job, grace: float = 2.0, preload: tuple[str, ...] = (),
                batch: str = "") -> dict[str, Any]:
    """Run ``job`` in the guarded worker process of the calling thread (started on first use).

    This is the function a Dask worker runs; ``batch`` names the batch, whose
    children :func:`close_batch` stops at its end.
    """
    key = (batch, threading.get_ident())
    with _GUARDED_LOCK:
        if batch in _CLOSED:
            raise BatchError(f"batch {batch} has ended")
        worker = _GUARDED.get(key)
        if worker is None or (worker.backends, worker.grace, worker.preload) != (job.backends, grace, preload):
            if worker is not None:
                worker.close(wait=0)
            worker = _GUARDED[key] = GuardedWorker(job.backends, grace, preload)
    return worker.run(job)


def close_batch(batch: str) -> int:
    """Stop the guarded workers that ``batch`` started in this process; returns how many."""
    with _GUARDED_LOCK:
        _CLOSED.add(batch)
        mine = [k for k in _GUARDED if k[0] == batch]
        workers = [_GUARDED.pop(k) for k in mine]
    for worker in workers:
        worker.close(wait=0)
    return len(workers)


def open_batches() -> list[str]:
    """The batches with guarded workers in this process (one entry per worker)."""
    with _GUARDED_LOCK:
        return [k[0] for k in _GUARDED]
