"""Check a certificate (see :mod:`nonolab.certify`) without trusting the code that made it.

Nothing here imports a solver or the encoder the solvers use.  The checks, in order; the
first that fails is the one-line reason of the rejection:

1. ``manifest.json`` names a known format, and every file it lists exists with its SHA-256.
2. ``puzzle.non`` loads (nonolab's reader of the ``.non`` text format) and holds one puzzle.
3. The CNF (``puzzle.cnf``; for ``unique``, ``refute.cnf`` but its last clause) is the
   regular encoding of those clues: :mod:`.encoder`, a second encoder written from the
   document, derives it again, and the clauses must be the same multiset, the ``p cnf``
   header must count them, and each ``c cell R C VAR`` line must name its cell.
4. By the verdict: ``unique``, the solution spells every clue (checked by the run lengths
   here), ``refute.cnf``'s one more clause is exactly the one excluding it, and an
   external checker (:mod:`.checkers`) accepts the proof against ``refute.cnf``;
   ``contradiction``, the checker accepts the proof against ``puzzle.cnf``; ``multiple``,
   two different solutions that each spell every clue.

Why this is enough: the external checker says the formula has no model; step 3 says the
formula's models are the grids of the clues (the encoding's argument, ``models/cnf.md``,
and the second encoder's tests against brute force); the rest ties the files together.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from nonolab.certcheck.checkers import check_proof, resolve
from nonolab.certcheck.encoder import puzzle_clauses
from nonolab.errors import NonolabError

__all__ = ["CertificateCheck", "check_certificate", "certificates_in"]

FORMAT = "nonolab-certificate/1"


class Rejected(Exception):
    """One check failed; its message is the one-line reason."""


class Stopped(Rejected):
    """The proof's check was stopped (``timeout``, ``interrupted``) before it ended."""

    def __init__(self, reason: str, stopped: str):
        super().__init__(reason)
        self.stopped = stopped


@dataclass(frozen=True)
class CertificateCheck:
    """The outcome for one certificate folder: ``ok``, else ``reason`` (one line).
    ``stopped``: ``timeout`` or ``interrupted`` when the proof's check was stopped before
    it ended: the certificate is then neither accepted nor rejected."""

    path: Path
    ok: bool
    verdict: str | None = None
    reason: str = ""
    checker: str | None = None
    checks: tuple[str, ...] = field(default=())
    stopped: str | None = None

    @property
    def outcome(self) -> str:
        """One word: ``accepted``, ``rejected``, ``timeout`` or ``interrupted``."""
        return "accepted" if self.ok else self.stopped or "rejected"

    def as_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "ok": self.ok, "outcome": self.outcome, "verdict": self.verdict,
                "reason": self.reason, "checker": self.checker, "checks": list(self.checks)}


def certificates_in(directory: str | Path) -> list[Path]:
    """The certificate folders under ``directory``: itself when it holds ``manifest.json``,
    else each sub-folder that does (a set), in name order."""
    root = Path(directory)
    if (root / "manifest.json").is_file():
        return [root]
    return sorted(p for p in root.iterdir() if (p / "manifest.json").is_file()) if root.is_dir() else []


def check_certificate(folder: str | Path, checker: str = "auto", time_limit: float | None = None,
                      cancel: Any = None) -> CertificateCheck:
    """Check the certificate in ``folder`` (see the module's docstring for what is checked).
    ``time_limit`` seconds and ``cancel`` (a ``threading.Event``) stop the proof's check,
    which runs in a child process: the outcome is then ``timeout`` or ``interrupted``.

    Raises:
        BackendUnavailable: ``checker`` is not installed (a certificate with a proof needs one).
    """
    folder = Path(folder)
    done: list[str] = []
    verdict = None
    try:
        manifest = _manifest(folder)
        verdict = manifest.get("verdict")
        if verdict in ("unique", "contradiction"):
            resolve(checker)  # before the long checks: a missing checker is an error, not a rejection
        done.append("hashes")
        puzzle = _puzzle(folder / "puzzle.non")
        done.append("puzzle")
        used = None
        if verdict == "unique":
            solution = _solution(folder / "solution.txt", puzzle)
            done.append("solution")
            _cnf_of_clues(folder / "refute.cnf", puzzle, solution)
            done.append("cnf")
            used = _proof(folder, "refute.cnf", checker, time_limit, cancel)
        elif verdict == "contradiction":
            _cnf_of_clues(folder / "puzzle.cnf", puzzle)
            done.append("cnf")
            used = _proof(folder, "puzzle.cnf", checker, time_limit, cancel)
        elif verdict == "multiple":
            _cnf_of_clues(folder / "puzzle.cnf", puzzle)
            done.append("cnf")
            first = _solution(folder / "solution-1.txt", puzzle)
            second = _solution(folder / "solution-2.txt", puzzle)
            if first == second:
                raise Rejected("solution-1.txt and solution-2.txt are the same grid")
            done.append("solutions")
        else:
            raise Rejected(f"manifest.json: unknown verdict {verdict!r}")
        if used:
            done.append("proof")
        return CertificateCheck(folder, True, verdict, "", used, tuple(done))
    except Rejected as why:
        return CertificateCheck(folder, False, verdict, str(why), None, tuple(done), getattr(why, "stopped", None))


def _manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise Rejected(f"manifest.json cannot be read: {err}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise Rejected(f"manifest.json: not a certificate of format {FORMAT}")
    files = manifest.get("files")
    if not isinstance(files, dict):
        raise Rejected("manifest.json lists no files")
    verdict = manifest.get("verdict")
    if not isinstance(verdict, str):  # JSON may hold anything there, a list (unhashable) too
        raise Rejected(f"manifest.json: unknown verdict {verdict!r}")
    needed = {"unique": ("puzzle.non", "solution.txt", "refute.cnf", "proof.drat"),
              "contradiction": ("puzzle.non", "puzzle.cnf", "proof.drat"),
              "multiple": ("puzzle.non", "puzzle.cnf", "solution-1.txt", "solution-2.txt")}
    for name in needed.get(verdict, ()):
        if name not in files:
            raise Rejected(f"manifest.json does not list {name}")
    for name, digest in files.items():
        path = folder / name
        if "/" in name or "\\" in name or not path.is_file():
            raise Rejected(f"{name} is missing")
        if _sha256(path) != digest:
            raise Rejected(f"{name} does not match its SHA-256 in manifest.json (changed after certifying)")
    return manifest


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _puzzle(path: Path) -> Any:
    from nonolab.formats import load_all

    try:
        puzzles = load_all(path, "non")
    except NonolabError as err:
        raise Rejected(f"puzzle.non cannot be read: {err}") from None
    # A certificate is about one puzzle.  Of a file of two, the checks read the first, and
    # pbnsolve reads a mix of both (each key's last value): "puzzle.non is unique" would
    # say different things to different readers.
    if len(puzzles) != 1:
        raise Rejected(f"puzzle.non holds {len(puzzles)} puzzles; a certificate is about one")
    puzzle = puzzles[0]
    if puzzle.is_colour:
        raise Rejected("puzzle.non is a colour puzzle; certificates are black and white")
    return puzzle


#: A number as DIMACS writes it, one spelling only: drat-trim reads the formula with C's
#: ``%i`` (``010`` is octal 8 to it, ``0x9`` is 9), Python's ``int`` reads ``010`` as 10 and
#: ``1_0`` as 10.  A formula this check reads as the clues' encoding must be the formula the
#: proof checker reads, so a literal spelled any other way is refused.
_NUMBER = re.compile(r"-?[1-9][0-9]*|0")
#: What a line may hold: printable ASCII and tabs (``str.split`` also splits at the file
#: and group separators ``\x1c``-``\x1f``, which C's ``isspace`` does not skip).
_LINE = re.compile(r"[\x20-\x7e\t\r]*")


def _numbers(words: list[str], path: Path, number: int) -> list[int]:
    for word in words:
        if not _NUMBER.fullmatch(word):
            raise Rejected(f"{path.name}: line {number}: {word[:20]!r} is not a number as DIMACS writes it "
                           "(digits, an optional minus, no leading zero)")
    return [int(word) for word in words]


def _dimacs(path: Path) -> tuple[int, list[tuple[int, ...]], dict[tuple[int, int], int]]:
    """``(variables, clauses, {(row, column) 1-based: variable})`` of a DIMACS file, read
    strictly (see :data:`_NUMBER`): lines end at ``\n`` only, words are split at spaces and tabs."""
    header = None
    clauses: list[tuple[int, ...]] = []
    cells: dict[tuple[int, int], int] = {}
    current: list[int] = []
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as err:
        raise Rejected(f"{path.name} is not a DIMACS CNF file: {err}") from None
    for number, line in enumerate(text.split("\n"), 1):
        if not _LINE.fullmatch(line):
            raise Rejected(f"{path.name}: line {number}: a control character (DIMACS is printable text)")
        words = line.replace("\t", " ").replace("\r", " ").split(" ")
        words = [word for word in words if word]
        if not words:
            continue
        if words[0] == "c":
            if len(words) == 5 and words[1] == "cell":
                row, column, variable = _numbers(words[2:], path, number)
                cells[(row, column)] = variable
            continue
        if words[0] == "p":
            if header is not None or len(words) != 4 or words[1] != "cnf" or \
                    not all(_NUMBER.fullmatch(w) and not w.startswith("-") for w in words[2:]):
                raise Rejected(f"{path.name}: line {number}: a bad 'p cnf' header")
            header = (int(words[2]), int(words[3]))
            continue
        for value in _numbers(words, path, number):
            if value == 0:
                clauses.append(tuple(sorted(current)))
                current = []
            else:
                current.append(value)
    if header is None:
        raise Rejected(f"{path.name} has no 'p cnf' header")
    if current:
        raise Rejected(f"{path.name}: the last clause has no closing 0")
    if header[1] != len(clauses):
        raise Rejected(f"{path.name}: the header counts {header[1]} clauses, the file holds {len(clauses)}")
    return header[0], clauses, cells


def _cnf_of_clues(path: Path, puzzle: Any, excluded: Any = None) -> None:
    """``path`` holds exactly the clues' encoding (plus, for a unique answer, the one clause
    that excludes the grid ``excluded``), with the cells numbered as the document says."""
    variables, clauses, cells = _dimacs(path)
    width = puzzle.width
    expected_cells = {(r + 1, c + 1): r * width + c + 1 for r in range(puzzle.height) for c in range(width)}
    if cells != expected_cells:
        raise Rejected(f"{path.name}: its 'c cell R C VAR' lines do not map every cell to r * width + c + 1")
    derived, derived_vars = puzzle_clauses(puzzle.rows, puzzle.columns)
    # A puzzle's givens (revealed cells) are part of it: one unit clause each.
    derived += [[r * width + c + 1 if value else -(r * width + c + 1)] for r, c, value in puzzle.givens]
    if variables != max(derived_vars, puzzle.width * puzzle.height):
        raise Rejected(f"{path.name} declares {variables} variables; the clues' encoding has {derived_vars}")
    have = Counter(clauses)
    want = Counter(tuple(sorted(c)) for c in derived)
    if excluded is not None:
        exclusion = tuple(sorted(-var if excluded[r - 1][c - 1] else var for (r, c), var in cells.items()))
        if have[exclusion] != want[exclusion] + 1:
            raise Rejected(f"{path.name} lacks the clause that excludes solution.txt")
        have[exclusion] -= 1
    if have != want:
        extra = next(iter(have - want), None)
        missing = next(iter(want - have), None)
        if extra is not None:
            what = f"has the clause '{' '.join(map(str, extra))} 0' that the clues do not give"
        else:
            assert missing is not None, "counters that differ, with none in excess, lack a clause"
            what = f"lacks the clause '{' '.join(map(str, missing))} 0' of the clues"
        raise Rejected(f"{path.name} is not the encoding of puzzle.non{' plus that clause' if excluded else ''}: "
                       f"it {what}")


def _runs(cells: Any) -> tuple[int, ...]:
    out, run = [], 0
    for filled in cells:
        if filled:
            run += 1
        elif run:
            out.append(run)
            run = 0
    return tuple(out + [run] if run else out)


def _solution(path: Path, puzzle: Any) -> tuple[tuple[bool, ...], ...]:
    """The grid of a solution file, once every row and column is checked against the clues."""
    try:
        rows = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError) as err:
        raise Rejected(f"{path.name} cannot be read: {err}") from None
    if len(rows) != puzzle.height or any(len(r) != puzzle.width or set(r) - {"#", "."} for r in rows):
        raise Rejected(f"{path.name} is not a {puzzle.width}x{puzzle.height} grid of # and .")
    grid = tuple(tuple(ch == "#" for ch in row) for row in rows)
    for r, c, value in puzzle.givens:
        if grid[r][c] != bool(value):
            raise Rejected(f"{path.name} breaks the given cell ({r + 1},{c + 1}) of puzzle.non")
    for r, clue in enumerate(puzzle.rows):
        if _runs(grid[r]) != tuple(clue):
            raise Rejected(f"{path.name} breaks the clue of row {r + 1}: {_clue(clue)} wanted, "
                           f"{_clue(_runs(grid[r]))} drawn")
    for c, clue in enumerate(puzzle.columns):
        column = [grid[r][c] for r in range(puzzle.height)]
        if _runs(column) != tuple(clue):
            raise Rejected(f"{path.name} breaks the clue of column {c + 1}: {_clue(clue)} wanted, "
                           f"{_clue(_runs(column))} drawn")
    return grid


def _clue(clue: Any) -> str:
    return " ".join(map(str, clue)) or "0"


def _proof(folder: Path, formula: str, checker: str, time_limit: float | None, cancel: Any) -> str:
    verdict = check_proof(folder / formula, folder / "proof.drat", checker, time_limit, cancel)
    if verdict.stopped:
        raise Stopped(f"proof.drat: {verdict.checker}: {verdict.detail}", verdict.stopped)
    if not verdict.ok:
        raise Rejected(f"proof.drat: {verdict.checker} rejects it as a refutation of {formula}: {verdict.detail}")
    return verdict.checker


def iter_checks(directory: str | Path, checker: str = "auto",
                time_limit: float | None = None) -> Iterator[CertificateCheck]:
    """:func:`check_certificate` for every certificate of :func:`certificates_in` (``time_limit`` each)."""
    for folder in certificates_in(directory):
        yield check_certificate(folder, checker, time_limit)
