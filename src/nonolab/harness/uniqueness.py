"""Uniqueness and counting on top of any backend.

A puzzle is called unique only on an exhausted search that found exactly one
solution; two verified, distinct solutions prove it is not, whatever stopped the
search afterwards.  Every other ending is a ``timeout``, or ``interrupted`` when the
caller's cancel stopped it.  The words (:class:`Verdict`, :func:`verdict_of`) live beside
the search's answer (:mod:`nonolab.solvers.result`, whose repr says them) and are named here as ever.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle, require_many, require_puzzle
from nonolab.core.words import counted
from nonolab.errors import InvalidArgument, NonolabError
from nonolab.solvers import DEFAULT, as_batching, get
from nonolab.solvers.base import (NOT_ASKED, Given, Limits, SolveResult, Solver, Status, Verdict, require_count,
                                  search_outcome, verdict_of)


def outcome_of(answer: Any) -> Verdict | None:
    """The one outcome word of any answer of the library, as every front end shows it.

    ``answer`` is a :class:`~nonolab.solvers.base.SolveResult`, a :class:`CheckResult`,
    a :class:`CountResult`, or any answer with a ``verdict`` (the grade, the ambiguity
    report, the designer's report, the explanation).  ``None`` when the question asked
    leaves uniqueness open by design: a search asked for one solution (``solve -n 1``),
    a count capped at one, a grade stopped at its ``up_to`` level.  A search stopped by
    its own limit or cancel with fewer than two solutions is ``timeout`` or
    ``interrupted``, whatever it found.

    >>> from nonolab import Puzzle, check, count, outcome_of
    >>> from nonolab.solvers import Limits, get
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> outcome_of(get("native").solve(p, Limits(None))).value, outcome_of(get("native").solve(p, Limits(1)))
    ('multiple', None)
    >>> outcome_of(count(p)).value, outcome_of(check(p)).value
    ('multiple', 'multiple')
    """
    if isinstance(answer, SolveResult):
        return search_outcome(answer)
    if isinstance(answer, CountResult):
        return outcome_of(answer.result)
    verdict = getattr(answer, "verdict", None)
    if verdict is None or isinstance(verdict, Verdict):
        return verdict
    raise TypeError(f"outcome_of: {type(answer).__name__} is not an answer of the library")


@dataclass(frozen=True)
class CheckResult:
    """``verdict`` plus, for ``multiple``, two solutions and the cells where they differ."""

    verdict: Verdict
    result: SolveResult
    witnesses: tuple[Solution, ...] = ()
    differing: tuple[tuple[int, int], ...] = ()

    def __repr__(self) -> str:
        # Short: the answer, not the solutions and counters (``.result`` has them).
        shown = f", {counted(len(self.differing), 'cell')} differing" if self.differing else ""
        return f"CheckResult({said(self)}{shown}; {_ran(self.result)})"

    def __str__(self) -> str:
        return self.verdict.value

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the solution, or two and where they differ (drawing loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

    def _repr_html_(self) -> str | None:
        """Jupyter: the verdict and the solution, or two solutions and where they differ, as HTML."""
        from nonolab.render.display import html_of
        return html_of(self)

def _ran(result: SolveResult) -> str:
    return f"backend {result.stats.backend}, {result.stats.wall_time:.3f} s"


def said(answer: Any) -> str:
    """What a notebook's repr says first: the word of ``answer`` by :func:`outcome_of`,
    as the CLI's, or that uniqueness was not asked.

    >>> from nonolab import Puzzle, count
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> said(count(p)), said(count(p, limit=1))
    ('multiple', 'uniqueness not asked')
    """
    outcome = outcome_of(answer)
    return outcome.value if outcome is not None else NOT_ASKED


def check(puzzle: Puzzle, solver: Solver | None = None, time_limit: float | None = None, *,
          cancel: Any = None, given: Given | None = None) -> CheckResult:
    """Decide whether ``puzzle`` has exactly one solution (count to 2).

    ``cancel`` (a ``threading.Event``) stops the search once set (verdict ``interrupted``).
    ``given`` (a :class:`~nonolab.solvers.base.Given`): cells a designer gives; the
    question is then whether one solution has those values (the backend must declare
    given cells).

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> c = check(p)
    >>> c.verdict.value, c.differing[:2], str(c.differing[1])    # 0-based cells, printed 1-based
    ('multiple', (Cell(row=0, column=0), Cell(row=0, column=1)), '(1,2)')
    """
    solver = solver or get(DEFAULT)
    result = solver.solve(puzzle, Limits(max_solutions=2, time_limit=time_limit, cancel=cancel), given)
    return _checked(result)


def _checked(result: SolveResult) -> CheckResult:
    verdict = verdict_of(result)
    if verdict is Verdict.MULTIPLE:
        first, second = result.solutions[:2]
        return CheckResult(verdict, result, (first, second), tuple(first.diff(second)))
    return CheckResult(verdict, result, result.solutions[:1])


def check_many(puzzles: Iterable[Puzzle], solver: Solver | None = None, time_limit: float | None = None, *,
               cancel: Any = None, errors: str = "raise") -> Iterator[CheckResult]:
    """:func:`check` for each puzzle of ``puzzles``, lazily and in order: an iterator in,
    an iterator out.  ``time_limit`` is per puzzle.

    A backend that declares ``Capability.BATCH`` (native) answers many puzzles per call
    into its compiled engine, microseconds apart; any other is asked one puzzle at a time.

    ``errors``: what a library error (:class:`~nonolab.errors.NonolabError`) on one puzzle
    does.  ``"raise"``: it is raised in that puzzle's turn, as :func:`check` would raise,
    and ends the iterator.  ``"yield"``: the error itself takes that puzzle's place and the
    puzzles after it are still answered (a set's records: one failed puzzle is one error
    record, not the end of the set).

    >>> two = [Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), Puzzle(rows=((1,),), columns=((1,),))]
    >>> [c.verdict.value for c in check_many(two, get("native"))]
    ['multiple', 'unique']
    """
    if errors not in ("raise", "yield"):
        raise InvalidArgument(f"check_many: errors must be 'raise' or 'yield', not {errors!r}")
    require_many(puzzles, "check_many", "puzzles")
    solver = solver or get(DEFAULT)
    limits = Limits(max_solutions=2, time_limit=time_limit, cancel=cancel)
    each = (require_puzzle(p, "check_many") for p in puzzles)
    return _checked_all(_answers(each, solver, limits), errors == "raise")


def _checked_all(answers: Iterator[Any], raising: bool) -> Iterator[Any]:
    for answer in answers:
        if isinstance(answer, NonolabError):
            if raising:
                raise answer
            yield answer
        else:
            yield _checked(answer)


def _solved(solver: Solver, puzzle: Puzzle, limits: Limits) -> Any:
    """``solver.solve(puzzle, limits)``, or the library error that stopped it."""
    try:
        return solver.solve(puzzle, limits)
    except NonolabError as err:
        return err


def _answers(puzzles: Iterable[Puzzle], solver: Solver, limits: Limits) -> Iterator[Any]:
    """Each puzzle's SolveResult or library error, in order."""
    stream = iter(puzzles)
    many = as_batching(solver)
    if many is None:
        yield from (_solved(solver, puzzle, limits) for puzzle in stream)
        return
    taken: deque[Puzzle] = deque()   # handed to solve_many, not yet answered

    def fed() -> Iterator[Puzzle]:
        for puzzle in stream:
            taken.append(puzzle)
            yield puzzle

    while True:
        try:
            for answer in many.solve_many(fed(), limits):   # a puzzle's own error comes as its answer
                taken.popleft()
                yield answer
            return
        except NonolabError:
            # The batched call failed as a whole: which puzzle caused it is not known, so the
            # ones it had taken are answered one at a time (each error then is its puzzle's),
            # and a fresh batched call takes the rest.
            while taken:
                yield _solved(solver, taken.popleft(), limits)


#: The solutions a count keeps by default: two, the witnesses that a puzzle is not unique.
KEPT = 2


@dataclass(frozen=True)
class CountResult:
    """``count`` solutions were found; ``exact`` says whether that is all of them.

    ``reason`` is why an inexact count stopped: ``"limit"`` (the asked maximum was
    reached), ``"timeout"`` or ``"interrupted"``.
    """

    count: int
    exact: bool
    reason: str
    result: SolveResult

    def __repr__(self) -> str:
        # Short: print(count(p)) must not dump every solution (``.result`` holds them).
        return f"CountResult({said(self)}, count {self.describe()}; {_ran(self.result)})"

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        """The count as people read it: ``43``, ``at least 2`` or ``at least 2 (timeout)``.

        >>> from nonolab import Puzzle, count
        >>> print(count(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))))
        2
        """
        if self.exact:
            return str(self.count)
        return f"at least {self.count}" + (f" ({self.reason})" if self.reason != "limit" else "")


def count(puzzle: Puzzle, solver: Solver | None = None, limit: int | None = None,
          time_limit: float | None = None, *, cancel: Any = None, given: Given | None = None,
          keep: int | None = KEPT) -> CountResult:
    """Count solutions exactly, up to ``limit`` (``None``: no limit); ``cancel`` and
    ``given`` as for :func:`check`.  The result holds the first ``keep`` solutions
    (:attr:`Limits.keep`; ``None``: all of them), every one counted checked against the
    clues: a count of millions holds a few grids, not millions.

    >>> count(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))).describe()
    '2'
    >>> count(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), limit=1).describe()
    'at least 1'
    >>> len(count(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), keep=1).result.solutions)
    1
    """
    if limit is not None:
        require_count(limit, "count", "limit")   # in the caller's word, not Limits' max_solutions
    solver = solver or get(DEFAULT)
    result = solver.solve(puzzle, Limits(max_solutions=limit, time_limit=time_limit, cancel=cancel, keep=keep),
                          given)
    if result.complete:
        return CountResult(result.count, True, "", result)
    reason = ("limit" if limit is not None and result.count >= limit
              else "interrupted" if result.status is Status.INTERRUPTED else "timeout")
    return CountResult(result.count, False, reason, result)
