"""The task table: what a batch does to one puzzle, as one JSON-able record.

A job is one puzzle of one file: a file holding several (a TAAI file, a webpbn
``<puzzleset>``, a JSON list or JSON Lines, concatenated ``.non`` files) gives one job per
puzzle, named by its 1-based ``index``; a puzzle of the set that cannot be read is its own
job's error record (``file:line: puzzle N: ...``), the others run.  A file that cannot be
read at all, or whose structure is broken, is one error record, index 1.  ``TASKS`` maps a name to ``function(puzzle, backend, time_limit) -> dict``.  Adding a
task is one function and one entry here; the worker processes, the Dask path and
the CLI (``--do``) all read the table.  Task functions import what they need
inside the function: the CLI imports this module at start-up, which must stay
cheap (no numpy, no solver).

``backend`` is one backend name, or several joined by commas for a task that runs
each of them (``verify``); every solver run gets ``time_limit`` seconds.

>>> sorted(TASKS)
['check', 'count', 'crosscheck', 'grade', 'solve', 'verify']
"""

from __future__ import annotations

import stat
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterator

from nonolab.errors import NonolabError, ParseError

#: The version of the record's names (the CLI's ``--json`` share them: nonolab/schemas).
#: 3: a puzzle that could not be checked has ``verdict`` null (no longer ``"error"``, which is
#: no verdict), ``status`` ``error`` and its one-line message in ``error``; a cross-check's
#: answers likewise.  4: a cross-check's ``verdict`` is the word its backends proved (it was
#: agree/disagree/inconclusive, with the word in ``consensus``); ``agreement`` says whether they
#: agree.  Earlier records are read as version 4 (:func:`~.results.upgraded`).
SCHEMA_VERSION = 4

#: The fields every record has, in the order they are written (a task adds others).
FIELDS = ("schema_version", "file", "index", "title", "task", "backend", "status", "verdict", "count", "exact",
          "time", "error", "width", "height")


@dataclass(frozen=True)
class Job:
    """One puzzle of a file (``index``, 1-based) and what to do with it.

    >>> Job("cat.non", "verify", "native,cnf", 10.0).budget(grace=2.0)
    22.0
    """

    path: str
    task: str
    backend: str
    time_limit: float | None = None
    index: int = 1
    #: The puzzle itself, in nonolab's JSON format, when it travels as data (to Dask
    #: workers that do not share the file system): ``path`` and ``index`` then only name it.
    text: str | None = None
    #: The threads its worker process may use (its share of the cores: the scheduler sets it,
    #: :func:`~nonolab.batch.guard.core_share`), given to a backend that declares a ``threads``
    #: option and was not given one (:meth:`run_spec`); ``None``: the backend's own default.
    threads: int | None = None

    @property
    def backends(self) -> tuple[str, ...]:
        from nonolab.harness.crosscheck import split_specs  # specs may hold commas

        return tuple(split_specs(self.backend))

    def budget(self, grace: float) -> float | None:
        """Wall-clock seconds after which the job is killed: the limit of every solver run, plus ``grace``.

        ``None`` (never killed) without a time limit, or with one longer than a wait can
        last (``threading.TIMEOUT_MAX``, 292 years: ``--time-limit 1e10`` raised an
        OverflowError from the wait for the worker's answer).
        """
        if self.time_limit is None:
            return None
        budget = self.time_limit * max(1, len(self.backends)) + grace
        return budget if budget < threading.TIMEOUT_MAX else None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def run_spec(self) -> str:
        """``backend`` as the job's process builds it: each spec given ``threads`` when its backend
        declares that option and the spec does not set it (the record keeps ``backend`` as asked).

        >>> Job("cat.non", "verify", "native,cnf", threads=1).run_spec()
        'native:threads=1,cnf'
        >>> Job("cat.non", "check", "native:threads=2", threads=1).run_spec()
        'native:threads=2'
        """
        if self.threads is None:
            return self.backend
        return ",".join(with_threads(spec, self.threads) for spec in self.backends)


def with_threads(spec: str, threads: int) -> str:
    """``spec`` with ``threads=N`` when its backend declares a ``threads`` option (read from the
    registry's declarations, never from a name) and ``spec`` does not set it already.

    >>> with_threads("native:probing=none", 2), with_threads("cnf", 2)
    ('native:probing=none,threads=2', 'cnf')
    """
    from nonolab.solvers import options_of, parse_spec

    try:
        name, given = parse_spec(spec)
        declared = {option.name for option in options_of(name)}
    except NonolabError:   # an unknown backend or a bad spec: building it says so, in the job's record
        return spec
    if "threads" not in declared or "threads" in given:
        return spec
    return f"{spec},threads={threads}" if ":" in spec else f"{spec}:threads={threads}"


_LOADED: dict[tuple[str, int, int], list] = {}


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return word
    return "not a file"


def load_puzzles(path: str) -> list:
    """Every puzzle of the file at ``path``, each read on its own (a puzzle, or the error that
    puzzle alone raised: :func:`nonolab.formats.load_each`); the last file read is kept, as a
    set's jobs usually follow one another in the same worker.

    Raises:
        NonolabError: the file cannot be read, or its structure is broken (one error for the file).
    """
    import os

    from nonolab.formats import load_each

    try:
        status = os.stat(path)
    except OSError:
        return load_each(path)  # its error names the file
    if not stat.S_ISREG(status.st_mode):
        # A FIFO would block the open until some writer came, a device never end: a batch
        # reads regular files only, and records the others as errors without opening them.
        raise ParseError(f"not a regular file ({_kind(status.st_mode)}): a batch reads regular files only",
                         path=str(path))
    key = (os.path.abspath(path), status.st_mtime_ns, status.st_size)
    if key not in _LOADED:
        _LOADED.clear()
        _LOADED[key] = load_each(path)
    return _LOADED[key]


def _puzzle(path: str, index: int):
    puzzles = load_puzzles(path)
    if not 1 <= index <= len(puzzles):
        raise NonolabError(f"puzzle {index} is out of range: the file holds {len(puzzles)}", path=path)
    if isinstance(puzzles[index - 1], NonolabError):
        raise puzzles[index - 1]   # that puzzle could not be read: its record says why, the others run
    return puzzles[index - 1]


def with_puzzle(job: Job) -> Job:
    """``job`` carrying its puzzle as data (read here, from ``job.path``), so that a worker
    without the file can run it.

    Raises:
        NonolabError: the file cannot be read or parsed, or has no such puzzle.
    """
    from dataclasses import replace

    from nonolab.formats import dumps

    return replace(job, text=dumps(_puzzle(job.path, job.index), "json"))


def _shipped(text: str):
    from nonolab.formats import loads

    return loads(text, "json")


def _solve(puzzle, backend: str, time_limit: float | None, max_solutions: int | None):
    from nonolab.solvers import build
    from nonolab.solvers.base import Limits

    result = build(backend).solve(puzzle, Limits(max_solutions, time_limit))
    return _fields(result), result


def _fields(result) -> dict[str, Any]:
    """A search's fields of a record: verdict, count, exact, solver_status."""
    from nonolab.harness.uniqueness import outcome_of

    outcome = outcome_of(result)  # None: a first solution (max_solutions 1), uniqueness not asked
    return {"verdict": outcome.value if outcome else None, "count": result.count,
            "exact": result.complete, "solver_status": result.status.value}


def check(puzzle, backend: str, time_limit: float | None) -> dict[str, Any]:
    """Count to 2: the verdict unique, multiple, contradiction or timeout."""
    record, _ = _solve(puzzle, backend, time_limit, 2)
    return record


def solve(puzzle, backend: str, time_limit: float | None) -> dict[str, Any]:
    """The first solution (rows of ``#`` and ``.``) under ``solution``: the search stops there.

    ``verdict`` is ``None`` when a solution was found and the search did not end (a
    first solution says nothing of uniqueness: ``check`` counts to 2); ``unique`` or
    ``contradiction`` when it ended; ``timeout`` when the limit came first.
    """
    record, result = _solve(puzzle, backend, time_limit, 1)
    record["solution"] = result.solution.to_text().splitlines() if result.solution is not None else None
    return record


def count(puzzle, backend: str, time_limit: float | None) -> dict[str, Any]:
    """Count every solution; ``exact`` says whether the count is exact.

    A count cut by the time limit has status ``timeout`` even when its verdict
    (``multiple``) is proven: the number asked for is not known.
    """
    record, result = _solve(puzzle, backend, time_limit, None)
    record["status"] = "ok" if result.complete else "timeout"
    return record


def crosscheck(puzzle, backend: str, time_limit: float | None) -> dict[str, Any]:
    """Run every backend named in ``backend`` and check that they agree: ``verdict`` is the word
    they proved (:meth:`~nonolab.harness.crosscheck.CrossCheck.consensus`), ``agreement`` agree,
    disagree, or inconclusive when none proved anything (then status ``timeout``)."""
    from nonolab.harness.crosscheck import crosscheck, split_specs

    checked = crosscheck(puzzle, split_specs(backend), 2, time_limit, capable_only=True)
    # A backend that could not run has no verdict (null) and says why in error.
    answers = [{"backend": a.backend, "verdict": a.verdict.value if a.verdict else None, "count": a.result.count if a.result else None,
                "exact": a.result.complete if a.result else None, "time": round(a.wall_time, 6),
                "error": a.error} for a in checked.answers]
    exact = [a["count"] for a in answers if a["exact"]]
    agreement = checked.agreement.value.lower()
    return {"verdict": checked.consensus().value, "agreement": agreement,
            "count": exact[0] if exact else max((a["count"] or 0 for a in answers), default=0),
            "exact": bool(exact), "problems": list(checked.problems), "answers": answers,
            "status": "timeout" if agreement == "inconclusive" else None}


def grade(puzzle, backend: str, time_limit: float | None) -> dict[str, Any]:
    """The weakest technique that solves it (``grade``), its verdict and steps.

    ``backend`` counts to 2 when deduction is not enough; ``time_limit`` covers the
    whole grading.  An ungraded puzzle (a limit ran out) has status ``timeout``; a
    contradiction has no grade and is answered (status ``ok``).
    """
    from nonolab.harness.classify import grade as grade_puzzle

    result = grade_puzzle(puzzle, backend, time_limit)
    data = result.as_dict()
    return {"verdict": data["verdict"], "grade": data["grade"], "pbnsolve_class": data["pbnsolve_class"],
            "harder_than": data["harder_than"], "steps": data["steps"],
            "count": None, "exact": None,
            # No grade and no limit: a contradiction (it was recorded as a timeout, exit 1).
            "status": "ok" if result.grade is not None or data["verdict"] == "contradiction" else "timeout"}


#: The tasks that run several backends on each puzzle (one backend for the others).
SEVERAL_BACKENDS = frozenset({"crosscheck", "verify"})

TASKS: dict[str, Callable[[str, str, float | None], dict[str, Any]]] = {
    "check": check,
    "solve": solve,
    "count": count,
    "crosscheck": crosscheck,
    "verify": crosscheck,   # the cross-check's first name, kept as an alias
    "grade": grade,
}


def new_record(job: Job, **fields: Any) -> dict[str, Any]:
    """A record of ``job`` with every field of :data:`FIELDS` (``None`` where unknown), then ``fields``."""
    record: dict[str, Any] = dict.fromkeys(FIELDS)
    record.update(schema_version=SCHEMA_VERSION, file=job.path, index=job.index, task=job.task,
                  backend=job.backend, **fields)
    return record


def run_job(job: Job) -> dict[str, Any]:
    """Run one job here, in this process, and return its record; never raises for a bad puzzle.

    ``status`` is ``ok`` (the task answered), ``timeout`` (no answer within the
    limit: by default, when the verdict is ``timeout``) or ``error`` (the puzzle could not
    be checked: unreadable, over a limit, a library error; ``verdict`` is then ``None``, for
    "error" is no verdict, and the one-line message is in ``error``).  ``time`` is the
    job's wall time, loading included.

    >>> record = run_job(Job("/nonexistent.non", "check", "native"))
    >>> record["status"], record["verdict"], record["error"]
    ('error', None, '/nonexistent.non: cannot read the file: No such file or directory')
    """
    record = new_record(job)
    start = time.perf_counter()
    try:
        try:
            task = TASKS[job.task]
        except KeyError:
            raise NonolabError(f"unknown task {job.task!r} (known: {', '.join(sorted(TASKS))})") from None
        puzzle = _loaded(job, record)
        record.update(_as_asked(task(puzzle, job.run_spec(), job.time_limit), job))
        _settle(record)
    except Exception as err:  # noqa: BLE001 — a crash on one puzzle is that puzzle's record, not the batch's end
        _failed(record, err)
    record["time"] = round(time.perf_counter() - start, 6)
    return record


def _as_asked(fields: dict[str, Any], job: Job) -> dict[str, Any]:
    """A cross-check's answers and problems under the specs the job asked for: without the
    ``threads`` its share of the cores added to them (:meth:`Job.run_spec`)."""
    if job.threads is None or not fields.get("answers"):
        return fields
    asked = {with_threads(spec, job.threads): spec for spec in job.backends}
    asked = {ran: spec for ran, spec in asked.items() if ran != spec}
    for answer in fields["answers"]:
        answer["backend"] = asked.get(answer["backend"], answer["backend"])
    problems = []
    for problem in fields.get("problems") or ():
        for ran in sorted(asked, key=len, reverse=True):
            problem = problem.replace(ran, asked[ran])
        problems.append(problem)
    fields["problems"] = problems
    return fields


def _loaded(job: Job, record: dict[str, Any]):
    puzzle = _puzzle(job.path, job.index) if job.text is None else _shipped(job.text)
    record.update(title=puzzle.name or None, width=puzzle.width, height=puzzle.height)
    return puzzle


def _settle(record: dict[str, Any]) -> None:
    if record["status"] is None:
        record["status"] = "timeout" if record["verdict"] == "timeout" else "ok"


def unchecked(record: dict[str, Any], message: str) -> dict[str, Any]:
    """``record`` as a puzzle that could not be checked: status ``error``, no verdict, ``message``.

    >>> unchecked({"verdict": "unique"}, "a.non: cannot read the file")
    {'verdict': None, 'status': 'error', 'error': 'a.non: cannot read the file'}
    """
    record.update(verdict=None, status="error", error=message)
    return record


def _failed(record: dict[str, Any], err: BaseException) -> None:
    unchecked(record, str(err) if isinstance(err, NonolabError) else f"{type(err).__name__}: {err}")


#: The tasks a worker may run on a group of jobs at once (:func:`run_jobs`), for a backend that
#: declares ``Capability.BATCH``: the compiled batch path answers their question (a count to 2).
GROUPED = frozenset({"check"})


def groupable(job: Job) -> bool:
    """Whether ``job`` may join a group (its task has a grouped form, its backend is one spec)."""
    return job.task in GROUPED and len(job.backends) == 1


def run_jobs(jobs: list[Job]) -> Iterator[dict[str, Any]]:
    """The records of ``jobs`` (one task of :data:`GROUPED`, one backend, one time limit), in
    order, each as soon as it is known: the records :func:`run_job` gives them one at a time,
    their puzzles answered by :func:`~nonolab.harness.uniqueness.check_many` (many a call into a
    compiled engine for a backend that declares ``Capability.BATCH``; every solution checked
    against the clues).  A job whose puzzle cannot be read, or whose search a library error
    stopped, has its error record; the others go on.  ``time`` is the job's reading plus its
    puzzle's search time.

    >>> [(r["status"], r["verdict"]) for r in run_jobs([Job("/nonexistent.non", "check", "native")])]
    [('error', None)]
    """
    from nonolab.harness.uniqueness import check_many
    from nonolab.solvers import build

    first = jobs[0]
    if any((j.task, j.backend, j.time_limit) != (first.task, first.backend, first.time_limit) or not groupable(j)
           for j in jobs):
        raise ValueError("run_jobs: a group is jobs of one grouped task, one backend and one time limit")
    started: list[tuple[dict[str, Any], Any, float]] = []   # (record, puzzle or None, seconds reading it)
    for job in jobs:
        record, start, puzzle = new_record(job), time.perf_counter(), None
        try:
            puzzle = _loaded(job, record)
        except Exception as err:  # noqa: BLE001 — as run_job: the job's record, not the group's end
            _failed(record, err)
        started.append((record, puzzle, time.perf_counter() - start))
    try:
        solver = build(first.run_spec())
    except NonolabError as err:
        for record, _, seconds in started:
            _failed(record, err)
            record["time"] = round(seconds, 6)
            yield record
        return
    answers = check_many((p for _, p, _ in started if p is not None), solver, first.time_limit, errors="yield")
    for at, (record, puzzle, seconds) in enumerate(started):
        if puzzle is not None:
            try:
                answer = next(answers)
            except Exception as err:  # noqa: BLE001 — a crash ends check_many: the rest one at a time
                _failed(record, err)
                record["time"] = round(seconds, 6)
                yield record
                yield from (run_job(job) for job in jobs[at + 1:])
                return
            if isinstance(answer, NonolabError):
                _failed(record, answer)
            else:
                record.update(_fields(answer.result))
                _settle(record)
                seconds += answer.result.stats.wall_time
        record["time"] = round(seconds, 6)
        yield record
