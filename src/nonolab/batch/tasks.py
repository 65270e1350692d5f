"""The task table: what a batch does to one puzzle file, as one JSON-able record.

``TASKS`` maps a name to ``function(path, backend, time_limit) -> dict``.  Adding a
task is one function and one entry here; the worker processes, the Dask path and
the CLI (``--do``) all read the table.  Task functions import what they need
inside the function: the CLI imports this module at start-up, which must stay
cheap (no numpy, no solver).

``backend`` is one backend name, or several joined by commas for a task that runs
each of them (``verify``); every solver run gets ``time_limit`` seconds.

>>> sorted(TASKS)
['check', 'count', 'grade', 'solve', 'verify']
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any, Callable

from nonolab.errors import NonolabError

#: The fields every record has, in the order they are written (a task adds others).
FIELDS = ("file", "task", "backend", "status", "verdict", "count", "complete", "time", "error")


@dataclass(frozen=True)
class Job:
    """One puzzle file and what to do with it.

    >>> Job("cat.non", "verify", "native,cnf", 10.0).budget(grace=2.0)
    22.0
    """

    path: str
    task: str
    backend: str
    time_limit: float | None = None

    @property
    def backends(self) -> tuple[str, ...]:
        return tuple(b for b in self.backend.split(",") if b)

    def budget(self, grace: float) -> float | None:
        """Wall-clock seconds after which the job is killed: the limit of every solver run, plus ``grace``.

        ``None`` (never killed) without a time limit.
        """
        if self.time_limit is None:
            return None
        return self.time_limit * max(1, len(self.backends)) + grace

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _load(path: str):
    from nonolab.formats import load
    return load(path)


def _size(puzzle) -> dict[str, Any]:
    return {"width": puzzle.width, "height": puzzle.height}


def _solve(path: str, backend: str, time_limit: float | None, max_solutions: int | None):
    from nonolab.harness.uniqueness import verdict_of
    from nonolab.solvers import get
    from nonolab.solvers.base import Limits

    puzzle = _load(path)
    result = get(backend).solve(puzzle, Limits(max_solutions, time_limit))
    record = {"verdict": verdict_of(result).value, "count": result.count, "complete": result.complete,
              "solver_status": result.status.value, **_size(puzzle)}
    return record, result


def check(path: str, backend: str, time_limit: float | None) -> dict[str, Any]:
    """Count to 2: the verdict unique, multiple, contradiction or timeout."""
    record, _ = _solve(path, backend, time_limit, 2)
    return record


def solve(path: str, backend: str, time_limit: float | None) -> dict[str, Any]:
    """As ``check``, plus the first solution (rows of ``#`` and ``.``) under ``solution``."""
    record, result = _solve(path, backend, time_limit, 2)
    record["solution"] = result.solution.to_text().splitlines() if result.solution is not None else None
    return record


def count(path: str, backend: str, time_limit: float | None) -> dict[str, Any]:
    """Count every solution; ``complete`` says whether the count is exact.

    A count cut by the time limit has status ``timeout`` even when its verdict
    (``multiple``) is proven: the number asked for is not known.
    """
    record, result = _solve(path, backend, time_limit, None)
    record["status"] = "ok" if result.complete else "timeout"
    return record


def verify(path: str, backend: str, time_limit: float | None) -> dict[str, Any]:
    """Run every backend named in ``backend`` and check that they agree (``verdict``: agree/disagree)."""
    from nonolab.harness.crosscheck import crosscheck

    puzzle = _load(path)
    checked = crosscheck(puzzle, [b for b in backend.split(",") if b], 2, time_limit)
    answers = [{"backend": a.backend, "verdict": a.verdict, "count": a.result.count if a.result else None,
                "complete": a.result.complete if a.result else None, "time": round(a.wall_time, 6),
                "error": a.error} for a in checked.answers]
    exact = [a["count"] for a in answers if a["complete"]]
    return {"verdict": checked.verdict.lower(), "consensus": checked.consensus().value,
            "count": exact[0] if exact else max((a["count"] or 0 for a in answers), default=0),
            "complete": bool(exact), "problems": list(checked.problems), "answers": answers,
            **_size(puzzle)}


def grade(path: str, backend: str, time_limit: float | None) -> dict[str, Any]:
    """The weakest technique that solves it (``grade``), its verdict and steps.

    ``backend`` counts to 2 when deduction is not enough; ``time_limit`` covers the
    whole grading.  An ungraded puzzle (a limit ran out) has status ``timeout``.
    """
    from nonolab.harness.classify import grade as grade_puzzle

    puzzle = _load(path)
    result = grade_puzzle(puzzle, time_limit, search_backend=backend)
    data = result.as_dict()
    return {"verdict": result.verdict, "grade": data["grade"], "pbnsolve_class": data["pbnsolve_class"],
            "harder_than": data["harder_than"], "steps": data["steps"],
            "count": None, "complete": result.grade is not None,
            "status": "ok" if result.grade is not None else "timeout", **_size(puzzle)}


TASKS: dict[str, Callable[[str, str, float | None], dict[str, Any]]] = {
    "check": check,
    "solve": solve,
    "count": count,
    "verify": verify,
    "grade": grade,
}


def new_record(job: Job, **fields: Any) -> dict[str, Any]:
    """A record of ``job`` with every field of :data:`FIELDS` (``None`` where unknown), then ``fields``."""
    record: dict[str, Any] = dict.fromkeys(FIELDS)
    record.update(file=job.path, task=job.task, backend=job.backend, **fields)
    return record


def run_job(job: Job) -> dict[str, Any]:
    """Run one job here, in this process, and return its record; never raises for a bad puzzle.

    ``status`` is ``ok`` (the task answered), ``timeout`` (no answer within the
    limit: by default, when the verdict is ``timeout``) or ``error`` (it could not
    run: the one-line message is in ``error``).  ``time`` is the job's wall time, loading
    included.

    >>> record = run_job(Job("/nonexistent.non", "check", "native"))
    >>> record["status"], record["verdict"], record["error"]
    ('error', 'error', '/nonexistent.non: cannot read the file: No such file or directory')
    """
    record = new_record(job)
    start = time.perf_counter()
    try:
        try:
            task = TASKS[job.task]
        except KeyError:
            raise NonolabError(f"unknown task {job.task!r} (known: {', '.join(sorted(TASKS))})") from None
        record.update(task(job.path, job.backend, job.time_limit))
        if record["status"] is None:
            record["status"] = "timeout" if record["verdict"] == "timeout" else "ok"
    except NonolabError as err:
        record.update(status="error", verdict="error", error=str(err))
    except Exception as err:  # noqa: BLE001 — a crash on one puzzle is that puzzle's record, not the batch's end
        record.update(status="error", verdict="error", error=f"{type(err).__name__}: {err}")
    record["time"] = round(time.perf_counter() - start, 6)
    return record
