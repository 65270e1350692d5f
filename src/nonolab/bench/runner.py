"""The runs of a benchmark: who runs (contenders), in which order, and one record per run.

The plan interleaves: puzzle by puzzle, each repetition with the contenders in a
rotated order, so that a busy moment of a shared machine falls on every contender
alike and none always runs first after a cold cache.  ``jobs`` threads take runs from
the plan in order; each run is a process (or a job of a long-lived worker), so the
threads only wait.

A record is one plain dict with the keys of :data:`FIELDS` (the columns of
``runs.csv``).
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from nonolab.bench.externals import External
from nonolab.bench.spawn import Spawner
from nonolab.bench.suites import Item
from nonolab.bench.workers import CHILD, Tree, Worker
from nonolab.errors import BenchError

#: The columns of runs.csv, in order.
FIELDS = ("puzzle", "source", "width", "height", "solver", "kind", "tree", "repeat", "slot", "task", "status",
          "verdict", "count", "exact", "checked", "solved", "wall", "cpu", "peak_rss_mb", "load", "exit_code", "killed",
          "line_solves", "probes", "nodes", "conflicts", "winner", "error", "started")
#: The verdicts that are an answer (for ``solved``): proven, within the limit.
PROVEN = ("unique", "multiple", "contradiction", "solved")
#: How the ``error`` of a row of a puzzle that could not be read begins (its located error follows).
UNREAD = "could not be read: "
#: Seconds a nonolab run may go past the limit before its process is killed: it stops
#: itself at the limit, and a run over the limit is a timeout whatever it answers.
GRACE = 1.0


@dataclass(frozen=True)
class Contender:
    """One solver of the comparison: a nonolab spec in a tree, or an external program."""

    label: str
    spec: str | None = None
    tree: Tree | None = None
    external: External | None = None

    @property
    def kind(self) -> str:
        return "external" if self.external is not None else "nonolab"

    def version(self) -> tuple[str, Tree]:
        """The spec and tree of a nonolab contender.

        Raises:
            BenchError: it has no spec or no tree (an external, or a contender made wrong).
        """
        if self.spec is None or self.tree is None:
            raise BenchError(f"{self.label}: not a nonolab spec in a tree")
        return self.spec, self.tree


@dataclass(frozen=True)
class Run:
    puzzle: int     # index into the items
    repeat: int     # 1-based
    slot: int       # its place in this repetition's order (0: first)
    contender: Contender


def plan(puzzles: int, repeat: int, contenders: Sequence[Contender]) -> Iterator[Run]:
    """Puzzle by puzzle, each repetition with the contenders in a rotated order.

    >>> [(r.puzzle, r.repeat, r.contender.label) for r in plan(2, 1, [Contender("a"), Contender("b")])]
    [(0, 1, 'a'), (0, 1, 'b'), (1, 1, 'b'), (1, 1, 'a')]
    """
    n = len(contenders)
    for p in range(puzzles):
        for r in range(repeat):
            k = (p * repeat + r) % n
            for slot, contender in enumerate(list(contenders[k:]) + list(contenders[:k])):
                yield Run(p, r + 1, slot, contender)


class Files:
    """The puzzles on disk: a ``.non`` file for nonolab's children and each external's
    suffixes, written once each in ``folder``."""

    def __init__(self, folder: str, items: Sequence[Item]):
        self.folder, self.items = folder, items
        self._lock = threading.Lock()
        self._written: dict[tuple[int, str], str] = {}

    def path(self, index: int, suffix: str) -> str:
        """The puzzle ``index`` written as ``suffix`` (``non``, ``nin``, ...).

        Raises:
            NonolabError: its writer cannot express the puzzle (a colour puzzle as .nin).
        """
        key = (index, suffix)
        with self._lock:
            if key not in self._written:
                from nonolab.formats import dumps, format_for_path

                fmt = format_for_path(f"x.{suffix}") or suffix
                target = os.path.join(self.folder, f"p{index + 1:05d}.{suffix}")
                text = dumps(self.items[index].read(), fmt)
                Path(target).write_text(text, encoding="utf-8")
                self._written[key] = target
            return self._written[key]


class _Either:
    """Set when either event is (what the runs poll: ``is_set()`` only)."""

    def __init__(self, own: threading.Event, other: threading.Event):
        self.own, self.other = own, other

    def is_set(self) -> bool:
        return self.own.is_set() or self.other.is_set()


def _load() -> float:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return float("nan")


def _last_json(text: str) -> dict | None:
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


class Runner:
    """Runs of one benchmark; :meth:`record` of a run is its row.

    Args:
        items: the puzzles.
        task: ``check``, ``solve`` or ``count``.
        time_limit: wall-clock seconds per run (None: none).
        isolate: ``process`` (one process per nonolab run) or ``worker``.
        files: the puzzles on disk.
        spawner: starts the processes.
        cancel: the caller's: set to stop (Ctrl-C), the runs under way are killed and not recorded.

    ``halt`` stops the runs the same way when one of them failed (:func:`execute`); it is
    the runner's own, so a failure is never taken for the caller's cancel (the command
    would say "interrupted" of a full disk, and a library caller's event would stay set).
    ``cancel`` is what the runs watch: either of the two.
    """

    def __init__(self, items: Sequence[Item], task: str, time_limit: float | None, isolate: str, files: Files,
                 spawner: Spawner, cancel: threading.Event):
        self.items, self.task, self.time_limit, self.isolate = items, task, time_limit, isolate
        self.files, self.spawner, self.interrupt = files, spawner, cancel
        self.halt = threading.Event()
        self.cancel = _Either(self.halt, cancel)
        self._local = threading.local()
        self._workers: list[Worker] = []
        self._lock = threading.Lock()

    def record(self, run: Run) -> dict | None:
        """The row of ``run``, or None when it was cancelled part way."""
        item = self.items[run.puzzle]
        contender = run.contender
        row: dict[str, Any] = dict.fromkeys(FIELDS, "")
        row.update(puzzle=item.name, source=item.source, width=item.puzzle.width if item.puzzle else "",
                   height=item.puzzle.height if item.puzzle else "",
                   solver=contender.label, kind=contender.kind, tree=contender.tree.label if contender.tree else "",
                   repeat=run.repeat, slot=run.slot, task=self.task, load=_load(),
                   started=time.strftime("%Y-%m-%dT%H:%M:%S"))
        if item.puzzle is None:   # a set's puzzle that could not be read: its row, given to no solver
            return finish(dict(row, status="error", verdict=None, error=f"{UNREAD}{item.error}"), self.time_limit)
        if contender.external is not None:
            answer = self._external(run.puzzle, contender.external)
        elif self.isolate == "worker":
            answer = self._worker(run.puzzle, contender)
        else:
            answer = self._process(run.puzzle, contender)
        if answer is None or self.cancel.is_set():
            return None
        row.update(answer)
        return finish(row, self.time_limit)

    def _process(self, index: int, contender: Contender) -> dict | None:
        path = self.files.path(index, "non")
        spec, tree = contender.version()
        command = [tree.python, CHILD, "run", "--spec", spec, "--task", self.task,
                   "--puzzle", path, "--started", repr(time.time())]
        if self.time_limit is not None:
            command += ["--time-limit", repr(self.time_limit)]
        limit = None if self.time_limit is None else self.time_limit + GRACE
        ran = self.spawner.run(command, limit, env=tree.env, cancel=self.cancel)
        if self.cancel.is_set():
            return None
        figures = dict(wall=ran.wall, cpu=ran.cpu, peak_rss_mb=ran.peak_rss_mb, exit_code=ran.exit_code,
                       killed=ran.killed)
        answer = _last_json(ran.stdout)
        if ran.killed:
            return {**figures, "verdict": "timeout", "error": "killed at the limit"}
        if answer is None:
            return {**figures, "status": "error", "verdict": None,
                    "error": f"no answer (exit code {ran.exit_code}): {_last_line(ran.stderr)}"}
        return {**figures, **_flatten(answer)}

    def _worker(self, index: int, contender: Contender) -> dict | None:
        workers = self._local.__dict__.setdefault("workers", {})
        worker = workers.get(contender.label)
        if worker is None:
            spec, tree = contender.version()
            worker = workers[contender.label] = Worker(tree, spec)
            with self._lock:
                self._workers.append(worker)
        job = {"task": self.task, "puzzle": self.files.path(index, "non"), "time_limit": self.time_limit}
        budget = None if self.time_limit is None else self.time_limit + GRACE
        started = time.perf_counter()
        answer = worker.run(job, budget, self.cancel)
        if self.cancel.is_set():
            return None
        if answer.get("killed"):
            return {"verdict": "timeout", "killed": True, "wall": time.perf_counter() - started,
                    "error": "its worker was killed at the limit"}
        return _flatten(answer)

    def _external(self, index: int, external: External) -> dict | None:
        item = self.items[index]
        if item.read().is_colour and not external.colour:   # its declared capability, as a backend's
            return {"status": "refused", "verdict": None,
                    "error": f"{external.name} solves black-and-white puzzles only (its definition does not "
                             f"declare colour = true)"}
        if item.read().givens and not external.givens:   # read without them, it would answer another puzzle
            return {"status": "refused", "verdict": None,
                    "error": f"{external.name} does not take given cells (its definition does not declare "
                             f"givens = true)"}
        try:
            files = {suffix: self.files.path(index, suffix) for suffix in external.suffixes(self.task)}
            own = item.file or self.files.path(index, "non")
            command = external.command(self.task, files, own, self.time_limit)
        except Exception as err:  # noqa: BLE001 — a puzzle its format cannot hold: this run's error
            return {"status": "error", "verdict": None, "error": f"cannot give it the puzzle: {err}"}
        try:
            ran = self.spawner.run(command, self.time_limit, cancel=self.cancel)
        except OSError as err:
            return {"status": "error", "verdict": None, "error": f"cannot start it: {err}"}
        if self.cancel.is_set():
            return None
        answer: dict[str, Any] = dict(wall=ran.wall, cpu=ran.cpu, peak_rss_mb=ran.peak_rss_mb,
                                      exit_code=ran.exit_code, killed=ran.killed)
        if ran.killed:
            return {**answer, "verdict": "timeout", "error": "its process group was killed at the limit"}
        verdict = external.verdict(ran.stdout, ran.exit_code, ran.stderr)
        if verdict is None:
            return {**answer, "status": "error", "verdict": None,
                    "error": f"no verdict in its output (exit code {ran.exit_code}): "
                    f"{_last_line(ran.stdout) or _last_line(ran.stderr)}"}
        if self.task == "solve" and verdict in ("unique", "multiple"):
            verdict = "solved"
        elif self.task != "solve" and verdict == "solved":
            return {**answer, "status": "error", "verdict": None,
                    "error": "it found a solution but did not say whether it is unique"}
        answer.update(verdict=verdict, count={"unique": 1, "multiple": 2, "solved": 1}.get(verdict, 0),
                      exact=verdict in ("unique", "contradiction"), checked=0)
        if external.grid is not None and verdict in ("unique", "multiple", "solved"):
            found, problem = check_grid(external, ran.stdout, item)
            if problem:
                answer.update(verdict="wrong", error=problem)
            elif found:   # a checked solution: a proof the puzzle has one (judge)
                answer.update(checked=1)
        return answer

    def close(self) -> None:
        """Stop every worker process."""
        with self._lock:
            workers, self._workers = self._workers, []
        for worker in workers:
            worker.close()


def check_grid(external: External, stdout: str, item: Item) -> tuple[bool, str]:
    """Whether the external printed a grid, and why it breaks the clues ('' when it is right or absent)."""
    from nonolab.core import Solution, violations

    puzzle = item.read()
    if external.grid is None:  # it prints no grid we can read
        return False, ""
    rows = external.grid.find(stdout, puzzle.width, puzzle.height)
    if rows is None:
        return False, ""
    problems = violations(puzzle, Solution.from_rows(rows))
    return True, f"its grid breaks the clues: {'; '.join(problems[:3])}" if problems else ""


def _flatten(answer: dict) -> dict:
    out = {k: v for k, v in answer.items() if k != "counters"}
    out.update(answer.get("counters") or {})
    return out


def finish(row: dict, time_limit: float | None) -> dict:
    """Round the figures, and apply the one rule for everyone: over the limit is a timeout.

    Every run passes here, whoever answered (a child of any nonolab version, a worker, an
    external program): a run that could not be run or gave no answer has no verdict, for
    error is none of the words: ``verdict`` ``None``, ``status`` ``error`` and the reason in
    ``error`` (a child of a nonolab version before this one says ``"verdict": "error"``, read
    the same); a run whose backend refused the puzzle by a declared limit or capability keeps
    ``status`` ``refused`` (no verdict either, the reason in ``error``); any other run has
    ``status`` ``ok``.

    >>> row = finish({"wall": 0.1, "cpu": "", "peak_rss_mb": "", "verdict": "error", "error": "x"}, 10.0)  # an old child
    >>> row["status"], row["verdict"], row["solved"]
    ('error', None, False)
    """
    if row.get("status") == "refused":
        row.update(verdict=None)
    elif row.get("verdict") in ("error", None, ""):
        row.update(verdict=None, status="error", error=row.get("error") or "no answer")
    else:
        row["status"] = "ok"
    for key in ("wall", "cpu"):
        if isinstance(row[key], float):
            row[key] = round(row[key], 6)
    if isinstance(row["peak_rss_mb"], float):
        row["peak_rss_mb"] = round(row["peak_rss_mb"], 1)
    if time_limit is not None and isinstance(row["wall"], float) and row["wall"] > time_limit \
            and row["verdict"] in PROVEN:
        row.update(verdict="timeout", error=f"answered {row['verdict']} after the limit")
    row["solved"] = row["verdict"] in PROVEN
    return row


def execute(runs: Sequence[Run], runner: Runner, jobs: int, emit: Callable[[dict], None]) -> bool:
    """Run every run, ``jobs`` at a time in plan order; ``emit`` each row as it ends.

    Returns False when it was cancelled before the end.
    """
    pending = iter(runs)
    lock = threading.Lock()
    failure: list[BaseException] = []

    def work() -> None:
        while not runner.cancel.is_set():
            with lock:
                run = next(pending, None)
            if run is None:
                return
            try:
                row = runner.record(run)
            except BaseException as err:  # noqa: BLE001 — handed to the caller's thread
                failure.append(err)
                runner.halt.set()   # the other runs stop; the caller's cancel is not touched
                return
            if row is not None:
                with lock:
                    emit(row)

    threads = [threading.Thread(target=work, name=f"nonolab-bench-{i}", daemon=True) for i in range(max(1, jobs))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.1)
    finally:
        runner.close()
    if failure:
        raise failure[0]
    return not runner.interrupt.is_set()
