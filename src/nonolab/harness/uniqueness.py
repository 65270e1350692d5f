"""Uniqueness and counting on top of any backend.

A puzzle is called unique only on an exhausted search that found exactly one
solution; two verified, distinct solutions prove it is not, whatever stopped the
search afterwards.  Every other ending is a ``timeout``, or ``interrupted`` when the
caller's cancel stopped it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers import DEFAULT, get
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Limits, SolveResult, Solver, Status, accepts_fixed_cells


class Verdict(str, Enum):
    """The answer of ``check``, one word each (pbnsolve's vocabulary)."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    CONTRADICTION = "contradiction"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"


def verdict_of(result: SolveResult) -> Verdict:
    if result.count >= 2:
        return Verdict.MULTIPLE
    if result.complete:
        return Verdict.UNIQUE if result.count == 1 else Verdict.CONTRADICTION
    return Verdict.INTERRUPTED if result.status is Status.INTERRUPTED else Verdict.TIMEOUT


@dataclass(frozen=True)
class CheckResult:
    """``verdict`` plus, for ``multiple``, two solutions and the cells where they differ."""

    verdict: Verdict
    result: SolveResult
    witnesses: tuple[Solution, ...] = ()
    differing: tuple[tuple[int, int], ...] = ()

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the solution, or two and where they differ (drawing loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

def check(puzzle: Puzzle, solver: Solver | None = None, time_limit: float | None = None, *,
          cancel: Any = None, fixed_cells: Mapping[tuple[int, int], int] | None = None) -> CheckResult:
    """Decide whether ``puzzle`` has exactly one solution (count to 2).

    ``cancel`` (a ``threading.Event``) stops the search once set (verdict ``interrupted``).
    ``fixed_cells`` (``{(row, column): 0 or 1}``, 0-based): givens; the question is then
    whether one solution has those values (the backend must accept fixed cells).

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> c = check(p)
    >>> c.verdict.value, c.differing
    ('multiple', ((0, 0), (0, 1), (1, 0), (1, 1)))
    """
    solver = solver or get(DEFAULT)
    limits = Limits(max_solutions=2, time_limit=time_limit, cancel=cancel)
    result = solve_with_givens(solver, puzzle, limits, fixed_cells)
    verdict = verdict_of(result)
    if verdict is Verdict.MULTIPLE:
        first, second = result.solutions[:2]
        return CheckResult(verdict, result, (first, second), tuple(first.diff(second)))
    return CheckResult(verdict, result, result.solutions[:1])


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

    def describe(self) -> str:
        if self.exact:
            return str(self.count)
        return f"at least {self.count}" + (f" ({self.reason})" if self.reason != "limit" else "")


def count(puzzle: Puzzle, limit: int | None = None, solver: Solver | None = None,
          time_limit: float | None = None, *, cancel: Any = None,
          fixed_cells: Mapping[tuple[int, int], int] | None = None) -> CountResult:
    """Count solutions exactly, up to ``limit`` (``None``: no limit); ``cancel`` and
    ``fixed_cells`` as for :func:`check`.

    >>> count(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))).describe()
    '2'
    >>> count(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), limit=1).describe()
    'at least 1'
    """
    solver = solver or get(DEFAULT)
    limits = Limits(max_solutions=limit, time_limit=time_limit, cancel=cancel)
    result = solve_with_givens(solver, puzzle, limits, fixed_cells)
    if result.complete:
        return CountResult(result.count, True, "", result)
    reason = ("limit" if limit is not None and result.count >= limit
              else "interrupted" if result.status is Status.INTERRUPTED else "timeout")
    return CountResult(result.count, False, reason, result)


def solve_with_givens(solver: Solver, puzzle: Puzzle, limits: Limits,
                      fixed_cells: Mapping[tuple[int, int], int] | None) -> SolveResult:
    """``solver.solve`` with ``fixed_cells`` (givens) when there are some.

    Raises:
        InvalidArgument: givens for a backend that cannot fix cells, or a given outside the grid.

    >>> from nonolab.solvers import get
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> solve_with_givens(get("native"), p, Limits(None), {(0, 0): 1}).count
    1
    """
    if not fixed_cells:
        return solver.solve(puzzle, limits)
    if not accepts_fixed_cells(solver):
        raise InvalidArgument(f"backend {solver.name!r} cannot take givens (fixed cells); "
                              "use native, auto, cnf, cpsat or lcg")
    for (r, c), v in fixed_cells.items():
        if not (0 <= r < puzzle.height and 0 <= c < puzzle.width) or v not in (0, 1):
            raise InvalidArgument(f"given ({r + 1},{c + 1}) is outside the {puzzle.width}x{puzzle.height} grid"
                                  if v in (0, 1) else f"given ({r + 1},{c + 1}) has value {v!r}, not 0 or 1")
    return solver.solve(puzzle, limits, fixed_cells=dict(fixed_cells))  # type: ignore[call-arg]

