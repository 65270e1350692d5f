"""Long work in the background: each job runs in a worker thread, has an id, reports
its progress, and stops when cancelled.

A job is a function ``work(job)`` that passes ``job.cancel`` (a ``threading.Event``)
on to the library, as the CLI passes its interrupt (``Limits.cancel``, the harness
functions' ``cancel=``): the backends poll it, so a cancel stops the search itself,
not just the waiting for it.  ``job.step(fraction, stage)`` reports progress.

>>> jobs = Jobs(workers=1)
>>> job = jobs.start("double", lambda job: 2 * 21)
>>> job.wait(5) and job.state, job.result
('done', 42)
>>> jobs.close()
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from nonolab.errors import NonolabError
from nonolab.web.words import spoken

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = (DONE, FAILED, CANCELLED)


class Cancelled(Exception):
    """Raised inside a job's work (by :meth:`Job.check`) once the job is cancelled."""


class Job:
    """One piece of background work and what became of it.

    ``state`` goes queued -> running -> done, failed or cancelled; ``result`` is the
    work's return value (JSON-ready), ``error`` the one-line message of a failure:
    the text of the :class:`~nonolab.errors.NonolabError`, as the CLI prints it.
    """

    def __init__(self, kind: str, owner: str | None = None, weight: int = 0):
        self.id = secrets.token_hex(16)   # 128 random bits: not to be guessed
        self.kind = kind
        self.owner = owner
        self.weight = weight   # the cells of its puzzle: what its result holds grows with them
        self.cancel = threading.Event()
        self.state = QUEUED
        self.progress = 0.0
        self.stage = "queued"
        self.result: Any = None
        self.partial: Any = None   # what the work has found so far (the page shows it before the end)
        self.error: str | None = None
        self.started = time.perf_counter()
        self.finished: float | None = None
        self._done = threading.Event()
        #: The work, held until it runs or the job is forgotten: a queued job's work holds its
        #: input (an image upload of up to the input limit), and a forgotten job waits in the
        #: workers' queue, cancelled, until a worker is free to drop it.
        self._work: Callable[["Job"], Any] | None = None

    def step(self, fraction: float, stage: str) -> None:
        """Report progress (0..1) and what is being done; stops a cancelled job here."""
        self.check()
        self.progress = max(0.0, min(1.0, fraction))
        self.stage = stage

    def publish(self, partial: Any) -> None:
        """Show what the work has found so far (JSON-ready) to whoever polls the job."""
        self.partial = partial

    def check(self) -> None:
        """Raise :class:`Cancelled` if the job was cancelled (between library calls)."""
        if self.cancel.is_set():
            raise Cancelled()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job has finished; whether it has."""
        return self._done.wait(timeout)

    def as_dict(self) -> dict[str, Any]:
        end = self.finished if self.finished is not None else time.perf_counter()
        return {"id": self.id, "kind": self.kind, "state": self.state, "progress": round(self.progress, 3),
                "stage": self.stage, "result": self.result, "partial": self.partial, "error": self.error,
                "seconds": round(end - self.started, 3)}

    def _run(self, work: Callable[["Job"], Any] | None = None) -> None:
        work, self._work = work or self._work, None
        try:
            self.check()
            if work is None:   # forgotten before it ran
                raise Cancelled()
            self.state = RUNNING
            self.stage = "started"
            result = work(self)
            if self.cancel.is_set():
                raise Cancelled()   # the library stopped early: its answer is not the answer
            self.result, self.progress, self.stage, self.state = result, 1.0, "done", DONE
            self.partial = None   # the result holds all of it: not kept twice
        except Cancelled:
            self.state, self.stage = CANCELLED, "cancelled"
        except NonolabError as err:
            self.error, self.state, self.stage = spoken(err), FAILED, "failed"
        except Exception as err:  # noqa: BLE001 — a bug: reported in the job, the server goes on
            self.error, self.state, self.stage = f"internal error: {type(err).__name__}: {err}", FAILED, "failed"
        finally:
            self.finished = time.perf_counter()
            self._done.set()


class Jobs:
    """The server's jobs: at most ``workers`` run at once, the rest wait in order;
    the most recent are remembered for polling: at most ``keep`` of them, and at most
    ``max_weight`` cells in all (a result, its solution and pictures, grows with its
    puzzle's cells; the newest job is always kept).  An older job is cancelled and forgotten.

    >>> jobs = Jobs(workers=1, max_weight=8)
    >>> first, second = jobs.start("a", lambda job: 1, weight=6), jobs.start("b", lambda job: 2, weight=6)
    >>> jobs.get(first.id) is None, jobs.get(second.id) is second
    (True, True)
    >>> jobs.close()
    """

    def __init__(self, workers: int = 2, keep: int = 200, max_weight: int | None = None):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nonolab-job")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._keep = keep
        self._max_weight = max_weight
        self._weight = 0
        self._lock = threading.Lock()

    def start(self, kind: str, work: Callable[[Job], Any], owner: str | None = None, weight: int = 0) -> Job:
        """Queue ``work``; ``owner`` (a session's token) is the only one :meth:`get` shows it to;
        ``weight``: the cells of its puzzle."""
        job = Job(kind, owner, weight)
        job._work = work
        with self._lock:
            self._jobs[job.id] = job
            self._weight += weight
            while len(self._jobs) > 1 and (len(self._jobs) > self._keep or (
                    self._max_weight is not None and self._weight > self._max_weight)):
                _, old = self._jobs.popitem(last=False)
                self._weight -= old.weight
                old.cancel.set()
                old._work = None   # its input goes now, not when a worker reaches it in the queue
        self._pool.submit(job._run)
        return job

    def get(self, job_id: str, owner: str | None = None) -> Job | None:
        """The job ``job_id``, if it was started by ``owner`` (None: a job started without one)."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None or not secrets.compare_digest(job.owner or "", owner or ""):
            return None
        return job

    def close(self) -> None:
        """Cancel every job and wait for the workers to stop."""
        with self._lock:
            for job in self._jobs.values():
                job.cancel.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
