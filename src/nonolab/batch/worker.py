"""The worker process: ``python -m nonolab.batch.worker --backend NAME ...``.

It loads its backends once (and warms them up, so that loading the compiled
native engine, about a second, is not charged to the first puzzle's time limit),
says ``{"ready": ..., "batch": [...]}`` (the backends that declare ``Capability.BATCH``),
then reads one job per line on stdin and answers one record per line on stdout, until
stdin closes.  A line ``{"jobs": [...]}`` is a group (:func:`~nonolab.batch.tasks.run_jobs`):
one record a job, in order, each sent as soon as it is known.  The parent (:mod:`.guard`) kills
it when a job overruns; nothing here needs to cooperate with that.

Its real stdout is kept for the protocol only: anything a library prints goes to
stderr, so it cannot break a record.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
import threading
import time
from typing import Any, TextIO

from nonolab.errors import NonolabError


def _watch_parent(parent: int) -> None:
    """Exit when the parent dies (it was killed, say): an orphan would solve for nobody."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(3)


def _warm_up(backend: str) -> bool:
    """Load and warm up ``backend``; whether it declares ``Capability.BATCH``."""
    from nonolab.solvers import build
    from nonolab.solvers.base import Capability, capabilities
    from nonolab.solvers.warm import warm_up

    solver = build(backend)  # BackendUnavailable / UnknownBackend: fatal, reported to the parent
    warm_up(solver)
    return Capability.BATCH in capabilities(solver)


def _send(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nonolab.batch.worker")
    parser.add_argument("--backend", action="append", default=[])
    parser.add_argument("--preload", action="append", default=[])
    args = parser.parse_args(argv)

    # The parent handles Ctrl-C (and kills this process), so a traceback from every worker
    # would be noise: it starts this one in a session of its own, out of the terminal's
    # reach, and a SIGINT sent to this process alone is ignored too.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A closed records pipe means the parent has gone (a batch interrupted exits at once,
    # while this process may still be inside a job): end as a Unix filter does, silently
    # by SIGPIPE, not with a BrokenPipeError traceback on the terminal the batch shared.
    if hasattr(signal, "SIGPIPE"):   # (POSIX)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()

    from nonolab.batch.tasks import Job, run_job, run_jobs

    try:
        import nonolab.formats  # noqa: F401  (loaded once here, not charged to the first puzzle)
        import nonolab.harness.uniqueness  # noqa: F401

        for module in args.preload:
            importlib.import_module(module)
        batching = [backend for backend in args.backend if _warm_up(backend)]
    except (NonolabError, ImportError) as err:
        _send(protocol, {"fatal": str(err), "kind": type(err).__name__})
        return 2
    # "batch": the backends that answer a group of jobs at once (the parent sends them groups).
    _send(protocol, {"ready": True, "pid": os.getpid(), "batch": batching})
    for line in iter(sys.stdin.readline, ""):
        if line.strip():
            message = json.loads(line)
            if "jobs" in message:   # a group: one record a job, in order, each sent as it is known
                for record in run_jobs([Job(**job) for job in message["jobs"]]):
                    _send(protocol, record)
            else:
                _send(protocol, run_job(Job(**message)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
