"""Why a puzzle is not unique: its backbone, the regions where its solutions differ,
and a few cells that, revealed as givens, would make it unique.

Everything is relative to the set of all solutions and to one *reference* solution
(the puzzle's goal when it has one, else the first solution found):

* **backbone**: the cells that take the same value in every solution.  Exact: for
  each cell ``c`` the backend is asked, with ``c`` fixed to the other value, whether
  a solution exists.  Every solution found is kept, so a cell already seen with the
  other value needs no question.  (The native solver's probing fixes a *subset* of
  the backbone; it is not used here.)
* **free cells**: the others.  An **arrangement** of a set of cells is a pattern of
  values they take in some solution.
* **regions** (switching components): the finest split of the free cells such that
  the solutions are exactly all the combinations of one arrangement per region.
  Cells of different regions switch independently; a region cannot be split into
  parts that do.  The number of solutions is the product of the regions' numbers
  of arrangements.  How they are found:

  1. *groups*: join free cells that share a row or a column.  This split is always
     a product (every line sees the free cells of one group only), so a region
     never crosses two groups.
  2. each group's arrangements are enumerated with everything outside it held at
     the reference, up to ``enumerate_up_to``.  When that is all of them, the group
     is split exactly into its regions (see :func:`._solutions.product_factors`).
  3. a group with more arrangements stays one region, marked ``indivisible`` only
     if its cells are *linked* into one component (two cells are linked when some
     combination of their values occurs in no solution; linked cells are always in
     one region).  Otherwise ``max_parts`` bounds how many regions it may hold.

* an **elementary switch** is a region of four cells at the corners of a rectangle
  whose only two arrangements are its two diagonals; ``adjacent`` when the four
  cells form a 2x2 block, the standard case.  Any other region is a plain ``region``.
* **givens**: greedy, not a proven minimum, chosen group by group (groups are
  independent).  While the group has another arrangement that agrees with the
  givens, reveal one more of its cells, with its value in the reference; then drop
  every given the others make redundant.  In a group whose arrangements were all
  enumerated the cell revealed removes the most arrangements (exact counts).  In
  the others it is checked by exact counts to 2, and chosen as the cell after which
  line logic (unit propagation) decides the most cells, when the backend's session
  can propagate (CNF), ties and other backends going by the solutions seen.  The
  final set is checked by a fresh exact count with all the givens fixed.

Colour puzzles read the same: a free cell takes two or more values (the background
or the colours its two clues share), an arrangement is a pattern of colour indices.
A time limit covers the whole report; when it expires the report says so
(``complete=False``) and marks each part that is not exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from nonolab.core.grid import Solution, require_solution
from nonolab.core.puzzle import Puzzle, require_puzzle
from nonolab.core.violations import violations
from nonolab.core.words import counted
from nonolab.errors import BackendUnavailable, InvalidArgument, TooLarge
from nonolab.harness.uniqueness import Verdict, said
from nonolab.solvers import get, role, solver_for
from nonolab.solvers import open_session
from nonolab.solvers.base import Budget, Capability, Solver, capabilities
from nonolab.solvers.base import require_time_limit

__all__ = ["AmbiguityReport", "Region", "ambiguity_report", "why_report"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Region:
    """Free cells that switch together, independently of every other region.

    Attributes:
        kind: ``"switch"`` (an elementary switch, see the module notes) or ``"region"``.
        cells: ``(row, column)`` pairs, 0-based, sorted.
        arrangements: the number of value patterns of these cells over all solutions
            (a lower bound unless ``arrangements_exact``).
        arrangements_exact: every arrangement was enumerated.
        adjacent: for a switch, whether its cells form a 2x2 block.
        indivisible: proven not to split into independent parts.
        max_parts: when not ``indivisible``, at most this many regions may lie here
            (``None``: not known, the time limit came first).
    """

    kind: str
    cells: tuple[Cell, ...]
    arrangements: int
    arrangements_exact: bool
    adjacent: bool = False
    indivisible: bool = True
    max_parts: int | None = 1

    def describe(self) -> str:
        """One line, 1-based: ``2x2 switch at rows 3-4, columns 5-6``, or the region's
        cells (its bounding box when it has more than 8).
        """
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        box = f"rows {min(rows) + 1}-{max(rows) + 1}, columns {min(cols) + 1}-{max(cols) + 1}"
        if self.kind == "switch":
            return f"{'2x2' if self.adjacent else 'rectangle'} switch at {box}"
        many = "" if self.arrangements_exact else "at least "
        where = (" ".join(f"({r + 1},{c + 1})" for r, c in self.cells) if len(self.cells) <= 8
                 else f"in {box}")
        split = ""
        if not self.indivisible:
            split = (f"; may split into up to {self.max_parts} independent parts" if self.max_parts
                     else "; may split into independent parts")
        return f"region of {counted(len(self.cells), 'cell')}, {many}{self.arrangements} arrangements{split}: {where}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "adjacent": self.adjacent, "cells": [list(rc) for rc in self.cells],
                "arrangements": self.arrangements, "arrangements_exact": self.arrangements_exact,
                "indivisible": self.indivisible, "max_parts": self.max_parts, "text": self.describe()}


@dataclass(frozen=True)
class AmbiguityReport:
    """What :func:`ambiguity_report` found.  Cells are ``(row, column)``, 0-based.

    Attributes:
        verdict: unique, multiple, contradiction or timeout.
        complete: the time limit cut nothing short.  What is exact then is said part
            by part: the backbone always, the count and the regions when every group
            had at most ``enumerate_up_to`` arrangements (or its cells are linked).
        backend: the backend that answered the questions.
        reference: the solution the backbone values and the givens are taken from.
        solution_count: the number of solutions; a lower bound unless ``count_exact``.
        backbone: cells equal in every solution (all of them proven); ``backbone_exact``
            says whether every other cell was proven free (no ``undecided`` cell).
        free: cells proven to differ between two solutions.
        undecided: cells the time limit left unclassified.
        regions: the regions of the free cells; ``regions_exact``: all of them are
            proven indivisible (else some may split further, see :class:`Region`).
        givens: ``(row, column, value)`` cells to reveal, chosen greedily.
        givens_unique: a fresh exact count with the givens fixed found one solution.
        stats: questions asked, solutions kept, wall time.
    """

    verdict: Verdict
    complete: bool
    backend: str
    reference: Solution | None = None
    solution_count: int = 0
    count_exact: bool = False
    backbone: tuple[Cell, ...] = ()
    backbone_exact: bool = False
    free: tuple[Cell, ...] = ()
    undecided: tuple[Cell, ...] = ()
    regions: tuple[Region, ...] = ()
    regions_exact: bool = False
    givens: tuple[tuple[int, int, int], ...] = ()
    givens_unique: bool = False
    stats: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"AmbiguityReport({said(self)}, {counted(self.solution_count, 'solution')}, "
                f"{counted(len(self.backbone), 'backbone cell')}, {counted(len(self.regions), 'region')}, "
                f"{counted(len(self.givens), 'given')})")

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the map (the drawing code loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

    def revealed(self, puzzle: Puzzle) -> Puzzle | None:
        """``puzzle`` with this report's givens revealed (added to its own), when an exact
        count proved that they leave one solution; ``puzzle`` itself when it is unique;
        ``None`` otherwise (no solution, the givens not proven, or the limit came first).

        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
        >>> from nonolab.harness.uniqueness import check
        >>> revealed = ambiguity_report(p).revealed(p)
        >>> len(revealed.givens), check(revealed).verdict.value
        (1, 'unique')
        """
        if self.verdict is Verdict.UNIQUE:
            return puzzle
        if self.verdict is not Verdict.MULTIPLE or not self.givens_unique:
            return None
        return puzzle.with_(givens={**puzzle.given_cells, **{(r, c): v for r, c, v in self.givens}})

    @property
    def regions_known(self) -> bool:
        """Every cell is in the backbone or a region: the regions are a finding.  Else the
        time limit came first, and every surface says the regions' timeout (never "0
        regions", which would read as a finding).

        >>> AmbiguityReport(Verdict.MULTIPLE, False, "cnf", free=((0, 0),)).regions_known
        False
        """
        return self.backbone_exact and not self.unplaced()

    def unplaced_free(self) -> tuple[Cell, ...]:
        """The cells proven to differ between solutions that no region holds (the time limit
        came first): not undecided, for they are known to differ."""
        placed = set().union(*(r.cells for r in self.regions))
        return tuple(sorted(set(self.free) - placed))

    def unplaced(self) -> tuple[Cell, ...]:
        """Cells neither in the backbone nor in a region (only when the time limit cut
        the report short): a picture must not show them as fixed.
        """
        placed = set(self.backbone).union(*(r.cells for r in self.regions))
        return tuple(sorted(set(self.free).union(self.undecided) - placed))

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (lists, numbers, strings)."""
        return {
            "verdict": self.verdict.value,
            "complete": self.complete,
            "backend": self.backend,
            "reference": self.reference.to_text().splitlines() if self.reference is not None else None,
            "solution_count": self.solution_count,
            "count_exact": self.count_exact,
            "backbone": {"exact": self.backbone_exact, "size": len(self.backbone),
                         "cells": [list(rc) for rc in self.backbone]},
            "free_cells": [list(rc) for rc in self.free],
            "undecided_cells": [list(rc) for rc in self.undecided],
            "regions": {"exact": self.regions_exact, "items": [r.as_dict() for r in self.regions]},
            "givens": {"method": "greedy", "minimum": False, "unique": self.givens_unique,
                       "cells": [list(g) for g in self.givens]},
            "stats": dict(self.stats),
        }


def questioner(solver: Solver, puzzle: Puzzle | None = None) -> Solver:
    """The backend an ambiguity report should ask: ``solver`` itself when it is a solver
    that takes given cells, else ``cnf``.  The report asks hundreds of small questions,
    which a strategy such as ``auto`` would answer by restarting its phases each time,
    and an incremental session answers cheapest.  A ``puzzle`` whose model is beyond
    cnf's guard (``max_states``: a grid of a few hundred cells a side) is asked of
    ``native`` instead, which takes given cells and builds no model: the strategy asked
    answers such grids, so its report must not fail on a backend the user never named.

    >>> from nonolab.solvers import get
    >>> questioner(get("auto")).name, questioner(get("cpsat")).name
    ('cnf', 'cpsat')
    >>> from nonolab.core import Puzzle
    >>> big = Puzzle(rows=((1, 1, 1),) * 400, columns=((1, 1, 1),) * 400)
    >>> questioner(get("auto"), big).name
    'native'
    """
    if Capability.GIVEN_CELLS in capabilities(solver) and role(solver.name) == "solver":
        return solver
    cnf = get("cnf")
    if puzzle is not None:
        try:   # its session refuses a model beyond the guard as it opens, before building anything
            open_session(cnf, puzzle).close()
        except TooLarge:
            return get("native")
    return cnf


def ambiguity_report(puzzle: Puzzle, backend: str | Solver = "cnf", time_limit: float | None = None, *,
                     reference: Solution | None = None, enumerate_up_to: int = 256,
                     known: Iterable[Solution] = (), cancel: Any = None) -> AmbiguityReport:
    """Explain where ``puzzle`` is ambiguous (definitions in the module notes).

    Args:
        puzzle: the puzzle.
        backend: a backend name or object that takes given cells
            (:attr:`~nonolab.solvers.base.Capability.GIVEN_CELLS`; ``cnf``, incremental,
            is the fast one; ``cpsat`` works too).  See :func:`questioner`.
        time_limit: wall-clock seconds for the whole report; ``None``: no limit.
        reference: the solution to take givens from (default: the puzzle's goal, else
            the first solution found).
        enumerate_up_to: enumerate at most this many solutions of the whole puzzle,
            and as many arrangements of each group; within it, answers are exact
            counts rather than bounds.
        known: other solutions the caller already found (a check's witnesses): the
            report counts them whatever the time limit leaves it, so it never says less
            than the caller has shown.
        cancel: a ``threading.Event``; once set, the report stops (verdict ``interrupted``).

    Raises:
        BackendUnavailable: the backend cannot fix cells or cannot load.
        InvalidArgument: ``reference`` or a ``known`` picture is not a solution of ``puzzle``, or a bad limit
            (also a ``ValueError``).
        TypeError: a time limit that is not a number.

    >>> from nonolab import Puzzle, ambiguity_report
    >>> p = Puzzle(rows=((1,), (1,), ()), columns=((1,), (1,), ()))
    >>> report = ambiguity_report(p)
    >>> report.verdict.value, len(report.backbone), [r.describe() for r in report.regions]
    ('multiple', 5, ['2x2 switch at rows 1-2, columns 1-2'])
    >>> len(report.givens), report.givens_unique, report.complete
    (1, True, True)
    """
    puzzle = require_puzzle(puzzle, "ambiguity_report")
    require_time_limit(time_limit, "ambiguity_report")
    solver = get(backend) if isinstance(backend, str) else solver_for(backend, "ambiguity_report")
    if enumerate_up_to < 1:
        raise InvalidArgument("ambiguity_report: {arg} must be at least 1", argument="enumerate_up_to")
    watch = Budget(time_limit, cancel)
    if Capability.GIVEN_CELLS not in capabilities(solver):
        raise BackendUnavailable(f"ambiguity_report: backend {solver.name!r} does not take given cells; "
                                 "use cnf or cpsat")
    reference = reference if reference is not None else puzzle.goal
    known = tuple(known)
    for picture, what in [(reference, "the reference"), *((k, "a known solution") for k in known)]:
        if picture is not None:
            require_solution(picture, "ambiguity_report")
        if picture is not None and ((picture.height, picture.width) != (puzzle.height, puzzle.width)
                                    or violations(puzzle, picture)):
            raise InvalidArgument(f"ambiguity_report: {what} is not a solution of the puzzle")
    from nonolab.harness._ambiguity_search import Search

    session = open_session(solver, puzzle)
    try:
        return Search(puzzle, solver, session, watch, reference, enumerate_up_to, known).run()
    finally:
        session.close()


def why_report(puzzle: Puzzle, backend: str | Solver = "auto", time_limit: float | None = None, *,
               enumerate_up_to: int = 256, cancel: Any = None) -> AmbiguityReport:
    """``check --why``'s answer with any backend: :func:`ambiguity_report`, asked of
    :func:`questioner` (``backend``), starting from the witnesses of the count to 2 that
    :func:`~nonolab.harness.uniqueness.check` gives with ``backend`` itself.

    When ``backend`` is a strategy (``auto``, the default), its count comes first: it is
    the answer ``check`` gives, and it can be far sooner than the questioner's (Knotty:
    auto 0.3 s; cnf found no solution in 15 s).  A multiple puzzle is then ``multiple``
    with its two solutions whatever the limit leaves the questions.  The reference is the
    goal, else the first solution of that count (the "solution 1" ``check`` prints and the
    designer's report shows), so that the givens are of the same picture everywhere.  A backend that takes given cells answers everything itself.

    >>> from nonolab import Puzzle
    >>> from nonolab.harness.ambiguity import why_report
    >>> p = Puzzle(rows=((1,), (1,), ()), columns=((1,), (1,), ()))
    >>> why = why_report(p, "auto")
    >>> why.verdict.value, why.backend, [r.describe() for r in why.regions]
    ('multiple', 'cnf', ['2x2 switch at rows 1-2, columns 1-2'])
    """
    from nonolab.harness.uniqueness import check

    puzzle = require_puzzle(puzzle, "why_report")
    solver = get(backend) if isinstance(backend, str) else solver_for(backend, "why_report")
    asker = questioner(solver, puzzle)
    if asker is solver:
        return ambiguity_report(puzzle, solver, time_limit, enumerate_up_to=enumerate_up_to, cancel=cancel)
    watch = Budget(time_limit, cancel)
    found = check(puzzle, solver, time_limit, cancel=cancel)
    # The reference is the goal, else the solution ``check`` shows first (its "solution 1",
    # the designer's report's picture), not the questioner's: one picture on every surface.
    reference = puzzle.goal if puzzle.goal is not None else next(iter(found.witnesses), None)
    others = tuple(w for w in found.witnesses if w != reference)
    return ambiguity_report(puzzle, asker, watch.time_limit(), reference=reference, known=others,
                            enumerate_up_to=enumerate_up_to, cancel=cancel)
