"""The files of a certificate, and the README that says how to check them with public tools.

One folder per puzzle:

* ``puzzle.non``: the puzzle (the ``.non`` text format).
* ``puzzle.cnf`` (contradiction, multiple): its CNF, exactly what ``nonolab export --to
  dimacs`` writes (the regular line encoding, ``models/cnf.md``; ``c cell R C VAR`` lines map
  cells to variables).
* ``unique``: ``solution.txt`` (``#`` filled, ``.`` empty), ``refute.cnf`` (that CNF plus one
  last clause excluding the solution: the CNF is not written twice, it is 60% of a
  certificate) and ``proof.drat``, a DRAT proof that ``refute.cnf`` has no model.
* ``contradiction``: ``proof.drat``, a DRAT proof that ``puzzle.cnf`` has no model.
* ``multiple``: ``solution-1.txt`` and ``solution-2.txt``, two different solutions.
* ``manifest.json``: what the certificate claims and the SHA-256 of every file;
  ``SHA256SUMS`` the same hashes for ``sha256sum -c``; ``README.txt``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Sequence

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.harness.models import dimacs
from nonolab.harness.uniqueness import Verdict

__all__ = ["FORMAT", "write_certificate", "sha256_of"]

#: The manifest's ``format``: a checker refuses a certificate of a format it does not know.
FORMAT = "nonolab-certificate/1"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def exclusion_clause(text: str, solution: Solution) -> list[int]:
    """The clause that only ``solution`` falsifies, over the cell variables that the DIMACS
    text's ``c cell R C VAR`` lines name."""
    cells = solution.to_bytes()
    clause = []
    for line in text.splitlines():
        if line.startswith("c cell "):
            _, _, r, c, var = line.split()
            filled = cells[(int(r) - 1) * solution.width + int(c) - 1]
            clause.append(-int(var) if filled else int(var))
        elif line.startswith("p "):
            break
    return clause


def with_clause(text: str, clause: list[int], comment: str) -> str:
    """DIMACS ``text`` with one more clause (last), its header counting it."""
    out = []
    for line in text.splitlines():
        if line.startswith("p cnf "):
            _, _, variables, clauses = line.split()
            out.append(f"c {comment}")
            line = f"p cnf {variables} {int(clauses) + 1}"
        out.append(line)
    out.append(" ".join(map(str, clause)) + " 0")
    return "\n".join(out) + "\n"


def write_certificate(folder: Path, puzzle: Puzzle, verdict: Verdict, solutions: Sequence[Solution],
                      answered_by: str, prover: str | None) -> dict[str, str]:
    """Write every file but the proof (already in ``folder`` for unique and contradiction);
    returns ``{file name: SHA-256}`` of every file."""
    from nonolab.formats import dumps

    cnf = dimacs(puzzle)
    texts = {"puzzle.non": dumps(puzzle, "non")}
    formula = proof = None
    if verdict is Verdict.UNIQUE:
        texts["solution.txt"] = solutions[0].to_text() + "\n"
        texts["refute.cnf"] = with_clause(cnf, exclusion_clause(cnf, solutions[0]),
                                          "nonolab: every clause but the last is `nonolab export --to dimacs`; "
                                          "the last excludes the solution of solution.txt")
        formula, proof = "refute.cnf", "proof.drat"
    elif verdict is Verdict.CONTRADICTION:
        texts["puzzle.cnf"] = cnf
        formula, proof = "puzzle.cnf", "proof.drat"
    else:
        texts["puzzle.cnf"] = cnf
        texts["solution-1.txt"] = solutions[0].to_text() + "\n"
        texts["solution-2.txt"] = solutions[1].to_text() + "\n"
        (folder / "proof.drat").unlink(missing_ok=True)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8", newline="\n")
    (folder / "README.txt").write_text(readme(puzzle, verdict, prover), encoding="utf-8", newline="\n")
    names = sorted([*texts, "README.txt"] + ([proof] if proof else []))
    files = {name: sha256_of(folder / name) for name in names}
    manifest = {"format": FORMAT, "nonolab": _version(), "verdict": verdict.value,
                "puzzle": {"name": puzzle.name, "width": puzzle.width, "height": puzzle.height,
                           "file": "puzzle.non"},
                "cnf": "refute.cnf" if verdict is Verdict.UNIQUE else "puzzle.cnf", "formula": formula, "proof": proof, "proof_format": "drat" if proof else None,
                "answered_by": answered_by, "prover": prover, "files": files}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8", newline="\n")
    (folder / "SHA256SUMS").write_text("".join(f"{digest}  {name}\n" for name, digest in files.items()),
                                       encoding="utf-8", newline="\n")
    return {**files, "manifest.json": sha256_of(folder / "manifest.json"),
            "SHA256SUMS": sha256_of(folder / "SHA256SUMS")}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("nonolab")
    except PackageNotFoundError:  # a source tree run without installing
        return "unknown"


def readme(puzzle: Puzzle, verdict: Verdict, prover: str | None) -> str:
    """What the certificate claims and the commands that check it with public tools."""
    title = puzzle.name or "(unnamed)"
    cnf = "refute.cnf" if verdict is Verdict.UNIQUE else "puzzle.cnf"
    head = [f"nonolab certificate: the puzzle {title} ({puzzle.width}x{puzzle.height}) is {verdict.value}.", "",
            "puzzle.non   the puzzle (.non text format: its rows and columns clues)",
            f"{cnf}   its CNF, the regular line encoding of every row and column (what `nonolab export",
            "             --to dimacs` writes); the lines 'c cell R C VAR' name the variable of each cell",
            "             (true: filled); the other variables are automaton states and transitions"]
    if verdict is Verdict.MULTIPLE:
        return "\n".join(head + [
            "solution-1.txt, solution-2.txt   two different solutions (# filled, . empty)", "",
            "To check: each solution's rows and columns spell the clues of puzzle.non (by eye, or with any",
            "nonogram checker), and the two grids differ.  That is the whole proof that the puzzle is not unique.",
            "", "sha256sum -c SHA256SUMS   checks that no file changed; manifest.json says the same as JSON.", ""])
    formula = "refute.cnf" if verdict is Verdict.UNIQUE else "puzzle.cnf"
    body = ["solution.txt the solution (# filled, . empty)",
            "             refute.cnf's last clause is one more: only the solution falsifies it"] \
        if verdict is Verdict.UNIQUE else []
    body += [f"proof.drat   a DRAT proof (text) that {formula} has no model, written by nonolab's {prover} engine",
             "", "How to check it with public tools:", "",
             f"1. The proof.  drat-trim (Heule, Hunt and Wetzler; public source: marijnheule/drat-trim on GitHub):",
             f"       drat-trim {formula} proof.drat          prints 's VERIFIED'",
             "   or dratify, a DRAT checker on PyPI (pip install dratify):",
             f"       python -c \"from dratify import parse_dimacs, check_proof; "
             f"print(check_proof(parse_dimacs(open('{formula}').read()), open('proof.drat').read()).ok)\"",
             "2. The CNF says what the clues say.  `nonolab certify-check .` derives the CNF again from",
             "   puzzle.non with a second encoder that shares no code with the solvers, and compares; the",
             "   encoding is documented in nonolab's models/cnf.md (why its models are the clue's lines)."]
    if verdict is Verdict.UNIQUE:
        body += ["3. The solution spells the clues of puzzle.non (by eye or with any nonogram checker), and",
                 "   refute.cnf's last clause excludes it: for each 'c cell R C VAR' line, -VAR if the solution",
                 "   fills cell (R, C), else VAR.  So: the solution is a solution, and no other grid is.",
                 "   `nonolab certify-check .` checks both."]
    else:
        body += ["So: no grid satisfies the clues."]
    return "\n".join(head + body + ["", "sha256sum -c SHA256SUMS   checks that no file changed; manifest.json says "
                                        "the same as JSON.", ""])
