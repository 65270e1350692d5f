"""One-shot SAT solvers (Kissat, :mod:`.kissat`) in a worker process that can be killed.

python-sat's Kissat cannot be interrupted (no ``interrupt()``, no conflict budget)
and is not incremental (a clause added after ``solve()`` aborts the process).  So it
runs in a child process (``python -m nonolab.solvers.cnf.oneshot``) that encodes the
puzzle itself, and the parent kills it at the deadline, on ``limits.cancel`` and when
the waiting caller is interrupted (Ctrl-C): a limit holds to within the parent's poll
(50 ms) plus the time to reap a killed process.

Counting stays exact by re-solving: after each solution the child builds a fresh
solver with every solution so far blocked (a clause on the cells) and solves again,
until the formula is unsatisfiable.  Each further solution therefore costs a whole
solve from scratch (on Gettys about as long as the first), where an incremental
solver pays a fraction; plus, once per call, a Python start-up and the encoding in
the child (0.1-0.3 s on the survey's puzzles).

Protocol: the parent writes one JSON line per job on the child's stdin (``solver``,
``rows``, ``columns``, ``extra`` clauses, ``max_solutions``); the child answers with
lines ``E <encode seconds>``, then ``S <0/1 per cell>`` per solution, then ``UNSAT``
(the search space is exhausted) or ``DONE`` (``max_solutions`` reached).  A child
that finished its job is kept for the next one (a fresh one costs about 0.1 s); a
child stopped by a limit is killed, never reused.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Budget
from nonolab.solvers.size import refuse_held

__all__ = ["run_one_shot"]

# How often the parent looks at the clock and the cancel while the child searches.
_POLL = 0.05


class _Worker:
    """One child process and the thread that reads its answers into a queue."""

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parents[3])  # the nonolab this process imported
        env = {**os.environ,
               "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
        # Its own session: a terminal's Ctrl-C reaches this process only, which then kills the child.
        self.child = _started(lambda: subprocess.Popen(
            [sys.executable, "-m", "nonolab.solvers.cnf.oneshot"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True))
        assert self.child.stdin and self.child.stdout and self.child.stderr   # all three opened with PIPE
        self.stdin, self.stdout, self.stderr = self.child.stdin, self.child.stdout, self.child.stderr
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name="nonolab-oneshot-reader").start()

    def _read(self) -> None:
        try:
            for line in self.stdout:
                self.lines.put(line)
        except (OSError, ValueError):   # kill() closed the pipe under the loop: the answers end there too
            pass
        finally:
            self.lines.put(None)

    def kill(self) -> None:
        """End the child at once (SIGKILL: a solve in progress has no way to stop sooner) and reap it."""
        if self.child.poll() is None:
            self.child.kill()
        self.child.wait()
        for stream in (self.stdin, self.stdout, self.stderr):
            try:
                stream.close()
            except (OSError, ValueError):  # closed already, or a pipe broken by the kill
                pass


# The thread that starts every worker (made once, lives as long as the process).  The child
# asks Linux to kill it when its parent dies (``_die_with_parent``), and for Linux the parent
# is the *thread* that started it: a worker started by a race part's thread (auto's rival),
# then kept idle, died with that thread, under the next call that had taken it (SIGKILL,
# "worker died (exit code -9)").
_STARTER_LOCK = threading.Lock()
_STARTER: dict[str, Any] = {}   # "thread" and its "queue" of (start, box, done)


def _starter(jobs: queue.SimpleQueue) -> None:
    while True:
        start, box, done = jobs.get()
        try:
            box.append(start())
        except BaseException as exc:  # noqa: BLE001 -- raised in the thread that asked
            box.append(exc)
        finally:
            done.set()


def _started(start: Any) -> subprocess.Popen:
    """``start()`` (a ``Popen``) run in the starter thread; its child or its error."""
    with _STARTER_LOCK:
        if not (_STARTER and _STARTER["thread"].is_alive()):   # (first, or in a forked child)
            jobs: queue.SimpleQueue = queue.SimpleQueue()
            thread = threading.Thread(target=_starter, args=(jobs,), daemon=True, name="nonolab-oneshot-starter")
            thread.start()
            _STARTER.update(thread=thread, queue=jobs)
        jobs = _STARTER["queue"]
    box: list[Any] = []
    done = threading.Event()
    jobs.put((start, box, done))
    done.wait()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


# Idle workers, kept for the next call: a fresh Python with python-sat costs about
# 0.1 s to start, more than a small puzzle takes to solve.
_IDLE: list[_Worker] = []
_IDLE_LOCK = threading.Lock()


@atexit.register
def _end_idle_workers() -> None:
    with _IDLE_LOCK:
        while _IDLE:
            _IDLE.pop().kill()


def _take() -> _Worker:
    with _IDLE_LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.child.poll() is None:
                return worker
    return _Worker()


def _give_back(worker: _Worker) -> None:
    with _IDLE_LOCK:
        if len(_IDLE) < 2:  # one per race part is enough
            _IDLE.append(worker)
            return
    worker.kill()


def _resident(pid: int) -> int | None:
    """The resident memory of process ``pid`` in bytes (Linux's ``/proc``; ``None`` elsewhere,
    or once it has gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def run_one_shot(solver: str, puzzle: Puzzle, extra: list[list[int]], max_solutions: int | None,
                 watch: Budget, max_memory: int | None = None) -> tuple[list[Solution], bool, bool, dict[str, Any]]:
    """Solutions of ``puzzle`` (plus the ``extra`` clauses) found by ``solver`` in a
    killable child: ``(found, complete, stopped, counters)``.

    ``stopped`` is True when the deadline or the cancel ended the search (the child is
    then killed); ``found`` holds the solutions the child reported before that.
    The caller verifies the solutions.

    Raises:
        TooLarge: the child's resident memory (read at every poll and every line it
            writes) passed ``max_memory``, the memory budget: it is killed.  A one-shot
            solver's learned clauses grow with its search, not with the cells a plan
            declares (Kissat on a random 127x127 grid: 1.5 GB in 60 s).
    """
    job = json.dumps({"solver": solver, "rows": [list(c) for c in puzzle.rows],
                      "columns": [list(c) for c in puzzle.columns], "extra": extra,
                      "max_solutions": max_solutions})
    start = time.perf_counter()
    worker = _take()
    found: list[Solution] = []
    counters: dict[str, Any] = {"worker": "process", "solve_calls": 0}
    complete = stopped = finished = False
    try:
        worker.stdin.write(job + "\n")
        worker.stdin.flush()
        while True:
            if watch.expired():
                stopped = True
                break
            try:
                line = worker.lines.get(timeout=_POLL)
            except queue.Empty:
                _hold_to(worker, solver, max_memory)
                continue
            _hold_to(worker, solver, max_memory)   # (before its answer counts: a child that ends at once too)
            if line is None:  # the child ended without its last word: a crash
                err = worker.stderr.read().strip().splitlines()
                raise RuntimeError(f"cnf: the {solver} worker died (exit code {worker.child.wait()}): "
                                   + (err[-1] if err else "no message"))
            kind, _, rest = line.rstrip("\n").partition(" ")
            if kind == "E":
                counters["encode_time"] = float(rest)
            elif kind == "S":
                counters["solve_calls"] += 1
                found.append(Solution.from_flat([ch == "1" for ch in rest], puzzle.width))
            elif kind in ("UNSAT", "DONE"):
                counters["solve_calls"] += kind == "UNSAT"
                complete = kind == "UNSAT"
                finished = True
                break
    finally:  # a limit, a cancel, Ctrl-C in the waiting caller or an error: the child is killed
        if finished:
            _give_back(worker)
        else:
            worker.kill()
        counters["worker_time"] = round(time.perf_counter() - start, 6)
    return found, complete, stopped, counters


def _hold_to(worker: _Worker, solver: str, max_memory: int | None) -> None:
    """Raise TooLarge if the worker's child holds more than ``max_memory`` bytes."""
    if max_memory is None:
        return
    held = _resident(worker.child.pid)
    if held is not None:
        refuse_held(f"cnf: the {solver} child", held, max_memory)


def _die_with_parent() -> None:
    """Ask Linux to kill this child when its parent dies (best effort elsewhere)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the parent's kill is the only guard
        pass


def _worker() -> int:
    """The child: per job line on stdin, encode, then one fresh solver per solution,
    blocking those found; ends when stdin does."""
    _die_with_parent()
    for line in sys.stdin:
        if line.strip():
            _job(json.loads(line))
    return 0


def _job(job: dict[str, Any]) -> None:
    from pysat.solvers import Solver

    from nonolab.solvers.cnf.encode import encode

    start = time.perf_counter()
    puzzle = Puzzle(rows=tuple(tuple(c) for c in job["rows"]), columns=tuple(tuple(c) for c in job["columns"]))
    enc = encode(puzzle, lambda: False)
    clauses = enc.clauses + job["extra"]
    print(f"E {time.perf_counter() - start:.6f}", flush=True)
    n, cap = enc.num_cells, job["max_solutions"]
    blocked: list[list[int]] = []
    while cap is None or len(blocked) < cap:
        with Solver(name=job["solver"], bootstrap_with=clauses) as sat:
            sat.append_formula(blocked)
            if not sat.solve():
                print("UNSAT", flush=True)
                return
            cells = sat.get_model()[:n]  # cells are variables 1..n
        print("S " + "".join("1" if lit > 0 else "0" for lit in cells), flush=True)
        blocked.append([-lit for lit in cells])
    print("DONE", flush=True)


if __name__ == "__main__":
    sys.exit(_worker())
