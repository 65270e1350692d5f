"""Difficulty: the weakest technique that solves a puzzle, with the steps it took.

The ladder, weakest first (each level includes the ones before it):

``line``
    the complete line solver, propagated to its fixpoint;
``contradiction-probe``
    depth-1 probing: a value whose propagation contradicts is refuted;
``full-probe``
    fully probing (Wu et al.): also the cells both values of a cell imply;
``depth-2``
    probes whose trials probe too;
``search``
    none of the above finishes it: branching is needed.

Colour puzzles climb the same ladder up to ``full-probe`` (the colour engine probes
(cell, colour) choices, and has no depth-2 probing): one that full probing leaves
open grades ``search``.

Every limit given bounds the whole grading: ``time_limit`` (and ``cancel``), and a work
limit the counting backend declares (an option that ``spends`` a counter: native's
``node_limit``, lcg's ``conflict_limit``).  A node limit: each deduction level is one
native node (its root, with that level's probing), counted against it with the count to
2's nodes, so ``native:node_limit=N`` grades with at most N nodes in all; once the levels
have used it, the grading stops as the clock stops it (``grade`` None, verdict ``timeout``,
``harder_than`` as far as it got).  A conflict limit bounds the count's conflicts in all
(the levels, native nodes, spend none): ``lcg:conflict_limit=N`` counts with at most N.
A node's probing is not cut by a node limit (depth-2's is the costliest: 1.6 M probes on
9-Dom), only by the clock, as in native's own search.

A puzzle solved by deduction alone has exactly one solution (every step was forced),
so those grades also prove uniqueness; for ``search`` the verdict comes from an
exact count to 2.  A puzzle with no solution is not graded (``grade`` is ``None``,
the verdict ``contradiction``): there is nothing to solve.  pbnsolve's classes map as: ``line`` -> line, the three probing
levels -> depth-2 (solved without guessing), ``search`` -> search.

>>> from nonolab.core import Puzzle
>>> g = grade(Puzzle(rows=((1,), ()), columns=((1,), ())))
>>> g.grade.value, g.verdict.value, g.steps
('line', 'unique', {'line': 3})
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from nonolab.core.puzzle import Puzzle, require_puzzle
from nonolab.errors import InvalidArgument
from nonolab.harness.uniqueness import Verdict, said, verdict_of
from nonolab.solvers import DEFAULT, get, build, solver_for
from nonolab.solvers.base import Budget, Limits, Solver, Status
from nonolab.solvers.base import require_time_limit


class Grade(str, Enum):
    """The difficulty ladder, weakest first."""

    LINE = "line"
    CONTRADICTION_PROBE = "contradiction-probe"
    FULL_PROBE = "full-probe"
    DEPTH2 = "depth-2"
    SEARCH = "search"

    @property
    def pbnsolve_class(self) -> str:
        """pbnsolve's name for this class: ``line``, ``depth-2`` or ``search``."""
        return {"line": "line", "search": "search"}.get(self.value, "depth-2")

    @property
    def rank(self) -> int:
        return list(Grade).index(self)


# Each deduction level and the native probing that implements it.
_LADDER = ((Grade.LINE, "none"), (Grade.CONTRADICTION_PROBE, "contradiction"),
           (Grade.FULL_PROBE, "full"), (Grade.DEPTH2, "depth-2"))


@dataclass
class GradeResult:
    """What :func:`grade` found.

    Attributes:
        grade: the weakest level that solves the puzzle; ``None`` when a limit
            stopped the grading first (``harder_than`` then says how far it got), or
            when the puzzle has no solution (verdict ``contradiction``).
        verdict: a :class:`~nonolab.harness.uniqueness.Verdict`; ``None`` when ``up_to``
            stopped the grading before uniqueness was decided.
        harder_than: the strongest deduction level shown not to suffice.
        steps: steps of each technique in the run at ``grade`` (for ``line``, the
            number of line steps: a published difficulty measure).
        counters: the solver statistics of the deciding run.
        time: wall seconds.
        undecided: for ``search``, the cells the strongest deduction tried left open
            (``None`` otherwise; not part of ``as_dict``).
    """

    grade: Grade | None
    verdict: Verdict | None
    harder_than: Grade | None = None
    steps: dict[str, int] = field(default_factory=dict)
    counters: dict[str, Any] = field(default_factory=dict)
    time: float = 0.0
    undecided: int | None = None

    @property
    def limited(self) -> bool:
        """A limit (the time, or the backend's node limit) stopped the grading before its grade:
        not ``--up-to`` (verdict None), not a contradiction (no grade to find), not a cancel."""
        return self.grade is None and self.verdict not in (None, Verdict.CONTRADICTION, Verdict.INTERRUPTED)

    def __repr__(self) -> str:
        grade = self.grade.value if self.grade is not None else None
        return f"GradeResult({said(self)}, grade={grade}, steps={self.steps}, {self.time:.3f} s)"

    def as_dict(self) -> dict[str, Any]:
        return {
            "grade": self.grade.value if self.grade else None,
            "pbnsolve_class": self.grade.pbnsolve_class if self.grade else None,
            "verdict": self.verdict.value if self.verdict is not None else None,
            "harder_than": self.harder_than.value if self.harder_than else None,
            "steps": dict(self.steps),
            "counters": dict(self.counters),
            "time": round(self.time, 6),
        }


def grade(puzzle: Puzzle, backend: str | Solver = DEFAULT, time_limit: float | None = None,
          up_to: Grade = Grade.SEARCH, *, cancel: Any = None) -> GradeResult:
    """The weakest technique that solves ``puzzle``.

    Args:
        time_limit: wall seconds for the whole grading.
        up_to: stop once this level is shown not to suffice (``grade`` is then
            ``None`` and ``harder_than`` this level): a generator asking "at most
            full-probe?" need not pay for depth-2 or the search.
        backend: the backend that counts to 2 when deduction is not enough: a
            spec (``cnf``, ``native:line=overlap``) or a built solver.
        cancel: a ``threading.Event``; once set, grading stops (verdict ``interrupted``).
    """
    puzzle = require_puzzle(puzzle, "grade")
    require_time_limit(time_limit, "grade")
    try:   # a Grade, or its name as the command line takes it ("full-probe")
        up_to = Grade(up_to)
    except ValueError:
        raise InvalidArgument(f"grade: {{arg}} must be one of {', '.join(g.value for g in Grade)}, "
                              f"not {up_to!r}", argument="up_to") from None
    searcher = solver_for(backend, "grade")
    work = _work_limit(searcher)   # what is left of the backend's work limit (None: it has none)
    watch = Budget(time_limit, cancel)
    harder_than: Grade | None = None
    counted = None
    steps: dict[str, int] = {}
    undecided: int | None = None
    # The levels the native engine deduces with on this puzzle (colour: up to full
    # probing); past them only the search decides.
    native: Any = get("native")   # its own question, not on the Solver contract: the registry gives a Solver
    probings = {p.value for p in native.probings(puzzle)}
    for level, probing in _LADDER:
        if level.rank > up_to.rank or probing not in probings:
            break
        if work is not None and work.used_up():   # the work limit is used up: stopped as by the clock
            verdict = verdict_of(counted) if counted is not None else _stopped(watch)
            return GradeResult(None, verdict, harder_than, time=watch.elapsed())
        if level is Grade.DEPTH2:
            # Depth-2 probing is costly and cannot solve a puzzle with two solutions:
            # count first, and grade a multiple-solution puzzle "search" at once.
            counted = _narrowed(searcher, work).solve(puzzle, watch.limits(2))
            work = _spent(work, counted)
            if verdict_of(counted) is Verdict.MULTIPLE:
                return GradeResult(Grade.SEARCH, Verdict.MULTIPLE, harder_than, steps,
                                   dict(counted.stats.counters), watch.elapsed(), undecided)
            if work is not None and work.used_up():
                return GradeResult(None, verdict_of(counted), harder_than, time=watch.elapsed())
        left = watch.left()
        if watch.cancelled() or (left is not None and left <= 0):
            return GradeResult(None, _stopped(watch), harder_than, time=watch.elapsed())
        # One node: the root's deductions and nothing else.
        solver = get("native", probing=probing, restarts=False, node_limit=1, record_steps=True)
        result = solver.solve(puzzle, Limits(1, left, cancel))
        work = _spent(work, result, level=True)
        if result.status is Status.SOLVED:
            return GradeResult(level, Verdict.UNIQUE, harder_than, _count_steps(result.steps),
                               dict(result.stats.counters), watch.elapsed())
        if result.status is Status.UNSAT:   # no solution: nothing to grade
            return GradeResult(None, Verdict.CONTRADICTION, harder_than, _count_steps(result.steps),
                               dict(result.stats.counters), watch.elapsed())
        # (A step log the clock cut short stops the grading as the clock does: native
        # keeps time for its finish, so the watch here may not have run out yet.)
        if watch.expired() or result.stats.counters.get("step_log_cut"):
            verdict = verdict_of(counted) if counted is not None else _stopped(watch)
            return GradeResult(None, verdict, harder_than, time=watch.elapsed())
        harder_than = level
        steps = _count_steps(result.steps)
        undecided = puzzle.width * puzzle.height - sum(len(s.cells) for s in result.steps if s.depth == 0)
    if up_to is not Grade.SEARCH:
        return GradeResult(None, None, harder_than, time=watch.elapsed())
    if counted is None or verdict_of(counted) in (Verdict.TIMEOUT, Verdict.INTERRUPTED):
        if work is not None and work.used_up():   # the levels used the node limit up
            return GradeResult(None, Verdict.TIMEOUT, harder_than, time=watch.elapsed())
        counted = _narrowed(searcher, work).solve(puzzle, watch.limits(2))
    verdict = verdict_of(counted)
    found = Grade.SEARCH if verdict in (Verdict.UNIQUE, Verdict.MULTIPLE) else None
    return GradeResult(found, verdict, harder_than, steps, dict(counted.stats.counters), watch.elapsed(),
                       undecided if found is Grade.SEARCH else None)


@dataclass(frozen=True)
class _Work:
    """What is left of a backend's work limit: its option, the counter it spends, the amount."""

    option: str
    counter: str
    left: int

    def used_up(self) -> bool:
        return self.left <= 0


def _work_limit(searcher: Solver) -> _Work | None:
    """The work limit ``searcher`` was given, when its class declares one (an option that
    ``spends`` a counter: native's ``node_limit``, lcg's ``conflict_limit``; read by the
    declaration, not by the backend's name), else None."""
    for option in getattr(type(searcher), "OPTIONS", ()):
        if option.spends is not None and getattr(searcher, option.name, None) is not None:
            return _Work(option.name, option.spends, getattr(searcher, option.name))
    return None


def _narrowed(searcher: Solver, work: _Work | None) -> Solver:
    """``searcher`` with what is left of its work limit (itself when it has none or all of it)."""
    if work is None or work.left == getattr(searcher, work.option):
        return searcher
    narrowed = copy.copy(searcher)
    setattr(narrowed, work.option, work.left)   # a declared option, as settle() set it
    return narrowed


def _spent(work: _Work | None, result, level: bool = False) -> _Work | None:
    """What is left of a work limit after ``result``'s search: its counter (a node search at
    least one node).  A deduction level is a native node: it spends a node limit only."""
    if work is None or (level and work.counter != "nodes"):
        return work
    spent = int(result.stats.counters.get(work.counter) or 0)
    return _Work(work.option, work.counter, work.left - (max(1, spent) if work.counter == "nodes" else spent))


def _stopped(watch: Budget) -> Verdict:
    return Verdict.INTERRUPTED if watch.cancelled() else Verdict.TIMEOUT


def _count_steps(steps) -> dict[str, int]:
    counts: dict[str, int] = {}
    for step in steps:
        if step.depth > 0:  # the root's deductions only: not the guess a node limit stopped at
            continue
        counts[step.technique.value] = counts.get(step.technique.value, 0) + 1
    return counts
