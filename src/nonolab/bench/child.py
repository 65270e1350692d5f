"""The nonolab side of a benchmark run, as a script any version of nonolab can run.

    python child.py run --spec SPEC --task TASK --puzzle FILE [--time-limit S --started EPOCH]
    python child.py serve --spec SPEC

``run`` (``--isolate process``) loads the puzzle, solves it and prints one JSON line:
the verdict, the count and the engine's counters; the parent measures the process
(wall and CPU time, peak memory) from outside, start-up included.  The time limit
counts from ``--started``, the moment the parent started the process, so a nonolab
run gets the same wall limit as an external solver.  ``serve`` (``--isolate worker``)
loads and warms up the backend once, says ``{"ready": true}``, then answers one job
per line of stdin (``{"task", "puzzle", "time_limit"}``) with the same answer plus
its own wall and CPU time of the solve and the process's peak memory so far.

It is run as a file, not as a module of the package it measures: with ``--base`` the
package on the path is another version, which may not have this module.  So it uses
only what every version has had: ``nonolab.formats.load``, ``nonolab.solvers.build`` (or,
in versions before it, ``get_spec``), ``nonolab.solvers.base.Limits`` and ``nonolab.harness.uniqueness.verdict_of`` (and a
warm-up where the version has one).
"""

from __future__ import annotations

import json
import os
import sys
import time

# The script's folder is put first on sys.path by Python: it is part of the package
# being measured only by accident, and must not shadow anything.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

#: Solutions asked of the backend per task: ``check`` counts to 2, ``solve`` stops at the
#: first, ``count`` counts them all.
MAX_SOLUTIONS = {"check": 2, "solve": 1, "count": None}
#: The counters copied from a backend's stats when it reports them.
COUNTERS = ("line_solves", "probes", "nodes", "conflicts", "winner")


def _message(err: BaseException) -> str:
    text = " ".join(str(err).split()) or "(no message)"
    return f"{type(err).__name__}: {text}"[:300]


def solve(backend, task: str, path: str, time_limit: float | None) -> dict:
    """One answer: ``verdict`` (the check words, or ``solved`` for the first solution), count, counters,
    and ``checked``: the distinct solutions it found, each checked against the clues by the backend."""
    from nonolab.formats import load
    from nonolab.harness.uniqueness import verdict_of
    from nonolab.solvers.base import Limits

    puzzle = load(path, "non")
    if time_limit is not None and time_limit <= 0:
        return {"verdict": "timeout", "count": 0, "exact": False, "checked": 0, "counters": {}}
    result = backend.solve(puzzle, Limits(max_solutions=MAX_SOLUTIONS[task], time_limit=time_limit))
    verdict = verdict_of(result).value
    if task == "solve" and result.count >= 1:
        verdict = "solved"
    counters = {k: v for k, v in result.stats.counters.items() if k in COUNTERS}
    return {"verdict": verdict, "count": result.count, "exact": bool(result.complete),
            "checked": len(result.solutions), "counters": counters}


def _build(spec: str):
    import nonolab.solvers as solvers

    # build since e72fa8e; get_spec, its older name, until issue 27 removed it.
    return (getattr(solvers, "build", None) or getattr(solvers, "get_spec"))(spec)


def run_once(spec: str, task: str, path: str, time_limit: float | None, started: float | None) -> dict:
    try:
        backend = _build(spec)
        left = None if time_limit is None else time_limit - (time.time() - (started or time.time()))
        return solve(backend, task, path, left)
    except Exception as err:  # noqa: BLE001 — reported to the parent as this run's error
        return _failed(err)


#: The errors by which a backend declines a puzzle it does not take (not a failure to answer).
REFUSALS = ("TooLarge", "Unsupported")


def _failed(err: BaseException) -> dict:
    """A run a library error stopped: a wrong answer caught (``verdict`` wrong), a puzzle the
    backend does not accept by a declared limit or capability (``status`` refused:
    ``TooLarge``, a grid beyond its memory budget or model size; ``Unsupported``, a colour
    puzzle for a backend that declares black and white only; not a failure to answer), or
    no answer (``status`` error; no verdict either way, for neither is one of the words).
    By the error's name: the child may run another version of nonolab."""
    if type(err).__name__ == "WrongAnswer":
        return {"verdict": "wrong", "error": _message(err)}
    if type(err).__name__ in REFUSALS:
        return {"status": "refused", "verdict": None, "error": _message(err)}
    return {"status": "error", "verdict": None, "error": _message(err)}


def _warm_up(backend) -> None:
    """One small solve, so that imports and compilation are not charged to the first puzzle
    (where the version has it: ``solvers.warm``, earlier ``solvers.base``)."""
    import importlib

    # Looked up by name: the module that has it depends on the version this child runs.
    for module in ("nonolab.solvers.warm", "nonolab.solvers.base"):
        try:
            warm_up = getattr(importlib.import_module(module), "warm_up")
        except (ImportError, AttributeError):
            continue
        warm_up(backend)
        return
    # a version without it: its first puzzle pays


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def serve(spec: str, out) -> int:
    try:
        backend = _build(spec)
        _warm_up(backend)
    except Exception as err:  # noqa: BLE001 — the parent reports it and stops
        out.write(json.dumps({"fatal": _message(err)}) + "\n")
        out.flush()
        return 2
    out.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    out.flush()
    for line in iter(sys.stdin.readline, ""):
        if not line.strip():
            continue
        job = json.loads(line)
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            answer = solve(backend, job["task"], job["puzzle"], job.get("time_limit"))
        except Exception as err:  # noqa: BLE001
            answer = _failed(err)
        answer.update(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu, peak_rss_mb=_peak_rss_mb())
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


def main(argv: list[str]) -> int:
    import argparse
    import signal

    parser = argparse.ArgumentParser(prog="nonolab bench child")
    parser.add_argument("mode", choices=("run", "serve"))
    parser.add_argument("--spec", required=True)
    parser.add_argument("--task", choices=sorted(MAX_SOLUTIONS), default="check")
    parser.add_argument("--puzzle")
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--started", type=float, default=None)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it kills the group
    # The protocol owns the real stdout: whatever a library prints goes to stderr.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    if args.mode == "serve":
        return serve(args.spec, out)
    out.write(json.dumps(run_once(args.spec, args.task, args.puzzle, args.time_limit, args.started)) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # no teardown of the compiled engines: it is not part of a user's wait
