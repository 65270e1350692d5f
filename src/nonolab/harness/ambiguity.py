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
from math import prod
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import BackendUnavailable
from nonolab.harness._solutions import (OutOfTime, Oracle, Pool, clue_values, line_groups, linked_parts,
                                        product_factors, rectangle_corners as _corners, region_kind as _kind)
from nonolab.harness.uniqueness import Verdict
from nonolab.solvers import get, role
from nonolab.solvers import Session, open_session
from nonolab.solvers.base import Capability, Given, Solver, Stopwatch, capabilities

__all__ = ["AmbiguityReport", "Region", "ambiguity_report"]

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
        return f"region of {len(self.cells)} cells, {many}{self.arrangements} arrangements{split}: {where}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "adjacent": self.adjacent, "cells": [list(rc) for rc in self.cells],
                "arrangements": self.arrangements, "arrangements_exact": self.arrangements_exact,
                "indivisible": self.indivisible, "max_parts": self.max_parts}


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

    def _repr_svg_(self) -> str | None:
        """Jupyter shows the map (the drawing code loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

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


def questioner(solver: Solver) -> Solver:
    """The backend an ambiguity report should ask: ``solver`` itself when it is a solver
    that takes given cells, else ``cnf``.  The report asks hundreds of small questions,
    which a strategy such as ``auto`` would answer by restarting its phases each time,
    and an incremental session answers cheapest.

    >>> from nonolab.solvers import get
    >>> questioner(get("auto")).name, questioner(get("cpsat")).name
    ('cnf', 'cpsat')
    """
    if Capability.GIVEN_CELLS in capabilities(solver) and role(solver.name) == "solver":
        return solver
    return get("cnf")


def ambiguity_report(puzzle: Puzzle, backend: str | Solver = "cnf", time_limit: float | None = None, *,
                     reference: Solution | None = None, enumerate_up_to: int = 256,
                     cancel: Any = None) -> AmbiguityReport:
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
        cancel: a ``threading.Event``; once set, the report stops (verdict ``interrupted``).

    Raises:
        BackendUnavailable: the backend cannot fix cells or cannot load.
        ValueError: ``reference`` is not a solution of ``puzzle``, or a bad limit.

    >>> p = Puzzle(rows=((1,), (1,), ()), columns=((1,), (1,), ()))
    >>> report = ambiguity_report(p)
    >>> report.verdict.value, len(report.backbone), [r.describe() for r in report.regions]
    ('multiple', 5, ['2x2 switch at rows 1-2, columns 1-2'])
    >>> len(report.givens), report.givens_unique, report.complete
    (1, True, True)
    """
    if time_limit is not None and time_limit <= 0:
        raise ValueError("ambiguity_report: time_limit must be positive (or None)")
    if enumerate_up_to < 1:
        raise ValueError("ambiguity_report: enumerate_up_to must be at least 1")
    watch = Stopwatch(time_limit, cancel)
    solver = get(backend) if isinstance(backend, str) else backend
    if Capability.GIVEN_CELLS not in capabilities(solver):
        raise BackendUnavailable(f"ambiguity_report: backend {solver.name!r} does not take given cells; "
                                 "use cnf or cpsat")
    reference = reference if reference is not None else puzzle.goal
    if reference is not None and ((reference.height, reference.width) != (puzzle.height, puzzle.width)
                                  or violations(puzzle, reference)):
        raise ValueError("ambiguity_report: the reference is not a solution of the puzzle")
    session = open_session(solver, puzzle)
    try:
        return _Report(puzzle, solver, session, watch, reference, enumerate_up_to).run()
    finally:
        session.close()


@dataclass
class _Group:
    """Free cells closed under sharing a line, and what is known of their arrangements."""

    cells: list[int]
    arrangements: set[bytes]
    complete: bool = False
    regions: list[Region] = field(default_factory=list)


class _Report:
    """The phases of one report, sharing the pool, the oracle and the deadline."""

    def __init__(self, puzzle: Puzzle, solver: Solver, session: Session, watch: Stopwatch,
                 reference: Solution | None, enumerate_up_to: int):
        self.puzzle = puzzle
        self.solver = solver
        self.width = puzzle.width
        self.cells = puzzle.width * puzzle.height
        self.pool = Pool(self.cells)
        self.oracle = Oracle(session, self.pool, watch, puzzle.width)
        self.watch = watch
        self.reference = reference
        self.cap = enumerate_up_to
        self.ref = b""
        self.takes: dict[int, set[int]] = {}
        self.backbone: list[int] | None = None
        self.free: list[int] = []
        self.groups: list[_Group] = []
        self.givens: dict[int, int] | None = None
        self.givens_unique = False
        self.contradiction = False
        self.finished = False

    def cell(self, i: int) -> Cell:
        return divmod(i, self.width)
    def run(self) -> AmbiguityReport:
        try:
            if self._enumerate():
                self._backbone()
                self._split()
                self._givens()
                self._refine()
            self.finished = True
        except OutOfTime:
            pass
        return self._finish()

    def _enumerate(self) -> bool:
        """Count up to the cap (a quarter of the time at most); False: no solution."""
        pool, oracle = self.pool, self.oracle
        if self.reference is not None:
            pool.add(self.reference.to_bytes())
        try:
            # One more than the cap: with exactly ``cap`` solutions, only a search that
            # finds no further one proves the count exact.
            result = oracle.ask({}, self.cap + 1, share=0.25, stop_on_timeout=False)
            pool.complete = result.complete
        except OutOfTime:
            pass
        if not pool.size:
            if pool.complete or not oracle.ask({}, 1).solutions:   # the count's share ran out: find one
                self.contradiction = True
                return False
        self.ref = pool.pictures[0]
        self.reference = Solution.from_bytes(self.ref, self.width, colours=self.puzzle.is_colour)
        return True

    def _backbone(self) -> None:
        backbone, free = [], []
        for i, value in enumerate(self.ref):   # the values each cell takes (two at most in black and white)
            others = clue_values(self.puzzle, i) - {value}
            self.takes[i] = {value} | {v for v in others if self.oracle.feasible({i: v})}
            (free if len(self.takes[i]) > 1 else backbone).append(i)
        self.backbone, self.free = backbone, free
        # True in every solution: fixing it for good spares every later question thousands of assumptions.
        self.oracle.session.restrict({self.cell(i): self.ref[i] for i in backbone})

    def _outside(self, cells: list[int]) -> dict[int, int]:
        """The free cells of the other groups, held at the reference (the backbone is, for good)."""
        inside = set(cells)
        return {i: self.ref[i] for i in self.free if i not in inside}

    def _split(self) -> None:
        """Each group's arrangements, and its exact regions when they are few enough."""
        for cells in line_groups(self.free, self.width):
            group = _Group(cells, {bytes(p[i] for i in cells) for p in self.pool.pictures}, self.pool.complete)
            self.groups.append(group)
            if not group.complete:
                result = self.oracle.ask(self._outside(cells), self.cap + 1)
                group.arrangements.update(bytes(s.to_bytes()[i] for i in cells) for s in result.solutions)
                group.complete = result.complete
            if group.complete:
                group.regions = self._factor(group)

    def _factor(self, group: _Group) -> list[Region]:
        cells, arrangements = group.cells, sorted(group.arrangements)
        local = Pool(len(cells))
        for a in arrangements:
            local.add(a)
        position = {i: n for n, i in enumerate(cells)}
        parts = linked_parts(cells, lambda fixed: bool(local.matching({position[i]: v for i, v in fixed.items()})),
                             self.watch, self.width, self.takes.__getitem__)
        regions = []
        for factor in product_factors(arrangements, [[position[i] for i in part] for part in parts]):
            patterns = {bytes(a[n] for n in factor) for a in arrangements}
            members = tuple(self.cell(cells[n]) for n in factor)
            kind, adjacent = _kind(members, patterns)
            regions.append(Region(kind, members, len(patterns), True, adjacent))
        return regions

    def _givens(self) -> None:
        givens: dict[int, int] = {}
        for group in self.groups:
            givens.update(self._exact_givens(group) if group.complete else self._searched_givens(group))
        self.givens = givens
        fresh = self.solver.solve(self.puzzle, self.oracle.limits(2),
                                  Given({self.cell(i): v for i, v in givens.items()}))
        self.givens_unique = fresh.unique

    def _exact_givens(self, group: _Group) -> dict[int, int]:
        """Greedy over the enumerated arrangements: each given removes the most of them."""
        cells, ref = group.cells, bytes(self.ref[i] for i in group.cells)
        local = Pool(len(cells))
        local.add(ref)                                    # pattern 0 is the reference's
        for a in sorted(group.arrangements):
            local.add(a)
        chosen: dict[int, int] = {}
        others = local.matching({}) & ~1
        while others:
            def removes(n: int) -> int:
                return (others & ~local.has(n, ref[n])).bit_count()
            best = max((n for n in range(len(cells)) if n not in chosen), key=lambda n: (removes(n), -n))
            chosen[best] = ref[best]
            others = local.matching(chosen) & ~1
        for n in reversed(list(chosen)):                  # drop the givens the others make redundant
            trial = {m: v for m, v in chosen.items() if m != n}
            if local.matching(trial) == 1:
                chosen = trial
        return {cells[n]: v for n, v in chosen.items()}

    def _searched_givens(self, group: _Group) -> dict[int, int]:
        """Greedy with exact counts to 2, the rest of the puzzle held at the reference."""
        outside = self._outside(group.cells)
        chosen: dict[int, int] = {}

        def unique(extra: dict[int, int]) -> bool:
            return self.oracle.ask({**outside, **extra}, 2).unique

        while not unique(chosen):
            best = self._best_given(group.cells, outside, chosen)
            chosen[best] = self.ref[best]
        for i in reversed(list(chosen)):
            trial = {j: v for j, v in chosen.items() if j != i}
            if unique(trial):
                chosen = trial
        return chosen

    def _best_given(self, cells: list[int], outside: dict[int, int], chosen: dict[int, int]) -> int:
        pool, ref = self.pool, self.ref
        others = pool.matching(chosen) & ~1               # known alternatives (bit 0 is the reference)

        def removes(i: int) -> int:
            return (others & ~pool.has(i, ref[i])).bit_count()

        candidates = [i for i in cells if i not in chosen]
        implied = getattr(self.oracle.session, "implied", None)
        if implied is None:
            return max(candidates, key=lambda i: (removes(i), -i))
        # What line logic decides after the given says more than a sample of solutions;
        # a cell that removes a known alternative (the last count's second solution is
        # one) comes first, so that every round makes progress.
        fixed = {self.cell(i): v for i, v in {**outside, **chosen}.items()}
        decided = implied(fixed) or {}
        best, best_score = candidates[0], (False, -1, -1)
        for n, i in enumerate(c for c in candidates if self.cell(c) not in decided):
            if n % 256 == 0 and self.watch.expired():
                raise OutOfTime
            score = (removes(i) > 0, len(implied({**fixed, self.cell(i): ref[i]}) or ()), removes(i))
            if score > best_score:
                best, best_score = i, score
        return best

    def _refine(self) -> None:
        """Groups with too many arrangements: one region, indivisible if its cells are linked."""
        for group in self.groups:
            if group.complete:
                continue
            outside = self._outside(group.cells)

            def feasible(fixed: dict[int, int]) -> bool:
                return self.oracle.feasible(fixed, outside)

            parts = linked_parts(group.cells, feasible, self.watch, self.width, self.takes.__getitem__)
            group.regions = [self._whole(group, len(parts))]
            cells = tuple(map(self.cell, group.cells))
            pair = sorted(self.takes[group.cells[0]])   # a switch's cells all take the same two values
            if len(parts) == 1 and _corners(cells) is not None and len(pair) == 2 and all(
                    self.takes[i] == set(pair) for i in group.cells):
                (a, b, c, d), (x, y) = group.cells, pair      # row-major: the corners are a b / c d
                # Only the two diagonals: a = d, b = c and a != b.
                if not any(feasible(f) for f in ({a: y, d: x}, {a: x, d: y}, {b: y, c: x}, {b: x, c: y},
                                                 {a: y, b: y}, {a: x, b: x})):
                    group.regions = [Region("switch", cells, 2, True, bool(_corners(cells)))]

    def _whole(self, group: _Group, parts: int | None) -> Region:
        return Region("region", tuple(map(self.cell, group.cells)), len(group.arrangements), False,
                      indivisible=parts == 1, max_parts=parts)

    def _stopped(self) -> Verdict:
        return Verdict.INTERRUPTED if self.watch.cancelled() else Verdict.TIMEOUT

    def _finish(self) -> AmbiguityReport:
        pool = self.pool
        backend = self.solver.name
        stats = {"questions": self.oracle.questions, "solutions_kept": pool.size, "groups": len(self.groups),
                 "wall_time": round(self.watch.elapsed(), 6)}
        if self.contradiction:
            return AmbiguityReport(Verdict.CONTRADICTION, True, backend, count_exact=True, stats=stats)
        if not pool.size:  # stopped before the first solution: no cell is classified
            every = tuple(self.cell(i) for i in range(self.cells))
            return AmbiguityReport(self._stopped(), False, backend, undecided=every, stats=stats)
        backbone = self.backbone or []
        known = set(backbone) | set(self.free)
        undecided = tuple(self.cell(i) for i in range(self.cells) if i not in known)
        backbone_exact = self.backbone is not None
        if pool.size >= 2:
            verdict = Verdict.MULTIPLE
        elif pool.complete or (backbone_exact and not self.free):
            verdict = Verdict.UNIQUE
        else:
            verdict = self._stopped()
        split_done = backbone_exact and len(self.groups) == len(line_groups(self.free, self.width))
        regions = [r for g in self.groups for r in (g.regions or [self._whole(g, None)])]
        regions_exact = split_done and all(r.indivisible for r in regions)
        count, count_exact = pool.size, pool.complete
        if split_done and all(g.complete for g in self.groups):
            count, count_exact = prod(r.arrangements for r in regions), True
        elif split_done:
            count = max(count, prod(len(g.arrangements) for g in self.groups))
        givens = tuple((*self.cell(i), v) for i, v in sorted((self.givens or {}).items()))
        givens_unique = self.givens_unique or verdict is Verdict.UNIQUE
        return AmbiguityReport(
            verdict, self.finished, backend, self.reference,
            count, count_exact, tuple(map(self.cell, backbone)), backbone_exact, tuple(map(self.cell, self.free)),
            undecided, tuple(sorted(regions, key=lambda r: r.cells)), regions_exact, givens, givens_unique, stats)
