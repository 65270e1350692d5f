"""Judging one candidate puzzle: is it unique, and is it easy enough?

The generator's acceptance test, built on :func:`nonolab.harness.classify.grade`
and :func:`nonolab.harness.uniqueness.count`:

* ``max_grade`` caps the difficulty.  ``line`` accepts the ``line`` grade only;
  ``probe`` also the three probing levels of the ladder (``contradiction-probe``,
  ``full-probe``, ``depth-2``: solved without a guess); ``search`` accepts any
  unique puzzle.  A grade's verdict must be ``unique``: for the deduction levels
  every step was forced, for ``search`` it is an exact count to 2.
* ``unique`` asks, on top, for an exact count to 2 by ``backend`` (a complete
  search that found one solution); a count cut by the time limit never accepts.

Either criterion alone implies uniqueness.  With neither, nothing is checked.  Colour
puzzles climb the same ladder (native's colour engine probes and logs steps; it has no
depth-2 level, so what full probing leaves open grades ``search``).

>>> from nonolab.core import Puzzle
>>> a = assess(Puzzle(rows=((1,), ()), columns=((1,), ())), Criteria(unique=True, max_grade="line"))
>>> a.outcome.value, a.grade.value
('accepted', 'line')
>>> assess(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), Criteria(unique=True)).outcome.value
'multiple'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum
from typing import Any

from nonolab.core.puzzle import Puzzle
from nonolab.core.grid import UNKNOWN
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.harness.classify import Grade, grade
from nonolab.harness.uniqueness import CheckResult, Verdict, check
from nonolab.solvers import DEFAULT, backends_with, get, build, role
from nonolab.solvers.base import Budget, Capability, Limits, Status, capabilities

__all__ = ["MAX_GRADES", "WITNESSES", "Criteria", "Outcome", "Assessment", "assess", "undecided_cells",
           "differing_cells", "repair_witness"]

# The reproducible solvers that aim a repair when the judge is not reproducible, fastest
# first (a count to 2 of a generated 30x30 takes lcg about a millisecond; CP-SAT builds a
# model first); any other solver declaring REPRODUCIBLE comes after them.
WITNESSES = ("lcg", "cpsat")

# The --max-grade words and the highest ladder level each accepts.
MAX_GRADES = {"line": Grade.LINE, "probe": Grade.DEPTH2, "search": Grade.SEARCH}


class Outcome(str, Enum):
    """What became of a candidate: accepted, or why not."""

    ACCEPTED = "accepted"
    MULTIPLE = "multiple"          # two solutions (or none: clues from a picture always have one)
    TOO_HARD = "too-hard"          # unique perhaps, but above max_grade
    TIMEOUT = "timeout"            # the time limit cut the proof: never accepted
    DENSITY = "density"            # filled fraction outside the accepted range
    UNIFORM_LINES = "uniform-lines"  # a row or column all filled or all empty
    DUPLICATE = "duplicate"        # the same clues as a puzzle already accepted
    REPAIR_FAILED = "repair-failed"  # repairs ran out (or found no cell to flip)
    MISSING_COLOUR = "missing-colour"  # a colour of the palette is not in the picture


@dataclass(frozen=True)
class Criteria:
    """What an accepted puzzle must satisfy.

    Args:
        unique: prove uniqueness by an exact count to 2 with ``backend``.
        max_grade: ``"line"``, ``"probe"`` or ``"search"`` (see the module doc), or None.
        backend: the backend that counts (for ``unique`` and for the ``search`` grade).
    """

    unique: bool = False
    max_grade: str | None = None
    backend: str = DEFAULT

    def __post_init__(self) -> None:
        if self.max_grade is not None and self.max_grade not in MAX_GRADES:
            raise InvalidArgument(f"{{arg}} must be one of {', '.join(MAX_GRADES)}, not {self.max_grade!r}",
                                  argument="max_grade")

    @property
    def checks(self) -> bool:
        """Whether any solver runs at all."""
        return self.unique or self.max_grade is not None


@dataclass(frozen=True)
class Assessment:
    """The outcome for one puzzle; ``grade`` is known when the grading finished;
    ``differing`` holds the cells where two solutions differ when the count to 2 found them
    (a repair aims there without solving again)."""

    outcome: Outcome
    grade: Grade | None = None
    differing: tuple[tuple[int, int], ...] | None = None


def assess(puzzle: Puzzle, criteria: Criteria, time_limit: float | None = None, cancel: Any = None,
           counted: CheckResult | None = None) -> Assessment:
    """Judge ``puzzle`` against ``criteria`` within ``time_limit`` wall seconds (``cancel``, a
    ``threading.Event``, stops the searches once set: the outcome is then TIMEOUT).

    Grades up to the level ``max_grade`` allows (up to ``search`` when only
    ``unique`` is asked, which also counts to 2), then confirms ``unique`` with
    :func:`~nonolab.harness.uniqueness.count`.

    ``counted``: the puzzle's count to 2 by ``criteria.backend``, made already (the
    generator counts drawn candidates many at a time: :mod:`~nonolab.generate.screen`).
    Two solutions are then ``multiple`` at once where the grading would climb to the
    search and find them (no ``max_grade`` below ``search``); one solution spares the
    count to 2 of ``unique``; any other answer is not used.  The outcome is the one the
    judge would reach without it.
    """
    if not criteria.checks:
        return Assessment(Outcome.ACCEPTED)
    watch = Budget(time_limit)
    found: Grade | None = None
    ceiling = MAX_GRADES[criteria.max_grade or "search"]
    known = counted.verdict if counted is not None else None
    if known is Verdict.MULTIPLE and ceiling is Grade.SEARCH:
        return Assessment(Outcome.MULTIPLE, Grade.SEARCH)   # what the grade's own count to 2 gives
    graded = grade(puzzle, criteria.backend, time_limit, up_to=ceiling, cancel=cancel)
    if graded.verdict in ("timeout", "interrupted"):
        return Assessment(Outcome.TIMEOUT)
    if graded.verdict in ("multiple", "contradiction"):
        return Assessment(Outcome.MULTIPLE, graded.grade)
    if graded.grade is None or graded.grade.rank > ceiling.rank:
        return Assessment(Outcome.TOO_HARD, graded.grade)
    found = graded.grade
    if criteria.unique:
        if known is Verdict.UNIQUE:
            return Assessment(Outcome.ACCEPTED, found)
        left = watch.left()
        if left is not None and left <= 0:
            return Assessment(Outcome.TIMEOUT, found)
        answer = check(puzzle, build(criteria.backend), left, cancel=cancel)   # the count to 2, with the witnesses
        if answer.verdict in (Verdict.TIMEOUT, Verdict.INTERRUPTED):
            return Assessment(Outcome.TIMEOUT, found)
        if answer.verdict is not Verdict.UNIQUE:
            return Assessment(Outcome.MULTIPLE, found, answer.differing)
    return Assessment(Outcome.ACCEPTED, found)


def undecided_cells(puzzle: Puzzle, time_limit: float | None = None,
                    cancel: Any = None) -> list[tuple[int, int]] | None:
    """The cells line logic leaves open, as ``(row, column)``; None if it timed out.

    The complete line solver propagated to its fixpoint (native, no probing, one
    node); an empty list means the puzzle is line-solvable.

    >>> undecided_cells(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    if time_limit is not None and time_limit <= 0:
        return None
    solver = get("native", probing="none", restarts=False, node_limit=1)
    result = solver.solve(puzzle, Limits(1, time_limit, cancel))
    if result.status is Status.SOLVED:
        return []
    if result.remainder is None or result.complete or result.status is Status.INTERRUPTED:
        return None  # no solution: impossible for clues taken from a picture
    if time_limit is not None and result.stats.wall_time >= time_limit:
        return None  # the time limit, not the one-node limit, stopped it: not the fixpoint
    width = puzzle.width
    return [divmod(i, width) for i, state in enumerate(result.remainder.cells) if state == UNKNOWN]


def differing_cells(puzzle: Puzzle, backend: str = "native",
                    time_limit: float | None = None, cancel: Any = None) -> list[tuple[int, int]] | None:
    """The cells where two solutions of ``puzzle`` differ; [] if it is unique, None on a timeout.

    >>> differing_cells(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    [Cell(row=0, column=0), Cell(row=0, column=1), Cell(row=1, column=0), Cell(row=1, column=1)]
    """
    if time_limit is not None and time_limit <= 0:
        return None
    answer = check(puzzle, build(backend), time_limit, cancel=cancel)
    if answer.verdict in (Verdict.TIMEOUT, Verdict.INTERRUPTED):
        return None
    return list(answer.differing)



@functools.lru_cache(maxsize=None)  # building a backend to read its declaration: once a process
def repair_witness(backend: str, colour: bool = False) -> str | None:
    """The backend whose two solutions aim a repair, so that the same seed gives the same
    repairs whichever engine answers the judge's count and however loaded the machine is.

    ``backend`` itself when it declares :attr:`~nonolab.solvers.base.Capability.REPRODUCIBLE`
    (its count's witnesses are then reproducible); else the first solver of
    :data:`WITNESSES`, then of the registry, that declares it (and colour, for a colour
    puzzle) and loads; None when none does (the repair then aims at a region that does not
    depend on which solutions were found).

    >>> repair_witness("lcg"), repair_witness("auto")
    ('lcg', 'lcg')
    """
    try:
        if Capability.REPRODUCIBLE in capabilities(build(backend)):
            return backend
    except BackendUnavailable:
        pass
    able = set(backends_with(Capability.REPRODUCIBLE))
    if colour:
        able &= set(backends_with(Capability.COLOUR))
    solvers = sorted(name for name in able if role(name) == "solver")
    for name in [name for name in WITNESSES if name in solvers] + [name for name in solvers if name not in WITNESSES]:
        try:
            build(name)  # declared, but its engine may be missing (an lcg never compiled)
        except BackendUnavailable:
            continue
        return name
    return None
