"""Run one task over many puzzle files: a local pool of worker processes, or a Dask cluster.

One job per puzzle: a file holding several (a TAAI file, a webpbn ``<puzzleset>``,
a JSON list) gives one job for each, keyed by (file, index); a puzzle of it that cannot be
read is its own job's error record, the others run.  Each job ends as one
JSON record (see :func:`~nonolab.batch.tasks.run_job`), appended to a JSON Lines
file as soon as it ends, so an interrupted batch resumes where it stopped.  Every
job runs in a long-lived worker process that is killed and replaced when the job
overruns its time limit (plus a grace), so a stuck backend costs one ``timeout``
record, never the batch.

>>> summary = run_batch(["puzzles/"], "check", "results.jsonl",    # doctest: +SKIP
...                     jobs=2, time_limit=20.0)
>>> summary.counts()                                               # doctest: +SKIP
{'unique': 17, 'multiple': 5, 'contradiction': 1}

This module imports only the standard library at load time (the CLI imports it
to list the tasks); the formats, solvers and Dask are imported when a batch runs.
"""

from __future__ import annotations

import fnmatch
import os
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from nonolab.batch.results import BatchSummary, ResultsFile, file_digest, is_current, latest, parse_records, record_keys
from nonolab.batch.tasks import FIELDS, SEVERAL_BACKENDS, TASKS, Job, run_job
from nonolab.errors import BatchError, InvalidArgument
from nonolab.solvers.base import require_time_limit

__all__ = ["FIELDS", "TASKS", "BatchSummary", "Job", "ResultsFile", "collect", "parse_records",
           "run_batch", "run_job"]


def _excluded(relative: str, patterns: Sequence[str]) -> bool:
    name = relative.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(name, p) for p in patterns)


def collect(paths: Iterable[str | os.PathLike], exclude: Sequence[str] = ()) -> list[str]:
    """The puzzle files to run: each file as given, and each file under a directory.

    Directories are walked recursively, in sorted order, for the suffixes some
    format reads (:func:`nonolab.formats.suffixes`), skipping hidden files and
    directories.  ``exclude`` holds glob patterns matched against a file's path
    relative to the directory named and against its name (``originals/*``,
    ``*.txt``).  A file reached twice is listed once.

    Raises:
        BatchError: a path does not exist, or no puzzle file was found.

    >>> collect(["puzzles/hakank"], exclude=["*2*"])                  # doctest: +SKIP
    ['puzzles/hakank/car.non', 'puzzles/hakank/hard.non', 'puzzles/hakank/lambda.non', 'puzzles/hakank/nonunique.non']
    """
    from nonolab.core.puzzle import require_many
    from nonolab.formats import suffixes

    require_many(paths, "collect", "paths")
    known = set(suffixes())
    found: dict[str, str] = {}
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    full = Path(root) / name
                    relative = full.relative_to(path).as_posix()
                    if (name.startswith(".") or full.suffix.lower() not in known
                            or _excluded(relative, exclude)):
                        continue
                    found.setdefault(os.path.abspath(full), str(full))
        elif path.exists():
            found.setdefault(os.path.abspath(path), str(path))
        else:
            raise BatchError("no such file or directory", path=str(given))
    if not found:
        raise BatchError("no puzzle files found in " + ", ".join(map(str, paths)))
    return list(found.values())


def _backend_for(task: str, backend: str | None) -> str:
    # Names are checked by the workers, which load the backends: a plugin module
    # (``preload``) may register a backend there that this process does not know.
    from nonolab.solvers import DEFAULT, names

    from nonolab.harness.crosscheck import split_specs

    chosen = split_specs(backend)
    if not chosen:
        chosen = names() if task in SEVERAL_BACKENDS else [DEFAULT]
    if task not in SEVERAL_BACKENDS and len(chosen) > 1:
        raise BatchError(f"task {task!r} runs one backend; several ({', '.join(chosen)}) are for crosscheck")
    return ",".join(chosen)


def _puzzles_in(path: str) -> int:
    """How many puzzles the file holds; 1 when it cannot be read (its job records the error)."""
    from nonolab.batch.tasks import load_puzzles
    from nonolab.errors import NonolabError

    try:
        return max(1, len(load_puzzles(path)))
    except (NonolabError, OSError):
        return 1


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _is_results_file(path: str, out: str | os.PathLike) -> bool:
    """Whether collected file ``path`` is the results file ``out`` (by any name).

    Raises:
        BatchError: it is, and holds something other than results (a puzzle that
            writing the results would replace).
    """
    from nonolab.batch.results import holds_results

    try:
        if not (os.path.abspath(path) == os.path.abspath(out) or os.path.samefile(path, out)):
            return False
    except OSError:   # no results file yet
        return False
    if not holds_results(path):
        raise BatchError(f"{{arg}} {out}: is one of the puzzle files of the batch ({path}); the results would "
                         f"replace it: write them to another file", argument="out")
    return True


def run_batch(paths: Iterable[str | os.PathLike], task: str, out: str | os.PathLike, *,
              jobs: int = 1, time_limit: float | None = None, backend: str | None = None,
              resume: bool = False, force: bool = False, scheduler: str | None = None,
              exclude: Sequence[str] = (), grace: float = 2.0, preload: Sequence[str] = (),
              on_start: Callable[[int, int], None] | None = None,
              on_record: Callable[[dict[str, Any]], None] | None = None,
              send_puzzles: bool = True, cancel: Any = None) -> BatchSummary:
    """Run ``task`` on every puzzle of the files of ``paths`` and append one record per puzzle to ``out``.

    Args:
        paths: files and directories (see :func:`collect`).
        task: a name of :data:`TASKS`: ``check``, ``solve``, ``count``, ``grade`` or ``crosscheck`` (alias ``verify``).
        out: the JSON Lines results file.
        jobs: worker processes of the local pool (ignored with ``scheduler``).
        time_limit: seconds per solver run, passed to the solver; a job still running
            ``grace`` seconds after it (times the backends it runs) is killed and
            recorded as ``timeout``.  ``None``: no limit, no kill.
        backend: the backend or spec (default :data:`nonolab.solvers.DEFAULT`); for
            ``verify``, several joined by commas (default: every registered one).
        resume: keep the records already in ``out`` and run only the missing puzzles.
        force: replace ``out``.  With neither flag, an existing non-empty ``out`` is
            refused, so no results are lost.
        scheduler: a Dask scheduler address (``tcp://host:8786``); needs the
            ``distributed`` extra.
        exclude: glob patterns of files to leave out of directories.
        grace: see ``time_limit``.
        preload: modules every worker imports before its first job (plugins that
            register backends or tasks).
        on_start: called once as ``on_start(to_run, already_done)``.
        on_record: called with each new record, after it is written to ``out``.
        send_puzzles: with ``scheduler``, each job carries its puzzle as data, so the
            workers need not see the files (else they read them at the same paths).
        cancel: a ``threading.Event``; with ``scheduler``, once it is set the records stop
            and the workers' solving processes of this batch are stopped (Dask cannot stop
            a running task; the CLI sets it on Ctrl-C). The puzzles not answered have no
            record: run again with ``resume``.

    Records name each file as it was collected (relative paths stay relative) and
    the puzzle's 1-based ``index`` in it; ``resume`` matches them to (file, index, task,
    backend) with files as absolute paths from the current directory.

    Returns:
        The :class:`BatchSummary` of every collected puzzle, earlier records included.

    Raises:
        BatchError: no puzzle files, or ``out`` cannot be used as asked.
        UnknownBackend, BackendUnavailable: the backend (or Dask) cannot run.
    """
    if str(out) == "-":   # a results file is appended to, locked and resumed: standard output is none of these
        raise BatchError("the results go to a file that batch appends to and resumes from, not to standard "
                         "output (-): give --out results.jsonl")
    if task not in TASKS:
        raise BatchError(f"unknown task {task!r} (known: {', '.join(sorted(TASKS))})")
    if jobs < 1:
        raise InvalidArgument("run_batch: jobs must be at least 1")
    require_time_limit(time_limit, "run_batch")
    # The results file itself is no puzzle, even where a directory scan finds it (out.json);
    # a puzzle file as the results file is refused, force or not (it would be replaced).
    files = [f for f in collect(paths, exclude) if not _is_results_file(f, out)]
    if not files:
        raise BatchError("no puzzle files to run besides the results file", path=str(out))
    backend = _backend_for(task, backend)
    start = time.perf_counter()
    connection = None
    if scheduler is not None:  # reached (or refused) before the results file is created
        from nonolab.batch.cluster import connect
        connection = connect(scheduler)
    workers = _Workers(jobs, scheduler, grace, tuple(preload), send_puzzles, connection, cancel)
    try:
        wanted = [Job(f, task, backend, time_limit, index) for f in files for index in range(1, _puzzles_in(f) + 1)]
        summary = _run(wanted, task, out, resume, force, workers, on_start, on_record)
    finally:
        if connection is not None:
            connection[0].close()
    summary.wall_time = time.perf_counter() - start
    return summary


@dataclass(frozen=True)
class _Workers:
    """Where the jobs run: a local pool of ``jobs`` processes, or the Dask ``scheduler``
    (through ``connection``, reached before the results file is made)."""

    jobs: int
    scheduler: str | None
    grace: float
    preload: tuple[str, ...]
    send_puzzles: bool
    connection: Any = None
    cancel: Any = None     # a threading.Event: stops a Dask run and its workers' children


def _run(jobs_wanted: list[Job], task: str, out: str | os.PathLike, resume: bool, force: bool, workers: _Workers,
         on_start: Callable[[int, int], None] | None,
         on_record: Callable[[dict[str, Any]], None] | None) -> BatchSummary:
    start = time.perf_counter()
    with ResultsFile(out, resume=resume, force=force) as results:
        wanted = {(os.path.abspath(j.path), j.index, task, j.backend) for j in jobs_wanted}
        # Each file's bytes as they are now: a record of a file edited since is not an answer to it.
        digests = {path: file_digest(path) for path in {os.path.abspath(j.path) for j in jobs_wanted}}
        earlier = [r for r in latest(results.records).values() if wanted & record_keys(r) and is_current(r, digests)]
        done = {key for r in earlier for key in record_keys(r)}
        todo = [j for j in jobs_wanted if (os.path.abspath(j.path), j.index, task, j.backend) not in done]
        # The biggest files first: a long job started last would leave the other workers idle.
        todo.sort(key=lambda job: -_size(job.path))
        if on_start is not None:
            on_start(len(todo), len(earlier))
        new: list[dict[str, Any]] = []
        if todo:
            # closing(): whatever stops this loop, the workers are stopped with it.
            with closing(_execute(todo, workers)) as records:
                for record, more in records:
                    digest = digests.get(os.path.abspath(record["file"]))
                    if digest is not None:
                        record = {**record, "digest": digest}
                    results.append(record, sync=not more)   # records that come together share one fsync
                    new.append(record)
                    if on_record is not None:
                        on_record(record)
    return BatchSummary(earlier + new, len(new), time.perf_counter() - start,
                        None if workers.scheduler else workers.jobs, str(out), workers.scheduler)


def _execute(todo: list[Job], workers: _Workers):
    """(record, whether another is already waiting), as each job ends."""
    if workers.scheduler is not None:
        from nonolab.batch.cluster import run_on_dask
        yield from ((record, False) for record in run_on_dask(todo, workers.scheduler, workers.grace,
                                                               workers.preload, workers.connection,
                                                               workers.send_puzzles, workers.cancel))
        return
    from nonolab.batch.guard import LocalPool

    with LocalPool(min(workers.jobs, len(todo)), todo[0].backends, workers.grace, workers.preload) as pool:
        yield from ((record, pool.waiting()) for record in pool.run(todo))
