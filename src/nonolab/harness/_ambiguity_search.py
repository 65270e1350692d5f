"""The search behind :func:`nonolab.harness.ambiguity.ambiguity_report`: its phases (count,
backbone, groups and their regions, givens) over one pool of solutions, one oracle and
one deadline.  The definitions are in :mod:`nonolab.harness.ambiguity`'s notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.harness._solutions import (OutOfTime, Oracle, Pool, clue_values, line_groups, linked_parts,
                                        product_factors, rectangle_corners as _corners, region_kind as _kind)
from nonolab.harness.ambiguity import AmbiguityReport, Cell, Region
from nonolab.harness.uniqueness import Verdict
from nonolab.solvers import Session
from nonolab.solvers.base import Budget, Given, Solver


@dataclass
class _Group:
    """Free cells closed under sharing a line, and what is known of their arrangements."""

    cells: list[int]
    arrangements: set[bytes]
    complete: bool = False
    regions: list[Region] = field(default_factory=list)


class Search:
    """The phases of one report, sharing the pool, the oracle and the deadline."""

    def __init__(self, puzzle: Puzzle, solver: Solver, session: Session, watch: Budget,
                 reference: Solution | None, enumerate_up_to: int, known: tuple[Solution, ...] = ()):
        self.puzzle = puzzle
        self.solver = solver
        self.width = puzzle.width
        self.cells = puzzle.width * puzzle.height
        self.pool = Pool(self.cells)
        self.oracle = Oracle(session, self.pool, watch, puzzle.width)
        self.watch = watch
        self.reference = reference
        self.known = known
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
        finally:
            # After the count: without a reference, the first solution the backend found
            # is the reference (as without known ones), a known one when it found none.
            for picture in self.known:
                pool.add(picture.to_bytes())
        if not pool.size:
            if pool.complete or not oracle.ask({}, 1).solutions:   # the count's share ran out: find one
                self.contradiction = True
                return False
        self.ref = pool.pictures[0]
        self.reference = Solution.from_bytes(self.ref, self.width, colours=self.puzzle.is_colour)
        return True

    def _backbone(self) -> None:
        backbone: list[int] = []
        free: list[int] = []
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
        if self.backbone is None and pool.size >= 2:
            # The backbone's questions were cut: a cell where two known solutions differ is
            # free all the same (Knotty under a limit: its 14 differing cells, not 0 of 1600).
            self.free = [i for i in range(self.cells)
                         if any(pool.matching({i: v}) for v in clue_values(self.puzzle, i) - {self.ref[i]})]
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
