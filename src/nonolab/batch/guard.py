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
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Iterator

from nonolab.batch.tasks import Job, groupable, new_record, unchecked
from nonolab.errors import BackendUnavailable, BatchError, UnknownBackend
from nonolab.solvers.base import available_cores

#: Seconds a worker may take to load and warm up its backends (OR-tools and python-sat
#: take a second or two on a loaded machine; a stalled import must still end).
STARTUP_TIMEOUT = 600.0

_FATAL = {"BackendUnavailable": BackendUnavailable, "UnknownBackend": UnknownBackend}


def core_share(processes: int) -> int:
    """The threads each of ``processes`` worker processes solving at once on this machine may
    use: an even share of :func:`~nonolab.solvers.base.available_cores`, at least one.  A backend's own default (native's
    ``threads``: every core) is right for one process alone; N processes each taking every
    core would run N times as many threads as there are cores.

    >>> core_share(10 ** 6)
    1
    """
    return max(1, available_cores() // max(1, processes))


def shared(job: Job, threads: int) -> Job:
    """``job`` with its process's share of the cores, unless the scheduler already gave it one."""
    return job if job.threads is not None else replace(job, threads=threads)


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
        #: The backends the child said declare ``Capability.BATCH`` (known once it started).
        self.batching: frozenset[str] = frozenset()

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
            # A session of its own: Ctrl-C at a terminal reaches the foreground process group,
            # and a worker still importing (before it ignores SIGINT) printed a KeyboardInterrupt
            # traceback under "nonolab: interrupted".  The parent decides, and kills it.
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                    start_new_session=True)
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
        self.batching = frozenset(message.get("batch") or ())

    def start(self) -> None:
        """Start the child now if it is not running (else the first job starts it)."""
        if self._proc is None:
            self._start()

    def run_group(self, jobs: list[Job]) -> Iterator[dict[str, Any]]:
        """The records of ``jobs``, run by the child as one group (:func:`~nonolab.batch.tasks.run_jobs`),
        each as it comes.

        Each record must come within its job's budget after the one before (the first, after the
        group was sent).  When one does not, or the child dies, the child is killed and the
        iterator ends early: the jobs without a record are the caller's to run one at a time
        (:meth:`run`), so that a kill or a crash is recorded for the puzzle that caused it.
        """
        if self._proc is None:
            self._start()
        proc, lines = self._proc, self._lines
        done = 0
        try:
            if proc is None or lines is None or proc.stdin is None:
                return
            try:
                proc.stdin.write((json.dumps({"jobs": [job.as_dict() for job in jobs]}) + "\n").encode("utf-8"))
                proc.stdin.flush()
            except (OSError, ValueError):
                return
            for job in jobs:
                try:
                    line = lines.get(timeout=job.budget(self.grace))
                except queue.Empty:
                    return
                if line is None:
                    return
                done += 1
                yield json.loads(line)
        finally:
            if done < len(jobs):   # killed, dead, or the caller stopped early: its lines must not reach the next job
                self._kill()

    def run(self, job: Job) -> dict[str, Any]:
        """The record of ``job``: the child's answer, or ``timeout`` if it was killed, or ``error`` if it died."""
        if self._proc is None:
            self._start()
        # Local references: close() from another thread may clear the attributes.
        proc, lines = self._proc, self._lines
        start = time.perf_counter()
        budget = job.budget(self.grace)
        try:
            if proc is None or lines is None or proc.stdin is None:
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
            return unchecked(new_record(job, time=round(time.perf_counter() - start, 6)),
                             f"the worker process died (exit code {code}) while on this puzzle")
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
                if stream is not None:
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
                if proc.stdin is not None:
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


#: The most jobs a worker runs as one group.  A group's puzzles are searched by the compiled
#: batch path before the first record comes back, and the first record must come within one
#: job's budget (its time limit plus the grace): at native's slice of 0.05 s a puzzle, 32
#: puzzles keep that pass (1.6 s at worst) inside the default grace of 2 s, while the costs
#: per group (a pipe's round trip, loading the backend's answers) stay small beside those of
#: 32 jobs sent one at a time.  With a smaller grace a slow pass costs time, not records: the
#: group's worker is killed and its jobs without a record run again, one at a time.
GROUP = 32


class LocalPool:
    """``workers`` guarded worker processes, each fed by a thread; records as they complete.

    The threads only wait on pipes; the solving happens in the children, so the GIL
    is no bottleneck.  A worker whose backend declares ``Capability.BATCH`` takes the
    jobs of a grouped task (:data:`~nonolab.batch.tasks.GROUPED`) up to ``group`` at a
    time and streams their records back (:meth:`GuardedWorker.run_group`); any other job
    runs alone.

    >>> with LocalPool(2, ("native",)) as pool:                       # doctest: +SKIP
    ...     records = list(pool.run(jobs))
    """

    def __init__(self, workers: int, backends: Iterable[str], grace: float = 2.0, preload: Iterable[str] = (),
                 group: int = GROUP):
        if workers < 1:
            raise ValueError("LocalPool: workers must be at least 1")
        if group < 1:
            raise ValueError("LocalPool: group must be at least 1")
        self._workers = [GuardedWorker(backends, grace, preload) for _ in range(workers)]
        self._group = group
        self._todo: deque[Job] = deque()
        self._alone: set[Job] = set()   # jobs back from a group that ended early: each runs by itself
        self._lock = threading.Lock()
        self._out: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> "LocalPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _take(self, worker: GuardedWorker) -> list[Job]:
        """The next job, or a group of them for a worker that batches them."""
        with self._lock:
            if not self._todo:
                return []
            first = self._todo.popleft()
            unit = [first]
            if first in self._alone or not groupable(first) or first.backend not in worker.batching:
                return unit
            # An even share for each worker, so that a short batch is not all one worker's.
            size = min(self._group, -(-(len(self._todo) + 1) // len(self._workers)))
            same = (first.task, first.backend, first.time_limit)
            while (len(unit) < size and self._todo and self._todo[0] not in self._alone
                   and (self._todo[0].task, self._todo[0].backend, self._todo[0].time_limit) == same):
                unit.append(self._todo.popleft())
            return unit

    def _serve(self, worker: GuardedWorker) -> None:
        try:
            while not self._stop.is_set():
                with self._lock:
                    if not self._todo:
                        return
                worker.start()   # outside the lock: its backends load (and say whether they batch)
                unit = self._take(worker)
                if not unit:
                    return
                if len(unit) == 1:
                    self._out.put(("record", worker.run(unit[0])))
                    continue
                done = 0
                for record in worker.run_group(unit):
                    self._out.put(("record", record))
                    done += 1
                if done < len(unit) and not self._stop.is_set():
                    with self._lock:   # the rest of an interrupted group: first, each alone
                        self._alone.update(unit[done:])
                        self._todo.extendleft(reversed(unit[done:]))
        except BaseException as err:  # noqa: BLE001 — a worker that cannot start: the batch's error
            self._out.put(("error", err))

    def run(self, jobs: Iterable[Job]) -> Iterator[dict[str, Any]]:
        """Run ``jobs`` (in this order of start) and yield one record per job as each completes.

        Each job runs with its worker's share of the cores (:func:`core_share`): the workers
        solve at once, so a backend's threads are split between them.
        """
        threads = core_share(len(self._workers))
        self._todo.extend(shared(job, threads) for job in jobs)
        wanted = len(self._todo)
        self._threads = [threading.Thread(target=self._serve, args=(worker,), daemon=True,
                                          name="nonolab-batch") for worker in self._workers]
        for thread in self._threads:
            thread.start()
        for _ in range(wanted):
            kind, value = self._out.get()
            if kind == "error":
                raise value
            yield value

    def waiting(self) -> bool:
        """Whether another record is already waiting to be taken from :meth:`run`."""
        return not self._out.empty()

    def close(self) -> None:
        # Kill the children first: a thread waiting on a child with no time limit
        # wakes up only when its pipe closes.
        self._stop.set()
        with self._lock:
            self._todo.clear()
        for worker in self._workers:
            worker.close(wait=0)
        for thread in self._threads:
            thread.join()


# The guarded workers of this process started for Dask tasks: one a thread, with the batch
# it serves.  Each thread of a Dask worker keeps its child across the jobs of a batch, and
# the batch closes its children when it ends (close_batch), not those of another.  A batch
# whose client was killed never says it ended: its child is closed when the thread takes a
# job of another batch (it is idle then: the thread is its only user), so a worker holds
# one child a thread, however many clients died (each left one a thread, for good).
_GUARDED: dict[int, tuple[str, GuardedWorker]] = {}
_CLOSED: set[str] = set()  # a cancelled task may still start after its batch closed
_GUARDED_LOCK = threading.Lock()


def run_guarded(job: Job, grace: float = 2.0, preload: tuple[str, ...] = (),
                batch: str = "") -> dict[str, Any]:
    """Run ``job`` in the guarded worker process of the calling thread (started on first use).

    This is the function a Dask worker runs; ``batch`` names the batch, whose
    children :func:`close_batch` stops at its end.  Each thread of the Dask worker runs
    its own child at once with the others, so a job gets the share of the cores of one
    of them (:func:`dask_share`).
    """
    job = shared(job, dask_share())
    thread = threading.get_ident()
    with _GUARDED_LOCK:
        if batch in _CLOSED:
            raise BatchError(f"batch {batch} has ended")
        held, worker = _GUARDED.get(thread, (None, None))
        if worker is None or held != batch or (worker.backends, worker.grace, worker.preload) != (
                job.backends, grace, preload):
            if worker is not None:
                worker.close(wait=0)
            worker = GuardedWorker(job.backends, grace, preload)
            _GUARDED[thread] = (batch, worker)
    return worker.run(job)


def dask_share() -> int:
    """The share of the cores of one thread of the Dask worker this runs in (each thread keeps
    a guarded child solving at once with the others'); every core outside a Dask worker."""
    try:
        from distributed import get_worker

        nthreads = get_worker().state.nthreads
    except (ImportError, ValueError):   # ValueError: not inside a Dask worker
        nthreads = None
    return core_share(nthreads if isinstance(nthreads, int) else 1)


def close_batch(batch: str) -> int:
    """Stop the guarded workers that ``batch`` started in this process; returns how many."""
    with _GUARDED_LOCK:
        _CLOSED.add(batch)
        mine = [thread for thread, (held, _) in _GUARDED.items() if held == batch]
        workers = [_GUARDED.pop(thread)[1] for thread in mine]
    for worker in workers:
        worker.close(wait=0)
    return len(workers)


def open_batches() -> list[str]:
    """The batches with guarded workers in this process (one entry per worker)."""
    with _GUARDED_LOCK:
        return [held for held, _ in _GUARDED.values()]
