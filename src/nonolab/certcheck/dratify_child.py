"""dratify in a process of its own, so that a time limit or a signal can stop it: neither of
its engines (Rust, Python) takes a deadline or returns to Python while it checks.

``python -m nonolab.certcheck.dratify_child FORMULA PROOF ENGINE`` prints one JSON line,
``{"ok": ..., "checker": ..., "detail": ...}`` (see :func:`nonolab.certcheck.checkers.check_proof`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def verdict(formula: Path, proof: Path, native: bool) -> dict[str, object]:
    """dratify's answer on ``proof`` as a refutation of ``formula``, as JSON-ready data."""
    from nonolab.certcheck.checkers import dratify_module

    module, engine = dratify_module(native)
    name = f"dratify {getattr(module, '__version__', '')} ({engine})".replace("  ", " ")
    try:
        clauses = module.parse_dimacs(formula.read_text(encoding="ascii"))
        result = module.check_proof(clauses, proof.read_text(encoding="ascii"), engine=engine)
    except ValueError as err:
        # A file that is not DIMACS or DRAT text (cut inside a clause, a stray word, not
        # ASCII: UnicodeDecodeError is a ValueError) is a rejected proof, not a crash.
        return {"ok": False, "checker": name,
                "detail": f"not a readable proof of a readable formula: {' '.join(str(err).split())}"}
    ok = bool(result.ok and result.reached_empty)
    return {"ok": ok, "checker": name,
            "detail": result.reason if ok else f"{result.reason} (step {result.failed_step})"}


if __name__ == "__main__":
    formula, proof, engine = sys.argv[1:4]
    print(json.dumps(verdict(Path(formula), Path(proof), native=engine == "native")))
