"""Run several backends on one puzzle, verify every answer, and decide whether they agree.

Each backend's answer is read as an interval for the true number of solutions:
an exhausted search gives ``[count, count]``, a search stopped by ``max_solutions``
or by a time limit gives ``[count, infinity)``.  The backends agree when these
intervals meet and, wherever two searches were exhausted, they found the same
solutions (a backend that stopped early must have found a subset of them).  A
solution that fails the clues is a disagreement too: it is a bug in that backend.
When no backend proved anything (each timed out or failed to run), nothing was
compared: the verdict is ``INCONCLUSIVE``, never ``AGREE``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Sequence

from nonolab.core.puzzle import Puzzle, require_many, require_puzzle
from nonolab.core.words import counted
from nonolab.errors import InvalidArgument, NonolabError, TooLarge
from nonolab.harness.uniqueness import Verdict, said, verdict_of
from nonolab.errors import WrongAnswer
from nonolab.solvers import Capability, capabilities_of, build, names
from nonolab.solvers.base import Limits, SolveResult, needs


class Agreement(str, Enum):
    """The verdict of a cross-check.

    * ``AGREE``: at least one backend proved an answer and no answer contradicts another.
    * ``DISAGREE``: two answers contradict each other, a backend returned a wrong
      picture, or one crashed while others answered.
    * ``INCONCLUSIVE``: no backend proved anything (every one timed out or failed),
      so nothing was compared; or a backend named declined the puzzle (it declares no
      colour, or no given cells), so nothing was compared with it.

    >>> Agreement.INCONCLUSIVE.value
    'INCONCLUSIVE'
    """

    AGREE = "AGREE"
    DISAGREE = "DISAGREE"
    INCONCLUSIVE = "INCONCLUSIVE"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class BackendAnswer:
    """One backend's answer; ``error`` is set (and ``result`` None) when it failed to run.

    ``refused`` says that the error is the backend declining a puzzle beyond its
    documented size (``TooLarge``): no answer, and no disagreement either.
    """

    backend: str
    result: SolveResult | None
    error: str | None = None
    wall_time: float = 0.0
    refused: bool = False  # beyond the backend's size guard (TooLarge): it said so, nothing wrong
    declined: bool = False  # it does not declare what the puzzle needs (colour, givens): not run
    wrong: bool = False  # the error is a verified wrong answer (a bug), not a failure to run

    @property
    def decisive(self) -> bool:
        """It proved something: unique, multiple or contradiction."""
        return self.result is not None and verdict_of(self.result) not in (Verdict.TIMEOUT, Verdict.INTERRUPTED)

    @property
    def verdict(self) -> Verdict | None:
        """The uniqueness verdict of its answer; ``None`` when it failed to answer."""
        return None if self.result is None else verdict_of(self.result)

    def as_dict(self) -> dict[str, Any]:
        # A backend that failed to run has no verdict ("error" is none of the four words):
        # null, with the reason in error.
        data: dict[str, Any] = {"backend": self.backend,
                                "verdict": self.verdict.value if self.verdict else None, "error": self.error,
                                "time": round(self.wall_time, 6)}
        if self.result is not None:
            run = self.result.as_dict()
            data.update({key: run[key] for key in ("status", "count", "exact", "solutions", "stats")})
        return data


@dataclass(frozen=True)
class CrossCheck:
    """The answers of every backend and the :class:`Agreement`, with the reasons if not AGREE."""

    puzzle: Puzzle
    answers: tuple[BackendAnswer, ...]
    agreement: Agreement
    problems: tuple[str, ...] = field(default=())

    def __repr__(self) -> str:
        # The word first (outcome_of, by ``verdict``), then whether the backends agree on it.
        agreement = {Agreement.AGREE: "backends agree", Agreement.DISAGREE: "backends disagree",
                     Agreement.INCONCLUSIVE: "nothing compared"}[self.agreement]
        return f"CrossCheck({said(self)}, {agreement}: {', '.join(a.backend for a in self.answers)})"

    @property
    def agree(self) -> bool:
        return self.agreement is Agreement.AGREE

    @property
    def verdict(self) -> Verdict:
        """The cross-check's word (:meth:`consensus`), what :func:`~nonolab.outcome_of` gives."""
        return self.consensus()

    def consensus(self) -> Verdict:
        """The strongest uniqueness verdict any backend proved (they agree on it, if ``agree``):
        the cross-check's verdict, one of the words.  Strongest first, for each rests on checked
        evidence that refutes the ones after it: two verified solutions (multiple) refute
        unique and contradiction, one verified solution (unique) refutes contradiction.  On a
        disagreement it is still a word, never a fifth one: the disagreement is said apart
        (``agreement``, the exit code, the bug report).  ``timeout`` when nothing was proved."""
        found = {a.verdict for a in self.answers}
        for v in (Verdict.MULTIPLE, Verdict.UNIQUE, Verdict.CONTRADICTION):
            if v in found:
                return v
        return Verdict.TIMEOUT

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.puzzle.name, "width": self.puzzle.width, "height": self.puzzle.height,
                "verdict": self.consensus().value, "agreement": self.agreement.value.lower(),
                "problems": list(self.problems), "answers": [a.as_dict() for a in self.answers]}


def run_backend(puzzle: Puzzle, backend: str, limits: Limits, **options: Any) -> BackendAnswer:
    """Run one backend; a crash or a wrong answer becomes an answer with ``error`` set.

    ``wall_time`` covers the solve only, not loading the backend's library (a
    one-time cost of the process, half a second for OR-tools).
    """
    solver = build(backend, **options)  # BackendUnavailable / UnknownBackend: cannot run at all
    missing = needs(puzzle) - capabilities_of(solver.name)
    if missing:   # declared, not a failure: nothing to compare with it (and no bug to report)
        what = " and ".join(sorted({Capability.COLOUR: "colour puzzles",
                                    Capability.GIVEN_CELLS: "given cells"}[c] for c in missing))
        return BackendAnswer(backend, None, f"declined: backend {backend!r} does not take {what}",
                             declined=True)
    start = time.perf_counter()
    try:
        result = solver.solve(puzzle, limits)
    except WrongAnswer as err:  # the backend returned a bad picture
        return BackendAnswer(backend, None, str(err), time.perf_counter() - start, wrong=True)
    except TooLarge as err:  # beyond what this backend holds: it says so, it is not wrong
        return BackendAnswer(backend, None, str(err), time.perf_counter() - start, refused=True)
    except NonolabError as err:
        return BackendAnswer(backend, None, str(err), time.perf_counter() - start)
    except Exception as err:  # noqa: BLE001 — a backend crash is a finding, not a reason to stop
        return BackendAnswer(backend, None, f"{type(err).__name__}: {err}", time.perf_counter() - start)
    return BackendAnswer(backend, result, None, time.perf_counter() - start)


def compare(answers: Sequence[BackendAnswer]) -> list[str]:
    """Every reason the answers disagree (empty: they agree)."""
    problems = [f"{a.backend}: {a.error}" for a in answers
                if a.error is not None and not (a.refused or a.declined)]
    # (backend answer, its result) for every backend that ran: the result is then not None.
    ran = [(a, a.result) for a in answers if a.result is not None]
    low = max((r.count for _, r in ran), default=0)
    exact = [(a, r) for a, r in ran if r.complete]
    for a, r in exact:
        if r.count < low:
            best, found = max(ran, key=lambda pair: pair[1].count)
            problems.append(f"{a.backend} says exactly {counted(r.count, 'solution')} but "
                            f"{best.backend} found {found.count}")
    # A model counter's exact answer lists a few of the solutions it counts: its count is
    # compared above, its solutions as a subset, as a stopped search's are.
    listing = [(a, r) for a, r in exact if r.total is None]
    if listing:
        reference, known = listing[0]
        truth = set(known.solutions)
        for a, r in ran:
            if a is reference:
                continue
            mine = set(r.solutions)
            if r.complete and r.total is None and mine != truth:
                problems.append(f"{a.backend} and {reference.backend} both finished but found "
                                f"different solutions")
            elif not mine <= truth:
                problems.append(f"{a.backend} found a solution that {reference.backend}'s exhaustive "
                                f"search did not")
    return problems


def crosscheck(puzzle: Puzzle, backends: Sequence[str] | None = None, max_solutions: int | None = 2,
               time_limit: float | None = None, options: dict[str, dict[str, Any]] | None = None, *,
               cancel: Any = None, capable_only: bool = False) -> CrossCheck:
    """Run ``backends`` (default: the solvers and strategies, not the slow baselines)
    on ``puzzle`` and compare them.

    Args:
        puzzle: the puzzle.
        backends: backend names or specs (``native:line=overlap``); each must be
            installed (else BackendUnavailable).  By default, for a colour puzzle, the
            solvers and strategies that declare colour.
        max_solutions: each backend stops after this many solutions (None: all); at least 2,
            as the verdict each proves is a count to 2 (one solution alone proves nothing).
        time_limit: seconds per backend.
        options: per-backend options, e.g. ``{"cnf": {"solver": "glucose4"}}``.
        cancel: a ``threading.Event``; once set, the running backend stops and the
            ones after it end at once (each answers ``interrupted``).
        capable_only: leave out the named backends that cannot take this puzzle (a
            colour puzzle and a backend without ``Capability.COLOUR``, a puzzle with
            givens and one without ``Capability.GIVEN_CELLS``: ``solvers.base.needs``), as
            a batch over a folder of all kinds wants; otherwise each of them declines
            (and the cross-check is inconclusive: nothing was compared with it).

    >>> from nonolab import Puzzle, crosscheck
    >>> check = crosscheck(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), ["native"])
    >>> check.agreement.value, check.consensus().value
    ('AGREE', 'multiple')
    """
    puzzle = require_puzzle(puzzle, "crosscheck")
    require_many(backends, "crosscheck", "backends")
    if max_solutions is not None and max_solutions < 2:
        # Capped at one, every backend stops at its first solution and none proves anything:
        # the cross-check would say "timeout, INCONCLUSIVE" of any puzzle, no limit reached.
        raise InvalidArgument("a cross-check compares verdicts, each a count to 2: {arg} must be at least 2",
                              argument="max_solutions")
    if not backends:
        backends = names(("solver", "strategy"))
        capable_only = True
    needed = needs(puzzle)
    if capable_only and needed:   # only those that declare what the puzzle needs
        backends = [b for b in backends if needed <= capabilities_of(b.partition(":")[0])]
    limits = Limits(max_solutions=max_solutions, time_limit=time_limit, cancel=cancel)
    options = options or {}
    answers = tuple(run_backend(puzzle, b, limits, **options.get(b, {})) for b in backends)
    problems = compare(answers)
    return CrossCheck(puzzle, answers, agreement(answers, problems), tuple(problems))


def agreement(answers: Sequence[BackendAnswer], problems: Sequence[str]) -> Agreement:
    """DISAGREE on a wrong answer or a problem among answers; INCONCLUSIVE when none proved
    anything, or a backend named declined the puzzle."""
    if any(a.wrong for a in answers):
        return Agreement.DISAGREE
    if not any(a.decisive for a in answers) or (not problems and any(a.declined for a in answers)):
        return Agreement.INCONCLUSIVE
    return Agreement.DISAGREE if problems else Agreement.AGREE


def split_specs(text: str | None) -> list[str]:
    """Backend specs joined by commas, as ``verify --backends`` and a batch job take them.

    A spec's own options are joined by commas too: a piece with ``=`` but no ``:``
    is one more option of the spec before it.

    >>> split_specs("native:line=overlap,probing=none,cpsat")
    ['native:line=overlap,probing=none', 'cpsat']
    >>> split_specs(" auto , cnf ")
    ['auto', 'cnf']
    """
    found: list[str] = []
    for piece in (p.strip() for p in (text or "").split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and found and ":" in found[-1]:
            found[-1] += "," + piece
        else:
            found.append(piece)
    return found


def write_report(check: CrossCheck, path: str | Path, puzzle_text: str) -> Path:
    """Save a disagreement as one JSON file fit for a bug report: the puzzle and every answer."""
    path = Path(path)
    data = {"puzzle_non": puzzle_text, **check.as_dict()}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    tmp.replace(path)
    return path
