"""Certified answers: a folder that proves a ``check`` verdict to anyone, without trusting nonolab.

:func:`certify` answers ``check`` for one puzzle and writes a certificate (see
:mod:`.files` for what is in it): for ``unique``, the solution and a DRAT proof that the
puzzle's CNF with that solution excluded has no model; for ``contradiction``, a DRAT
proof that the CNF has none; for ``multiple``, two solutions.  The CNF is the regular
line encoding ``nonolab export --to dimacs`` writes.  :mod:`nonolab.certcheck` checks a
certificate with code of its own and an external proof checker.

Which engine proves: the backend asked, when it declares
:attr:`~nonolab.solvers.Capability.PROOF` (one run answers and proves); otherwise the
backend answers, and the engine that answered inside it (a strategy's ``winner``) proves
again when it declares ``PROOF``, else the registry's default prover.

>>> import tempfile
>>> from pathlib import Path
>>> from nonolab.core import Puzzle
>>> folder = Path(tempfile.mkdtemp()) / "cert"
>>> made = certify(Puzzle(rows=((2,), (1,)), columns=((2,), (1,))), folder)
>>> made.verdict.value, made.certified, sorted(made.files)[:3]
('unique', True, ['README.txt', 'SHA256SUMS', 'manifest.json'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument, NonolabError, WrongAnswer
from nonolab.harness.uniqueness import Verdict, verdict_of
from nonolab.solvers import DEFAULT, PROVER, Proving, as_prover, get, build
from nonolab.solvers.base import Budget, SolveResult, Solver

__all__ = ["MAX_CLAUSES", "Certificate", "certify", "prover_for"]

#: The largest CNF a certificate holds: 5 million clauses, about 60 MB of DIMACS text, a few
#: GB of memory to write and to check.  Of the 238 corpus puzzles only Gargantua (200x200,
#: 16 million clauses) is larger; its certificate would be 200 MB.
MAX_CLAUSES = 5_000_000


@dataclass(frozen=True)
class Certificate:
    """What :func:`certify` made.

    Attributes:
        verdict: the answer (``unique``, ``multiple``, ``contradiction``, ``timeout`` or
            ``interrupted``).
        path: the certificate's folder; ``None`` when none was written (no verdict, or the
            proof did not finish in time: ``reason`` says which).
        answered_by: the backend that answered; ``prover`` the one whose proof is in it.
        files: ``{file name: SHA-256}`` of every file written.
        proof_lines, proof_bytes: the proof's size (0 for ``multiple``).
        answer_time, prove_time: seconds spent answering and proving (one run, when the
            backend asked proves: then ``prove_time`` is 0).
    """

    verdict: Verdict
    path: Path | None
    answered_by: str
    prover: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)
    proof_lines: int = 0
    proof_bytes: int = 0
    answer_time: float = 0.0
    prove_time: float = 0.0
    reason: str = ""

    @property
    def certified(self) -> bool:
        return self.path is not None

    def as_dict(self) -> dict[str, Any]:
        """The plain-data shape of ``--json`` (``nonolab/schemas/certificate.json``)."""
        return {"certified": self.certified, "path": str(self.path) if self.path else None,
                "verdict": self.verdict.value, "answered_by": self.answered_by, "prover": self.prover,
                "files": dict(self.files), "proof_lines": self.proof_lines, "proof_bytes": self.proof_bytes,
                "answer_time": round(self.answer_time, 6), "prove_time": round(self.prove_time, 6),
                "reason": self.reason}


def prover_for(result: SolveResult) -> Proving:
    """The engine that proves what ``result`` answered: the engine that answered inside a
    strategy (its ``winner`` counter) when that declares ``PROOF``, else the default prover.

    >>> from nonolab.solvers import get
    >>> from nonolab.core import Puzzle
    >>> prover_for(get("native").solve(Puzzle(rows=((1,),), columns=((1,),)))).name
    'lcg'
    """
    winner = result.stats.counters.get("winner")
    if isinstance(winner, str):
        try:
            engine = build(winner)
        except NonolabError:
            engine = None
        proving = as_prover(engine) if engine is not None else None
        if proving is not None:
            return proving
    default = as_prover(get(PROVER))
    assert default is not None, f"the registry's PROVER ({PROVER}) is chosen among the backends that declare PROOF"
    return default


def certify(puzzle: Puzzle, directory: str | Path, solver: Solver | None = None, time_limit: float | None = None,
            *, cancel: Any = None) -> Certificate:
    """Answer ``check`` for ``puzzle`` and write its certificate into the folder ``directory``.

    The folder is written whole or not at all (built beside it, then renamed); an older
    certificate there is replaced, anything else there is left alone (an error).

    Args:
        puzzle: a black-and-white puzzle.
        directory: the certificate's folder.
        solver: the backend that answers (default: the registry's default).
        time_limit: seconds for answering and proving together.
        cancel: a ``threading.Event`` that stops the work (verdict ``interrupted``).

    Raises:
        InvalidArgument: a colour puzzle (the CNF export has no colour encoding), or a
            ``directory`` that holds something other than a certificate.
        WrongAnswer: the prover's answer contradicts the answering backend's.
    """
    from nonolab.certify.files import write_certificate

    if puzzle.is_colour:
        raise InvalidArgument("certificates are for black-and-white puzzles: the DIMACS export they rest on has "
                              "no colour encoding")
    solver = solver or get(DEFAULT)
    target = Path(directory)
    budget = Budget(time_limit, cancel)   # counting the clauses is part of the time
    size = _clauses(puzzle)

    with _Draft(target) as draft:
        proof_path = draft.path / "proof.drat"
        prover: Proving | None  # the engine whose proof the certificate holds
        if size > MAX_CLAUSES:  # answer, but no prover: a proof over that CNF is not written
            result = proved = solver.solve(puzzle, budget.limits(2))
            prover, answer_time, prove_time = None, budget.elapsed(), 0.0
        elif (answering := as_prover(solver)) is not None:
            result = proved = answering.prove(puzzle, budget.limits(2), proof_path)
            prover, answer_time, prove_time = answering, budget.elapsed(), 0.0
        else:
            result = solver.solve(puzzle, budget.limits(2))
            answer_time = budget.elapsed()
            prover, proved = None, result
            if verdict_of(result) in (Verdict.UNIQUE, Verdict.CONTRADICTION):
                prover = prover_for(result)
                proved = prover.prove(puzzle, budget.limits(2), proof_path)
                _same_answer(solver.name, result, prover.name, proved)
            prove_time = budget.elapsed() - answer_time
        verdict = verdict_of(result)
        made = Certificate(verdict, None, solver.name, prover.name if prover else None, answer_time=answer_time,
                           prove_time=prove_time)
        if size > MAX_CLAUSES:
            return _replace(made, reason=f"no certificate: its CNF would hold {size:,} clauses, more than "
                                         f"{MAX_CLAUSES:,} (about {size * 12 // 10**6:,} MB)")
        if verdict not in (Verdict.UNIQUE, Verdict.CONTRADICTION, Verdict.MULTIPLE):
            return _replace(made, reason=f"no certificate: the answer is {verdict.value}")
        if verdict is not Verdict.MULTIPLE and not proved.complete:
            assert prover is not None, "a unique or contradiction answer within MAX_CLAUSES always has a prover"
            return _replace(made, reason=f"no certificate: {verdict.value}, but the proof by {prover.name} "
                                         f"did not finish ({verdict_of(proved).value})")
        counters = proved.stats.counters if verdict is not Verdict.MULTIPLE else {}
        files = write_certificate(draft.path, puzzle, verdict, result.solutions if verdict is Verdict.MULTIPLE
                                  else proved.solutions, made.answered_by, made.prover)
        draft.keep()
    return _replace(made, path=target, files=files, proof_lines=int(counters.get("proof_lines", 0)),
                    proof_bytes=int(counters.get("proof_bytes", 0)))


def _clauses(puzzle: Puzzle) -> int:
    """The clauses of the puzzle's CNF (``models/cnf.md`` gives them line by line)."""
    from nonolab.solvers.cnf import line_size

    return (sum(line_size(clue, puzzle.width)[1] for clue in puzzle.rows)
            + sum(line_size(clue, puzzle.height)[1] for clue in puzzle.columns) + len(puzzle.givens))


def _replace(made: Certificate, **changes: Any) -> Certificate:
    from dataclasses import replace
    return replace(made, **changes)


def _same_answer(answered_by: str, answer: SolveResult, prover: str, proved: SolveResult) -> None:
    """The prover, when it finished, must say what the answering backend said."""
    if proved.complete and verdict_of(proved) is not verdict_of(answer):
        raise WrongAnswer(f"{answered_by} answered {verdict_of(answer).value} but {prover}, proving it, "
                          f"answered {verdict_of(proved).value}")
    if proved.complete and proved.solutions and set(proved.solutions) != set(answer.solutions):
        raise WrongAnswer(f"{answered_by} and {prover} found different solutions")


def _certificate_files(folder: Path) -> set[str]:
    """The names of the files of the certificate in ``folder``: its manifest, SHA256SUMS and
    the files the manifest lists (none when it cannot be read)."""
    import json

    try:
        listed = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("files")
    except (OSError, ValueError, AttributeError):
        listed = None
    names = {"manifest.json", "SHA256SUMS"}
    return names | {n for n in listed if isinstance(n, str)} if isinstance(listed, dict) else names


class _Draft:
    """A folder built beside ``target`` and renamed onto it by :meth:`keep`, else removed."""

    def __init__(self, target: Path):
        self.target = target
        if target.exists() and not (target.is_dir() and (not any(target.iterdir())
                                                         or (target / "manifest.json").is_file())):
            raise InvalidArgument(f"{target}: exists and is not a certificate; not overwritten")
        # An earlier certificate is replaced whole: a file put beside its own went with it.
        others = sorted(set(p.name for p in target.iterdir()) - _certificate_files(target)) if target.is_dir() else []
        if others:
            more = f" (and {len(others) - 1} more)" if len(others) > 1 else ""
            raise InvalidArgument(f"{target}: holds a certificate and {others[0]}{more}, which is not of it; not "
                                  "overwritten: move it out, or certify into another folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        import tempfile
        self.path = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        self._kept = False

    def keep(self) -> None:
        import shutil
        if self.target.exists():
            shutil.rmtree(self.target)
        self.path.rename(self.target)
        self._kept = True

    def __enter__(self) -> "_Draft":
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._kept:
            import shutil
            shutil.rmtree(self.path, ignore_errors=True)
