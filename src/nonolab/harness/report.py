"""The designer's report in one call: is it unique, how hard is it, what to change.

:func:`report` puts together what ``check``, ``grade``, ``check --why`` and
:func:`~nonolab.harness.repair.repair` answer, under one time limit:

* ``verdict``: a :class:`~nonolab.harness.uniqueness.Verdict` (unique, multiple,
  contradiction, timeout or interrupted), from an exact count to 2;
* ``solution``: the one picture every part of the report shows and starts from (the
  text, the JSON, the notebook view and the workbench alike): the puzzle's goal when it
  has one, else the first solution found; ``alternative`` another solution;
* ``grade`` (:func:`~nonolab.harness.classify.grade`) and a numeric ``difficulty``
  (defined in docs/algorithms.md, "The report"): the grade's rank on the ladder
  (line 0, contradiction-probe 1, full-probe 2, depth-2 3, search 4) plus a fraction
  below 1 that grows with the work inside the class, so it orders puzzles as the
  ladder does and finer within a class;
* ``warnings`` a designer acts on (:data:`WARNINGS`);
* for a puzzle with several solutions: one alternative solution and the cells where
  it differs, the regions where solutions differ and greedy givens (the ambiguity
  report of ``check --why``, from ``solution``, knowing both solutions), and repairs:
  the fewest cell flips of ``solution`` that make the puzzle unique, each proven by an
  exact count.

A puzzle with no solution is not graded.  Under a time limit the report says only what
was proven: a part the limit cut is ``None`` or marked, ``complete`` is false and
``stopped`` says whether a limit (``timeout``) or a cancel (``interrupted``) cut it.

>>> from nonolab.core import Puzzle, Solution
>>> r = report(Puzzle.from_solution(Solution.from_rows(["#.", ".#"])), backend="native")
>>> r.verdict.value, r.alternative is not None, len(r.repair.best.flips), r.repair.minimal
('multiple', True, 1, True)
>>> r.repair.picture == r.solution == r.ambiguity.reference
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from nonolab.core.cell import Cell
from nonolab.core.words import counted
from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle, require_puzzle
from nonolab.errors import TooLarge
from nonolab.harness.ambiguity import AmbiguityReport, ambiguity_report, questioner
from nonolab.harness.classify import Grade, GradeResult, grade
from nonolab.harness.filters import filled_fraction
from nonolab.harness.repair import RepairResult, repair as repair_picture
from nonolab.harness.uniqueness import Verdict, check, said
from nonolab.solvers import DEFAULT, build, solver_for
from nonolab.solvers.base import Budget, Solver
from nonolab.solvers.base import require_count, require_time_limit

__all__ = ["Report", "Warning", "WARNINGS", "difficulty_of", "report", "clue_decides", "clue_only_cells", "clue_only_count"]


#: The warnings and when each is given.
WARNINGS = {
    "trivial": "line logic solves it, and each line from its clue alone (one pass over the empty grid) "
               "already decides at least 90% of the cells",
    "too-little-white": "more than 70% of the cells are filled (webpbn warns of too little white space)",
    "clue-only-lines": "lines whose clue alone decides every cell (empty, full, or no slack)",
    "needs-search": "unique, but no deduction of the ladder finishes it: solvers must guess",
    "not-unique": "the puzzle has more than one solution",
    "no-solution": "the clues have no solution (with the puzzle's givens, when it has some: then they say so)",
    "ambiguity-left-out": "the ambiguity report was refused by its backend's size guard (a grid of millions "
                          "of cells): the other parts still answer",
}
TRIVIAL_SHARE = 0.9
TOO_FILLED = 0.7

# Shares of what is left of the time limit: the grade, then the ambiguity report;
# the repair has the rest.
_GRADE_SHARE, _WHY_SHARE = 0.5, 0.4
# What follows the parts, a cell at a time: the report's own fields (the filled fraction,
# the differing cells, the warnings) and a front end's pictures of the solutions (3.4 s
# at 10,000x10,000, load 4.7, measured: benchmarks/log/2026-11-26-limits-4.md).  The parts
# end this much before the time limit, so that the whole report, printed, ends within it.
_TAIL_PER_CELL = 5e-8


@dataclass(frozen=True)
class Warning:
    """One warning: ``code`` (a key of :data:`WARNINGS`), a sentence, and the lines it is about
    (``("row", i)`` / ``("column", j)``, 0-based) when it names some."""

    code: str
    message: str
    lines: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "lines": [list(x) for x in self.lines]}


@dataclass(frozen=True)
class Report:
    """What :func:`report` found (cells ``(row, column)``, 0-based).

    Attributes:
        verdict: unique, multiple, contradiction, timeout or interrupted.
        solution: the picture every part shows and starts from: the goal if the puzzle
            has one, else the first solution found (``None`` without a solution).
        alternative: another solution, for ``multiple``; ``differing``: where the two differ.
        grade: the grade (``None`` for a contradiction, or if not reached within the limit).
        difficulty: see :func:`difficulty_of` (``None`` without a grade).
        warnings: see :data:`WARNINGS`.
        ambiguity: the ``check --why`` report from ``solution``, for ``multiple`` (regions, givens).
        repair: the fewest flips of ``solution``, for ``multiple``.
        backend: the backend that counted; ``complete``: no part was cut by the limit.
        stopped: for an incomplete report, what cut it: ``timeout`` or ``interrupted``.
        time: wall seconds.
    """

    puzzle: Puzzle
    verdict: Verdict
    backend: str
    solution: Solution | None = None
    alternative: Solution | None = None
    differing: tuple[Cell, ...] = ()
    grade: GradeResult | None = None
    difficulty: float | None = None
    warnings: tuple[Warning, ...] = ()
    ambiguity: AmbiguityReport | None = None
    repair: RepairResult | None = None
    complete: bool = True

    def __repr__(self) -> str:
        # Short: the verdict and grade, not every picture and suggestion (they are attributes).
        grade = self.grade.grade.value if self.grade is not None and self.grade.grade is not None else None
        return (f"Report({said(self)}, {self.puzzle.name or 'puzzle'!r}, grade={grade}, "
                f"difficulty={self.difficulty}, {counted(len(self.warnings), 'warning')}"
                f"{', repaired' if self.repair is not None and self.repair.suggestions else ''})")
    time: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: Verdict | None = None

    @property
    def givens(self) -> tuple[tuple[int, int, int], ...]:
        """Greedy givens ``(row, column, value)`` that make the puzzle unique (``check --why``)."""
        return self.ambiguity.givens if self.ambiguity is not None and self.ambiguity.givens_unique else ()

    def solutions_known(self) -> tuple[int, bool]:
        """How many solutions the report proved, and whether that is all of them: exact
        for unique and contradiction, the ambiguity report's count (at least the two
        solutions shown) for multiple, what was found when the limit came first.

        >>> from nonolab import report
        >>> from nonolab.core import Puzzle, Solution
        >>> report(Puzzle.from_solution(Solution.from_rows(["#.", ".#"])), "native").solutions_known()
        (2, True)
        """
        if self.verdict is Verdict.MULTIPLE and self.ambiguity is not None:
            return max(2, self.ambiguity.solution_count), self.ambiguity.count_exact
        found = (self.solution is not None) + (self.alternative is not None)
        return found, self.verdict in (Verdict.UNIQUE, Verdict.CONTRADICTION)

    def _repr_svg_(self) -> str | None:
        """Jupyter: the ambiguity map of a puzzle with several solutions, else the solution."""
        from nonolab.render.display import svg_of
        if self.ambiguity is not None and self.ambiguity.reference is not None:
            return svg_of(self.ambiguity)
        return svg_of(self.solution) if self.solution is not None else svg_of(self.puzzle)

    def _repr_html_(self) -> str | None:
        """Jupyter: the whole report (verdict, grade, difficulty, warnings, pictures, repairs) as HTML."""
        from nonolab.render.display import html_of
        return html_of(self)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data; the shape is ``nonolab/schemas/check-report.json``."""
        def rows(s: Solution | None) -> list[str] | None:
            return s.to_text().splitlines() if s is not None else None

        amb = self.ambiguity
        count, exact = self.solutions_known()
        return {
            "verdict": self.verdict.value,
            "backend": self.backend,
            "count": count,
            "exact": exact,
            "complete": self.complete,
            "stopped": self.stopped.value if self.stopped is not None else None,
            "time": round(self.time, 6),
            "grade": self.grade.as_dict() if self.grade is not None else None,
            "difficulty": self.difficulty,
            "warnings": [w.as_dict() for w in self.warnings],
            "solution": rows(self.solution),
            "alternative": rows(self.alternative),
            "differing_cells": [list(c) for c in self.differing],
            "backbone": ({"exact": amb.backbone_exact, "size": len(amb.backbone)} if amb is not None else None),
            # null: not computed in time (a timeout), never an empty list read as "0 regions"
            "regions": ([r.as_dict() for r in amb.regions]
                        if amb is not None and amb.regions_known else None),
            "givens": ({"unique": amb.givens_unique, "cells": [list(g) for g in amb.givens]}
                       if amb is not None else None),
            "repair": self.repair.as_dict() if self.repair is not None else None,
            "stats": dict(self.stats),
        }


def difficulty_of(result: GradeResult, puzzle: Puzzle) -> float | None:
    """The numeric difficulty: the grade's rank plus ``f(x) = log10(1+x) / (1 + log10(1+x))``,
    below 1, where ``x`` is the work inside the class: line steps per line for
    ``line``; probe steps (every step that is not a line step) for the three probing
    levels; for ``search``, the percentage of cells the strongest deduction tried
    leaves undecided.  ``None`` without a grade.

    >>> difficulty_of(GradeResult(Grade.LINE, "unique", steps={"line": 4}), Puzzle(rows=((1,), ()),
    ...               columns=((1,), ())))
    0.231
    """
    if result.grade is None:
        return None
    lines = puzzle.width + puzzle.height
    if result.grade is Grade.LINE:
        x = result.steps.get("line", 0) / lines
    elif result.grade is Grade.SEARCH:
        x = 100 * (result.undecided or 0) / (puzzle.width * puzzle.height)
    else:
        x = sum(n for kind, n in result.steps.items() if kind != "line")
    work = math.log10(1 + x)
    return round(result.grade.rank + work / (1 + work), 3)


def clue_decides(clue: tuple[int, ...], n: int, colours: tuple[int, ...] | None = None) -> set[int]:
    """The positions of a line of ``n`` cells that its clue alone decides: where every
    placement of the blocks agrees (the overlap of each block's leftmost and rightmost
    places; the whole line when the clue is empty or leaves no slack).  With the blocks'
    ``colours``, only blocks of one colour need a cell between them.

    >>> sorted(clue_decides((3,), 4)), sorted(clue_decides((1, 2), 4)), sorted(clue_decides((1, 2), 4, (1, 2)))
    ([1, 2], [0, 1, 2, 3], [2])
    """
    return {j for start, stop in _decided_runs(clue, n, colours) for j in range(start, stop)}


def _decided_runs(clue: tuple[int, ...], n: int, colours: tuple[int, ...] | None = None) -> list[tuple[int, int]]:
    """:func:`clue_decides` as runs ``(start, stop)`` of positions (a line of 5000 cells
    is one run, not 5000 numbers)."""
    if colours is None:   # black and white: a gap between every two blocks
        slack = n - (sum(clue) + len(clue) - 1) if clue else n
        gaps = None
    else:
        gaps = [int(a == b) for a, b in zip(colours, colours[1:])] + [0]
        slack = n - (sum(clue) + sum(gaps)) if clue else n
    if not clue or slack == 0:
        return [(0, n)] if n else []
    if max(clue) <= slack:   # no block overlaps itself (most lines of a large puzzle: decided in C)
        return []
    gaps = gaps or [1] * (len(clue) - 1) + [0]
    runs = []
    start = 0
    for block, gap in zip(clue, gaps):
        if block > slack:
            runs.append((start + slack, start + block))
        start += block + gap
    return runs


def _lines_decided(puzzle: Puzzle) -> Iterator[tuple[str, int, list[tuple[int, int]], bool]]:
    """Each line's kind, number, runs its clue alone decides, and whether that is all of it."""
    for kind, clues, colours, n in (("row", puzzle.rows, puzzle.row_colours, puzzle.width),
                                    ("column", puzzle.columns, puzzle.column_colours, puzzle.height)):
        for k, clue in enumerate(clues):
            runs = _decided_runs(clue, n, None if colours is None else colours[k])
            yield kind, k, runs, sum(b - a for a, b in runs) == n


def clue_only_cells(puzzle: Puzzle) -> tuple[set[int], list[tuple[str, int]]]:
    """The cells (row-major indices) each line decides from its clue alone on an empty
    grid (one pass, lines independent), and the lines it decides whole.  (A set of
    indices: for a count on a large grid, :func:`clue_only_count`.)

    >>> cells, whole = clue_only_cells(Puzzle(rows=((2,), ()), columns=((1,), (1,))))
    >>> sorted(cells), whole
    ([0, 1, 2, 3], [('row', 0), ('row', 1)])
    """
    w = puzzle.width
    cells: set[int] = set()
    whole = []
    for kind, k, runs, all_of_it in _lines_decided(puzzle):
        if all_of_it:
            whole.append((kind, k))
        for a, b in runs:
            cells.update(k * w + j if kind == "row" else j * w + k for j in range(a, b))
    return cells, whole


def clue_only_count(puzzle: Puzzle) -> tuple[int, list[tuple[str, int]]]:
    """How many cells :func:`clue_only_cells` holds, and its whole lines, from a mask of
    one byte a cell filled a run at a time (a blank 5000x5000 grid: 0.1 s and 25 MB,
    where the set of indices took 40 s and 2 GB).

    >>> clue_only_count(Puzzle(rows=((2,), ()), columns=((1,), (1,))))
    (4, [('row', 0), ('row', 1)])
    """
    w = puzzle.width
    mask = bytearray(w * puzzle.height)
    whole = []
    for kind, k, runs, all_of_it in _lines_decided(puzzle):
        if all_of_it:
            whole.append((kind, k))
        for a, b in runs:
            if kind == "row":
                mask[k * w + a:k * w + b] = b"\x01" * (b - a)
            else:
                mask[a * w + k:b * w + k:w] = b"\x01" * (b - a)
    return mask.count(1), whole


def _warnings(puzzle: Puzzle, verdict: Verdict, graded: GradeResult | None,
              clue_only: tuple[int, list[tuple[str, int]]]) -> list[Warning]:
    """The report's warnings; ``clue_only``: :func:`clue_only_count` of the puzzle."""
    found = []
    if verdict is Verdict.MULTIPLE:
        found.append(Warning("not-unique", "the puzzle has more than one solution"))
    elif verdict is Verdict.CONTRADICTION:
        # Givens are part of the puzzle: the clues alone may well have a solution they exclude.
        given = len(puzzle.givens)
        found.append(Warning("no-solution", "the clues have no solution" if not given else
                             f"the clues and the {counted(given, 'given cell')} have no solution together"))
    decided, whole = clue_only
    share = decided / (puzzle.width * puzzle.height)
    if graded is not None and graded.grade is Grade.LINE and share >= TRIVIAL_SHARE:
        found.append(Warning("trivial", f"trivial: each line from its clue alone decides {share:.0%} of the "
                                        "cells, and line logic does the rest"))
    if graded is not None and graded.grade is Grade.SEARCH and verdict is Verdict.UNIQUE:
        found.append(Warning("needs-search", "unique, but no deduction of the ladder finishes it: solvers "
                                             "must guess"))
    filled = sum(map(sum, puzzle.rows)) / (puzzle.width * puzzle.height)
    if filled > TOO_FILLED:
        found.append(Warning("too-little-white", f"too little white space: {filled:.0%} of the cells are "
                                                 f"filled (more than {TOO_FILLED:.0%})"))
    if whole:
        names = ", ".join(f"{kind} {k + 1}" for kind, k in whole[:12]) + (" ..." if len(whole) > 12 else "")
        found.append(Warning("clue-only-lines", f"{counted(len(whole), 'line')} decided by "
                                                f"{'their' if len(whole) != 1 else 'its'} clue alone: {names}",
                             tuple(whole)))
    return found


def report(puzzle: Puzzle, backend: str | Solver = DEFAULT, time_limit: float | None = None, *,
           repair: bool = True, max_flips: int = 3, cancel: Any = None,
           on_part: Callable[[str], None] | None = None,
           on_result: Callable[[str, "Report"], None] | None = None, grade_last: bool = False,
           keep: Iterable[tuple[int, int]] = ()) -> Report:
    """Everything a designer asks of ``puzzle``, in one call (see the module notes).

    Args:
        puzzle: the puzzle; its goal, if any, is the picture repairs start from.
        backend: counts to 2 and searches for the grade (a spec or a built solver);
            the ambiguity report uses it if it is a solver that can fix cells, else
            ``cnf``; the repair uses it if it is a solver, else ``native`` (both ask
            hundreds of small questions, which a strategy such as ``auto`` would answer
            by restarting its phases each time).
        time_limit: wall seconds for the whole report (``None``: no limit); a part the
            limit cuts short is left out or marked, and ``complete`` is false.
        repair: look for the fewest flips when the puzzle is not unique.
        max_flips: the exact repair search tries up to this many flips (then greedy).
        cancel: a ``threading.Event`` that stops the report.
        on_part: called with the name of each part as it starts (``check``, ``grade``,
            ``ambiguity``, ``repair``), for a progress display.
        on_result: called as each part ends with its name and the report so far (the
            parts still to come ``None``), so a front end shows the verdict as soon as it
            is known and fills in the rest as it comes.
        grade_last: grade after the ambiguity and the repairs (a slow grading then delays
            nothing else); the answers are the same.
        keep: ``(row, column)`` cells (0-based) the repairs never change (see :func:`repair`).

    >>> from nonolab import Puzzle, report
    >>> seen = []
    >>> done = report(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), "native", grade_last=True,
    ...               on_result=lambda part, so_far: seen.append((part, so_far.grade is None)))
    >>> seen
    [('check', True), ('ambiguity', True), ('repair', True), ('grade', False)]
    """
    puzzle = require_puzzle(puzzle, "report")
    require_time_limit(time_limit, "report")
    require_count(max_flips, "report", "max_flips")    # before the check, not after it and the ambiguity
    solver = solver_for(backend, "report")
    tail = _TAIL_PER_CELL * puzzle.width * puzzle.height
    watch = Budget(None if time_limit is None else max(time_limit - tail, Budget.AT_ONCE), cancel)

    def starting(part: str) -> None:
        if on_part is not None:
            on_part(part)

    # What the clues alone decide (the warnings' part that grows with the clues: 4.5 million
    # numbers in a 3000x3000 noise puzzle) once, on the report's clock, not again for every
    # report so far after it has run out.
    clue_only = clue_only_count(puzzle)
    starting("check")
    found = check(puzzle, solver, watch.time_limit(), cancel=cancel)
    verdict = found.verdict
    complete = verdict not in (Verdict.TIMEOUT, Verdict.INTERRUPTED)
    solution: Solution | None = None
    alternative: Solution | None = None
    graded: GradeResult | None = None
    ambiguity: AmbiguityReport | None = None
    repaired: RepairResult | None = None
    left_out: list[Warning] = []   # parts a size guard refused: the others still answer

    def so_far() -> Report:
        # Read when called: the parts done so far, the others None.
        stopped = None if complete else Verdict.INTERRUPTED if watch.cancelled() else Verdict.TIMEOUT
        differing = tuple(solution.diff(alternative)) if alternative is not None and solution is not None else ()
        return Report(puzzle, verdict, solver.name, solution, alternative, differing, graded,
                      difficulty_of(graded, puzzle) if graded is not None else None,
                      tuple(_warnings(puzzle, verdict, graded, clue_only)) + tuple(left_out), ambiguity, repaired, complete,
                      watch.elapsed(),
                      {"filled_fraction": filled_fraction(solution) if solution is not None else None}, stopped)

    def ended(part: str) -> None:
        if on_result is not None:
            on_result(part, so_far())

    def grading() -> None:
        nonlocal graded, complete
        starting("grade")
        graded = grade(puzzle, solver, watch.time_limit(_GRADE_SHARE if not grade_last else 1.0), cancel=cancel)
        complete = complete and graded.grade is not None
        ended("grade")

    if verdict is Verdict.UNIQUE:
        solution = found.witnesses[0]
    elif verdict is Verdict.MULTIPLE:
        # One picture for every part: the designer's goal, else the first solution found;
        # the alternative is a witness that differs from it (the goal equals one at most).
        solution = puzzle.goal if puzzle.goal is not None else found.witnesses[0]
        alternative = next(w for w in found.witnesses if w != solution)
    ended("check")
    gradable = verdict in (Verdict.UNIQUE, Verdict.MULTIPLE)     # a contradiction is not graded
    if gradable and not grade_last:
        grading()
    if verdict is Verdict.MULTIPLE:
        starting("ambiguity")
        try:
            ambiguity = ambiguity_report(puzzle, questioner(solver, puzzle), watch.time_limit(_WHY_SHARE),
                                         reference=solution, known=(alternative,) if alternative is not None else (),
                                         cancel=cancel)
            complete = complete and ambiguity.complete
        except TooLarge as err:
            # Its questioner's model guard (cnf: millions of cells) refuses before building
            # anything; the check and grade already done still answer, the gap is named.
            # (Not a timeout: ``complete`` stays what the clock made it.)
            left_out.append(Warning("ambiguity-left-out", f"the ambiguity report is left out: {err}"))
        ended("ambiguity")
        if repair:
            source = "goal" if puzzle.goal is not None else "first solution"
            starting("repair")
            share = 1.0 - _GRADE_SHARE if grade_last else 1.0    # leave the grade its share
            repaired = repair_picture(puzzle, solution, solver, max_flips, watch.time_limit(share), cancel=cancel,
                                      source=source, keep=keep)
            complete = complete and repaired.status != "timeout"
            ended("repair")
    if gradable and grade_last:
        grading()
    return so_far()
