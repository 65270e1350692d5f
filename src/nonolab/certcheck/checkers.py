"""The external DRAT checkers a certificate's proof is checked with: none of them is nonolab's.

* ``drat-trim``: the SAT competitions' checker (Heule, Hunt and Wetzler), a C program the
  user builds from its public source and puts on ``PATH`` (or names with
  ``NONOLAB_DRAT_TRIM``); checks backwards from the empty clause.
* ``dratify``: a DRAT checker on PyPI (Apache-2.0, by another author than python-sat's or
  ours), checking forwards, every step; with ``cdclkit-native`` installed its Rust engine
  runs (about 20x faster here), else its pure Python one (``dratify-python``).

``auto`` takes drat-trim when it is found, else dratify.  Each runs in a child process
that a time limit or a cancel kills (dratify's engines take no deadline), so the answer
is then ``timeout`` or ``interrupted``, never a rejection.

>>> sorted(CHECKERS)
['auto', 'drat-trim', 'dratify', 'dratify-python']
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nonolab.errors import BackendUnavailable

__all__ = ["CHECKERS", "ProofVerdict", "check_proof", "read_drat_trim", "resolve"]

CHECKERS = ("auto", "drat-trim", "dratify", "dratify-python")


@dataclass(frozen=True)
class ProofVerdict:
    """``ok``: the checker accepted the proof; ``detail`` its own words; ``checker`` which ran;
    ``stopped``: ``timeout`` or ``interrupted`` when the check was stopped before it ended
    (then ``ok`` is false, and the proof is neither accepted nor rejected)."""

    ok: bool
    checker: str
    detail: str
    stopped: str | None = None


def _drat_trim() -> str | None:
    named = os.environ.get("NONOLAB_DRAT_TRIM")
    return named if named and Path(named).is_file() else shutil.which("drat-trim")


def dratify_module(native: bool) -> tuple[Any, str]:
    """The dratify module and its engine here (``native`` when asked and cdclkit-native loads)."""
    try:
        import dratify
    except ImportError as exc:
        raise BackendUnavailable("no DRAT checker: install dratify (pip install 'nonolab[certify]') or put "
                                 "drat-trim on PATH") from exc
    if native:
        try:
            import cdclkit_native
            dratify.register_native(cdclkit_native)
            return dratify, "native"
        except (ImportError, AttributeError, TypeError):
            pass
    return dratify, "python"


#: Seconds between two looks at a child checker's deadline and cancel.
_POLL = 0.05
#: The module a child process runs dratify in.
DRATIFY_CHILD = "nonolab.certcheck.dratify_child"


def _run(command: list[str], time_limit: float | None, cancel: Any) -> subprocess.CompletedProcess | str:
    """``command``'s completed process, or ``timeout``/``interrupted`` when ``time_limit``
    or ``cancel`` (a ``threading.Event``) came first: the child is then killed."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
        try:
            while True:
                try:
                    out, err = child.communicate(timeout=_POLL)
                    return subprocess.CompletedProcess(command, child.returncode, out, err)
                except subprocess.TimeoutExpired:
                    pass
                if cancel is not None and cancel.is_set():
                    return "interrupted"
                if deadline is not None and time.monotonic() >= deadline:
                    return "timeout"
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()


def resolve(checker: str) -> str:
    """The checker ``checker`` (one of :data:`CHECKERS`) stands for here.

    Raises:
        BackendUnavailable: it is not installed.
    """
    if checker not in CHECKERS:
        raise BackendUnavailable(f"unknown proof checker {checker!r} (known: {', '.join(CHECKERS)})")
    if checker == "drat-trim" and _drat_trim() is None:
        raise BackendUnavailable("drat-trim is not on PATH (build it from its public source, or set "
                                 "NONOLAB_DRAT_TRIM to the program)")
    if checker == "auto":
        return "drat-trim" if _drat_trim() else "dratify"
    return checker


def check_proof(formula: Path, proof: Path, checker: str = "auto", time_limit: float | None = None,
                cancel: Any = None) -> ProofVerdict:
    """Whether ``checker`` accepts ``proof`` as a refutation of the DIMACS file ``formula``,
    within ``time_limit`` seconds (``None``: no limit) and until ``cancel`` is set.

    >>> check_proof(Path("f.cnf"), Path("p.drat"), "dratify", time_limit=1e-9).stopped
    'timeout'
    """
    chosen = resolve(checker)
    if chosen == "drat-trim":
        return _run_drat_trim(formula, proof, time_limit, cancel)
    native = chosen == "dratify"
    module, engine = dratify_module(native)
    name = f"dratify {getattr(module, '__version__', '')} ({engine})".replace("  ", " ")
    if time_limit is not None and time_limit <= 1e-6:
        return ProofVerdict(False, name, "the time limit ran out before the check", "timeout")
    command = [sys.executable, "-m", DRATIFY_CHILD, str(formula), str(proof),
               "native" if native else "python"]
    done = _run(command, time_limit, cancel)
    if isinstance(done, str):
        return ProofVerdict(False, name, "the check did not end within the time limit" if done == "timeout"
                            else "the check was interrupted", done)
    try:
        answer = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return ProofVerdict(False, name, f"the checker failed: {last}")
    return ProofVerdict(bool(answer["ok"]), str(answer["checker"]), str(answer["detail"]))


#: drat-trim's ``-t`` when the caller sets no limit: its own default (40,000 s) would end a
#: long check with ``s TIMEOUT``; no limit means the check runs until it ends (or a cancel).
UNLIMITED = 2**31 - 1


def _run_drat_trim(formula: Path, proof: Path, time_limit: float | None, cancel: Any) -> ProofVerdict:
    program = _drat_trim() or "drat-trim"
    # Its own limit never comes before ours: ours stops the check first, and says timeout.
    seconds = UNLIMITED if time_limit is None else max(1, int(time_limit) + 1)
    done = _run([program, str(formula), str(proof), "-t", str(seconds)], time_limit, cancel)
    if isinstance(done, str):
        return ProofVerdict(False, "drat-trim", "the check did not end within the time limit" if done == "timeout"
                            else "the check was interrupted", done)
    return read_drat_trim(done.stdout, done.stderr, done.returncode)


def read_drat_trim(stdout: str, stderr: str = "", exit_code: int = 0) -> ProofVerdict:
    """drat-trim's answer from its output: its ``s`` line (its lines begin with a carriage
    return, a line break of its own here).  ``s VERIFIED`` accepts; ``s TIMEOUT`` is its own
    time limit, which stops the check (neither accepted nor rejected); any other ``s`` line
    (``NOT VERIFIED``, ``DERIVATION``: no refutation) rejects, and so does no ``s`` line at all
    (a parse error, out of memory), with its last words as the reason.

    >>> read_drat_trim("\\rc finished parsing\\n\\rs VERIFIED\\n\\rc verification time: 0.5 seconds\\n")
    ProofVerdict(ok=True, checker='drat-trim', detail='VERIFIED', stopped=None)
    >>> read_drat_trim("\\rc detected empty clause\\ns TIMEOUT\\n").stopped
    'timeout'
    """
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    verdict = next((line[2:].strip() for line in lines if line.startswith("s ")), "")
    if verdict == "VERIFIED":
        return ProofVerdict(True, "drat-trim", verdict)
    if verdict == "TIMEOUT":
        return ProofVerdict(False, "drat-trim", "its own time limit ended the check (s TIMEOUT)", "timeout")
    if verdict:
        return ProofVerdict(False, "drat-trim", verdict)
    last = lines[-1] if lines else stderr.strip().splitlines()[-1] if stderr.strip() else f"exit code {exit_code}"
    return ProofVerdict(False, "drat-trim", f"the checker gave no verdict: {last}")
