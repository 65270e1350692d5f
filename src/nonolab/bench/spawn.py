"""One command in a process group of its own, under a wall-clock limit, measured as a user pays it.

Every run of ``nonolab bench`` that is a process (an external solver, a nonolab child
with ``--isolate process``) goes through a :class:`Spawner`: the command starts a new
session (so it and every process it starts share one process group that no terminal
signal reaches), its output goes to files (a grandchild holding a pipe open could
never block a reader), and at the limit the whole group is killed with SIGKILL.  After
the leader ends, the group is killed again: a background child that outlived its
parent must not keep a core busy during the next run.

The figures come from ``os.wait4``: the wall time from the start to the leader's end,
the CPU time (user + system) and the peak resident memory of the leader and of every
descendant it waited for.  The kernel counts in a process's peak the memory of the
process it was forked from, so the commands are not started by the benchmark's own
process (with its engines loaded, a hundred megabytes or more) but by a small server,
this file run as a script with ``python -S -I`` (about 15 MB, the floor of every
figure): it starts the commands, reaps them and reports.  It imports nothing outside
the standard library.

>>> with Spawner() as spawner:
...     ran = spawner.run(["sh", "-c", "echo unique"], limit=10)
>>> ran.stdout.strip(), ran.exit_code, ran.killed
('unique', 0, False)
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Mapping, Protocol, Sequence

#: Characters of a command's output kept (its verdict and grid come early; a chatty
#: solver must not fill the memory).
MAX_OUTPUT = 4_000_000


class Stop(Protocol):
    """What a run polls to stop early: a ``threading.Event``, or anything with its ``is_set()``."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class Ran:
    """What one process run did: its output, exit code and the measured figures.

    ``killed``: the limit (or a cancel) ended it.  ``exit_code`` is negative for a
    death by a signal, as in ``subprocess``.
    """

    stdout: str
    stderr: str
    exit_code: int
    killed: bool
    wall: float
    cpu: float
    peak_rss_mb: float


def kill_group(pgid: int) -> None:
    """SIGKILL to every process of group ``pgid``; nothing if none is left."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# --- the server (this file as a script) -----------------------------------------------

def _serve() -> None:
    lock = threading.Lock()
    running: set[int] = set()

    def say(message: dict) -> None:
        with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    def start(request: dict) -> None:
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, request["stdout"], os.O_WRONLY | os.O_TRUNC, 0),
                   (os.POSIX_SPAWN_OPEN, 2, request["stderr"], os.O_WRONLY | os.O_TRUNC, 0)]
        env = request.get("env") or dict(os.environ)
        started = time.perf_counter()
        try:
            pid = os.posix_spawnp(request["argv"][0], request["argv"], env, file_actions=actions, setsid=True)
        except OSError as err:
            say({"id": request["id"], "error": f"{request['argv'][0]}: {err.strerror or err}"})
            return
        with lock:
            running.add(pid)
        say({"id": request["id"], "pid": pid})
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
        kill_group(pid)  # the leader is reaped: its orphans go too
        with lock:
            running.discard(pid)
        say({"id": request["id"], "exit_code": os.waitstatus_to_exitcode(status), "wall": wall,
             "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": usage.ru_maxrss})

    for line in sys.stdin:
        if line.strip():
            threading.Thread(target=start, args=(json.loads(line),), daemon=True).start()
    with lock:  # the benchmark ended (or died): nothing it started may outlive it
        for pid in running:
            kill_group(pid)


# --- the client --------------------------------------------------------------------------

class Spawner:
    """The server process and the runs under way in it (one :meth:`run` per thread at a time)."""

    def __init__(self):
        self._proc = subprocess.Popen([sys.executable, "-S", "-I", os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, start_new_session=True)
        self._lock = threading.Lock()
        self._next = 0
        self._replies: dict[int, queue.Queue] = {}
        threading.Thread(target=self._read, name="nonolab-bench-spawner", daemon=True).start()

    def __enter__(self) -> "Spawner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _read(self) -> None:
        for line in self._proc.stdout:
            message = json.loads(line)
            with self._lock:
                target = self._replies.get(message["id"])
            if target is not None:
                target.put(message)
        with self._lock:  # the server ended: wake every waiting run
            for target in self._replies.values():
                target.put(None)

    def run(self, command: Sequence[str], limit: float | None, *, env: Mapping[str, str] | None = None,
            cancel: Stop | None = None) -> Ran:
        """Run ``command``; kill its group after ``limit`` seconds from its start, or on ``cancel``.

        Raises:
            OSError: the program cannot be started (not found, not executable).
        """
        replies: queue.Queue = queue.Queue()
        with self._lock:
            self._next += 1
            ident = self._next
            self._replies[ident] = replies
        with tempfile.NamedTemporaryFile(prefix="out-") as out, tempfile.NamedTemporaryFile(prefix="err-") as err:
            try:
                request = {"id": ident, "argv": list(command), "env": None if env is None else dict(env),
                           "stdout": out.name, "stderr": err.name}
                with self._lock:
                    self._proc.stdin.write(json.dumps(request) + "\n")
                    self._proc.stdin.flush()
                started = replies.get()
                if started is None:
                    raise OSError("the benchmark's process server ended")
                if "error" in started:
                    raise OSError(started["error"])
                end, killed = self._wait(started["pid"], replies, limit, cancel)
            finally:
                with self._lock:
                    self._replies.pop(ident, None)
            return Ran(stdout=_read(out), stderr=_read(err), exit_code=end["exit_code"], killed=killed,
                       wall=end["wall"], cpu=end["cpu"], peak_rss_mb=end["rss_kb"] / 1024)

    @staticmethod
    def _wait(pid: int, replies: queue.Queue, limit: float | None,
              cancel: Stop | None) -> tuple[dict, bool]:
        deadline = None if limit is None else time.perf_counter() + limit
        killed = False
        while True:
            wait = 0.05 if deadline is None or killed else min(0.05, max(0.0, deadline - time.perf_counter()))
            try:
                end = replies.get(timeout=wait)
            except queue.Empty:
                if not killed and ((deadline is not None and time.perf_counter() >= deadline)
                                   or (cancel is not None and cancel.is_set())):
                    # The server reaps the leader just before it replies: in that moment its
                    # pid could name another group only if the system reused it at once.
                    kill_group(pid)
                    killed = True
                continue
            if end is None:
                kill_group(pid)
                raise OSError("the benchmark's process server ended")
            return end, killed

    def close(self) -> None:
        """Stop the server: it kills whatever it still runs."""
        try:
            self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def _read(handle) -> str:
    handle.seek(0)
    return handle.read(MAX_OUTPUT).decode("utf-8", "replace")


if __name__ == "__main__":
    _serve()
