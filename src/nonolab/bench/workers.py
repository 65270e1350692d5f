"""Where a nonolab run happens: the version of nonolab (a tree) and the long-lived workers of ``--isolate worker``.

A :class:`Tree` is a Python interpreter and the environment that makes it import one
version of nonolab: this one, another source tree (its ``src`` folder first on the
path) or another virtual environment (its own interpreter).  Every nonolab run is
the script :data:`CHILD` run by a tree's interpreter.

A :class:`Worker` keeps one such process for one backend spec and sends it one job at
a time; a job that overruns its limit (plus a grace) kills the worker, and the next
job starts a fresh one.
"""

from __future__ import annotations

import json
import os
import queue
import site
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

from nonolab.errors import BenchError

if TYPE_CHECKING:
    from nonolab.bench.spawn import Stop

#: The child script (run as a file: a base tree may not have it).
CHILD = str(Path(__file__).resolve().with_name("child.py"))
#: Seconds a worker may take to import and warm up its backend (imports and the backend's first model on a loaded machine).
STARTUP_TIMEOUT = 600.0


@dataclass(frozen=True)
class Tree:
    """One version of nonolab: ``python`` with ``env`` imports it.  ``label`` is ``""``
    for the version running the benchmark, ``"base"`` for ``--base``."""

    label: str
    python: str
    env: dict = field(default_factory=dict, compare=False, hash=False)
    where: str = ""


def this_tree() -> Tree:
    """The version of nonolab this process runs, however it was found (a checkout on the path, say)."""
    import sys

    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    installed = {*getattr(site, "getsitepackages", list)(), site.getusersitepackages()}
    if root not in installed:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return Tree("", sys.executable, env, root)


def base_tree(path: str | os.PathLike) -> Tree:
    """The version of nonolab at ``path``: a virtual environment (``bin/python``), a source
    tree (``src/nonolab``) or a folder holding the package (``nonolab/``).

    Raises:
        BenchError: ``path`` is none of these.
    """
    import sys

    root = Path(path).resolve()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    for python in (root / "bin" / "python", root / ".venv" / "bin" / "python"):
        if python.exists():
            return Tree("base", str(python), env, str(python.parent.parent))
    for folder in (root / "src", root):
        if (folder / "nonolab" / "__init__.py").exists():
            env["PYTHONPATH"] = str(folder)
            return Tree("base", sys.executable, env, str(folder))
    raise BenchError("--base: not a virtual environment (bin/python), a source tree (src/nonolab) "
                     "or a folder holding nonolab", path=str(path))


#: What :func:`_next_line` answers when the budget ran out or the cancel was set.
OVERRUN = "overrun"


def _pump(stream: IO[bytes], lines: "queue.Queue[bytes | None]") -> None:
    try:
        for line in iter(stream.readline, b""):
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _next_line(lines: "queue.Queue[bytes | None]", budget: float | None,
               cancel: Stop | None) -> bytes | None | str:
    """The child's next line, None if it ended, :data:`OVERRUN` after ``budget`` s or on ``cancel``."""
    deadline = None if budget is None else time.perf_counter() + budget
    while True:
        slice_ = 0.05 if deadline is None else min(0.05, max(0.0, deadline - time.perf_counter()))
        try:
            return lines.get(timeout=slice_)
        except queue.Empty:
            if (cancel is not None and cancel.is_set()) or (deadline is not None and time.perf_counter() >= deadline):
                return OVERRUN


class Worker:
    """One long-lived child of ``tree`` that answers jobs with ``spec``.

    >>> with Worker(this_tree(), "native") as worker:                      # doctest: +SKIP
    ...     worker.run({"task": "check", "puzzle": "cat.non", "time_limit": 10}, 11)["verdict"]
    'unique'
    """

    def __init__(self, tree: Tree, spec: str):
        self.tree, self.spec = tree, spec
        # The child process and the queue of its output lines (a thread pumps them), or None.
        self._child: tuple[subprocess.Popen[bytes], queue.Queue[bytes | None]] | None = None

    def __enter__(self) -> "Worker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self, cancel: Stop | None) -> tuple[subprocess.Popen[bytes], queue.Queue[bytes | None]] | None:
        """The child, ready for jobs; None when ``cancel`` stopped its start."""
        proc = subprocess.Popen([self.tree.python, CHILD, "serve", "--spec", self.spec], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=self.tree.env, start_new_session=True)
        lines: queue.Queue[bytes | None] = queue.Queue()
        self._child = proc, lines
        assert proc.stdout is not None, "started with stdout=PIPE"
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
        hello = _next_line(lines, STARTUP_TIMEOUT, cancel)
        if hello == OVERRUN:
            self.close()
            if cancel is not None and cancel.is_set():
                return None
            raise BenchError(f"{self.spec}: the worker process was not ready within {STARTUP_TIMEOUT:g} s")
        try:
            message = json.loads(hello) if hello else None
        except ValueError:
            message = None
        if not isinstance(message, dict) or not message.get("ready"):
            self.close()
            reason = message.get("fatal") if isinstance(message, dict) else "it ended before it was ready"
            raise BenchError(f"{self.spec}: the worker process could not start: {reason}")
        return proc, lines

    def run(self, job: dict, budget: float | None, cancel: Stop | None = None) -> dict:
        """The child's answer to ``job``; ``{"killed": True}`` when it overran ``budget`` s (or was
        cancelled) and was killed; ``{"status": "error", ...}`` when it died."""
        child = self._child or self._start(cancel)
        if child is None:
            return {"killed": True}  # cancelled while it started
        proc, lines = child
        assert proc.stdin is not None, "started with stdin=PIPE"
        try:
            proc.stdin.write((json.dumps(job) + "\n").encode("utf-8"))
            proc.stdin.flush()
            line = _next_line(lines, budget, cancel)
        except (OSError, ValueError):
            line = None
        if line == OVERRUN:
            self.close()
            return {"killed": True}
        if line is None:
            code = self.close()
            return {"status": "error", "verdict": None,
                    "error": f"the worker process died (exit code {code}) on this puzzle"}
        return json.loads(line)

    def close(self) -> int | None:
        """Kill the child's process group (it holds nothing worth a graceful end)."""
        child, self._child = self._child, None
        if child is None:
            return None
        proc = child[0]
        try:
            os.killpg(proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        code = proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return code
