"""The external DRAT checkers a certificate's proof is checked with: none of them is nonolab's.

* ``drat-trim``: the SAT competitions' checker (Heule, Hunt and Wetzler), a C program the
  user builds from its public source and puts on ``PATH`` (or names with
  ``NONOLAB_DRAT_TRIM``); checks backwards from the empty clause.
* ``dratify``: a DRAT checker on PyPI (Apache-2.0, by another author than python-sat's or
  ours), checking forwards, every step; with ``cdclkit-native`` installed its Rust engine
  runs (about 20x faster here), else its pure Python one (``dratify-python``).

``auto`` takes drat-trim when it is found, else dratify.

>>> sorted(CHECKERS)
['auto', 'drat-trim', 'dratify', 'dratify-python']
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nonolab.errors import BackendUnavailable

__all__ = ["CHECKERS", "ProofVerdict", "check_proof", "resolve"]

CHECKERS = ("auto", "drat-trim", "dratify", "dratify-python")


@dataclass(frozen=True)
class ProofVerdict:
    """``ok``: the checker accepted the proof; ``detail`` its own words; ``checker`` which ran."""

    ok: bool
    checker: str
    detail: str


def _drat_trim() -> str | None:
    named = os.environ.get("NONOLAB_DRAT_TRIM")
    return named if named and Path(named).is_file() else shutil.which("drat-trim")


def _dratify(native: bool) -> tuple[Any, str]:
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


def check_proof(formula: Path, proof: Path, checker: str = "auto", time_limit: float | None = None) -> ProofVerdict:
    """Whether ``checker`` accepts ``proof`` as a refutation of the DIMACS file ``formula``."""
    chosen = resolve(checker)
    if chosen == "drat-trim":
        return _run_drat_trim(formula, proof, time_limit)
    module, engine = _dratify(native=chosen == "dratify")
    name = f"dratify {getattr(module, '__version__', '')} ({engine})".replace("  ", " ")
    try:
        clauses = module.parse_dimacs(formula.read_text(encoding="ascii"))
        result = module.check_proof(clauses, proof.read_text(encoding="ascii"), engine=engine)
    except ValueError as err:
        # A file that is not DIMACS or DRAT text (cut inside a clause, a stray word, not
        # ASCII: UnicodeDecodeError is a ValueError) is a rejected proof, not a crash.
        return ProofVerdict(False, name, f"not a readable proof of a readable formula: {' '.join(str(err).split())}")
    ok = bool(result.ok and result.reached_empty)
    detail = result.reason if ok else f"{result.reason} (step {result.failed_step})"
    return ProofVerdict(ok, name, detail)


def _run_drat_trim(formula: Path, proof: Path, time_limit: float | None) -> ProofVerdict:
    program = _drat_trim() or "drat-trim"
    command = [program, str(formula), str(proof)]
    if time_limit is not None:
        command += ["-t", str(max(1, int(time_limit)))]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    verdict = next((line[2:].strip() for line in lines if line.startswith("s ")), "")
    ok = verdict == "VERIFIED"
    detail = verdict or (lines[-1] if lines else done.stderr.strip() or f"exit code {done.returncode}")
    return ProofVerdict(ok, "drat-trim", detail)
