"""The search behind :func:`nonolab.harness.repair.repair`: the exact levels over flip
sets, the greedy repair, and the deltas that refute candidates without a solver call.
The argument is in :mod:`nonolab.harness.repair`'s notes.
"""

from __future__ import annotations

import time
from typing import Any, Iterable

from nonolab.core.grid import UNKNOWN, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.harness._changes import (Change, Delta, alternatives, applied, cells_of, changed_lines, delta_of,
                                      disjoint_deltas, line_clue, puzzle_of)
from nonolab.harness._solutions import OutOfTime
from nonolab.harness.repair import RepairResult, Suggestion
from nonolab.solvers import get
from nonolab.solvers.base import Budget, Limits, Solver

# Solutions enumerated first (each gives a delta); the greedy repair's most flips (or a
# tenth of the cells), and the candidates it scores per flip (spread over the
# undecided cells).
_ENUMERATE = 64
_GREEDY_FLIPS = 60
_GREEDY_CANDIDATES = 16
_GREEDY_ENUMERATE = 8   # solutions counted per greedy flip: each new one is a delta to break
_GREEDY_DELTAS = 64     # the newest deltas the greedy repair scores flips against
_GREEDY_REACH = 600     # the most cells it scores per flip
_GREEDY_PER_COUNT = 8   # flips between two counts, each for an ambiguity on other lines
_GREEDY_COUNT = 3.0     # seconds for each count of the greedy repair (or twice the first count's)
# The exact search (levels grow as (cells on a line)^flips) hands over to the greedy one after:
_EXACT_SETS, _EXACT_SHARE, _EXACT_SECONDS = 200_000, 0.3, 20.0
# A step on the whole picture (its puzzle's clues, the line logic's open cells) takes about
# this long a cell (1.0-1.6 s at 10,000x10,000, measured); no step starts unless the longest
# one seen so far (and at least this much) still fits before the deadline, so that a repair
# of a huge grid ends on time, not a step or two after it.
_STEP_PER_CELL = 1.5e-8


class _Budget(Exception):
    """The exact search used its share: the greedy repair takes over."""


class Search:
    """The picture as row-major bytes, the deltas known, and the backend's checks."""

    def __init__(self, puzzle: Puzzle, solver: Solver, watch: Budget, picture: Solution | None,
                 keep: Iterable[tuple[int, int]] = ()):
        self.puzzle, self.solver, self.watch = puzzle, solver, watch
        self.width, self.height = puzzle.width, puzzle.height
        self.picture = picture
        self.base = bytearray(picture.to_bytes()) if picture is not None else bytearray()
        self.top = puzzle.colours                      # cell values are 0..top
        # Never changed: the givens (part of the puzzle) and the cells the caller keeps.
        self.fixed = frozenset([r * puzzle.width + c for r, c, _ in puzzle.givens]
                               + [r * puzzle.width + c for r, c in keep])
        self.clue = line_clue(self.top)
        self.deltas: list[Delta] = []
        self.checks = self.refuted = 0
        self.levels_done = 0
        self.lines = get("native", probing="none", restarts=False, node_limit=1)  # root line logic only
        self.phase_end: float | None = None     # perf_counter deadline of the exact phase
        self.phase_sets = 0
        self.count_budget = _GREEDY_COUNT
        self.anchors: dict[Delta, frozenset[Change]] = {}   # the changes each delta was found at
        self.line_cache: dict[Delta, dict[tuple[str, int], list[Change]]] = {}   # each delta by line
        self.cache: dict[bytes, Delta | None] = {}
        self.step = _STEP_PER_CELL * puzzle.width * puzzle.height   # the longest step on the picture seen

    def lower_bound(self) -> int:
        """Flips every repair needs: one more than the sizes searched whole, and half the
        deltas sharing no line (rounded up)."""
        if not self.deltas:
            return 0
        return max(self.levels_done + 1, (disjoint_deltas(self.deltas, self.width) + 1) // 2)

    def stats(self) -> dict[str, Any]:
        return {"checks": self.checks, "refuted": self.refuted, "deltas": len(self.deltas),
                "sizes_searched": self.levels_done, "wall_time": round(self.watch.elapsed(), 6)}

    def _count(self, puzzle: Puzzle, most: int):
        self._tick()
        now = time.perf_counter()
        # The count leaves room for one more step on the picture (what follows it) before the deadline.
        ends = [t for t in (None if self.watch.deadline is None else self.watch.deadline - self.step,
                            self.phase_end) if t is not None]
        left = max(min(ends) - now, Budget.AT_ONCE) if ends else None
        self.checks += 1
        result = self.solver.solve(puzzle, Limits(most, left, self.watch.cancel))
        if not result.complete and result.count < most:
            self._tick()
            raise _Budget if self.phase_end is not None and not self.watch.expired() else OutOfTime
        return result

    def run(self, max_flips: int, wanted: int, source: str) -> RepairResult:
        began = time.perf_counter()
        first = self._count(self.puzzle, _ENUMERATE)
        self.count_budget = max(_GREEDY_COUNT, 2 * (time.perf_counter() - began))
        if not first.solutions:
            return RepairResult("contradiction", None, None, stats=self.stats())   # no picture: no source
        if self.picture is None:
            self.picture = first.solutions[0]
            self.base = bytearray(self.picture.to_bytes())
        if first.unique:
            return RepairResult("unique", self.picture, source, minimal=True, stats=self.stats())
        self._learn_all(self.base, first.solutions)
        if disjoint_deltas(self.deltas, self.width) <= 2 * max_flips:
            left = self.watch.left()
            share = _EXACT_SECONDS if left is None else min(_EXACT_SECONDS, _EXACT_SHARE * left)
            self.phase_end = time.perf_counter() + share
            try:
                found = self._levels(self.base, max_flips, wanted)
                if found:
                    return self._result(source, [frozenset(f) for f in found], True, "exact")
            except _Budget:
                pass
            self.phase_end = None
        return self._greedy(source)

    def _learn_all(self, picture: bytearray, solutions: Iterable[Solution],
                   anchor: frozenset[Change] = frozenset()) -> None:
        for s in solutions:
            self._tick()
            began = time.perf_counter()
            delta = delta_of(picture, s.to_bytes())
            self.step = max(self.step, time.perf_counter() - began)
            if delta:
                self._learn(delta, anchor)

    def _learn(self, delta: Delta, anchor: frozenset[Change]) -> None:
        """Keep ``delta``, a second solution of the picture changed at ``anchor``."""
        if delta not in self.anchors:
            self.anchors[delta] = anchor
            self.deltas.insert(0, delta)     # the newest first: it refutes the sets near the last one

    def _refutes(self, delta: Delta, picture: bytearray, flips: frozenset[Change]) -> bool:
        """Writing ``delta`` over ``picture`` (the base changed at ``flips``) gives another
        picture with every clue kept.

        ``delta`` kept every clue of the picture changed at its anchor; the two pictures
        differ only on the lines of the cells of ``flips ^ anchor``, so only those need
        comparing."""
        if all(picture[i] == v for i, v in delta):   # nothing left to change: no other picture
            return False
        w = self.width
        by_line = self.line_cache.get(delta)
        if by_line is None:
            by_line = {}
            for i, v in delta:
                r, c = divmod(i, w)
                by_line.setdefault(("row", r), []).append((c, v))
                by_line.setdefault(("column", c), []).append((r, v))
            self.line_cache[delta] = by_line
        for i in cells_of(flips ^ self.anchors[delta]):
            for kind, k in (("row", i // w), ("column", i % w)):
                cells = by_line.get((kind, k))
                if cells is None:
                    continue
                line = bytearray(picture[k * w:(k + 1) * w] if kind == "row" else picture[k::w])
                before = self.clue(bytes(line))
                for j, v in cells:
                    line[j] = v
                if self.clue(bytes(line)) != before:
                    return False
        return True

    def _tick(self) -> None:
        """Raise :class:`OutOfTime` once the deadline (or the cancel) leaves no room for
        another step on the picture, :class:`_Budget` once the exact phase's share is used."""
        if self.watch.expired() or (self.watch.deadline is not None
                                    and time.perf_counter() + self.step >= self.watch.deadline):
            raise OutOfTime
        if self.phase_end is not None and time.perf_counter() >= self.phase_end:
            raise _Budget

    def _refuting(self, picture: bytearray, flips: frozenset[Change]) -> Delta | None:
        self.phase_sets += 1
        if self.phase_sets > _EXACT_SETS:
            raise _Budget
        for n, delta in enumerate(self.deltas):
            if n % 64 == 0:
                self._tick()
            if self._refutes(delta, picture, flips):
                if n:
                    self.deltas.insert(0, self.deltas.pop(n))   # move to front: it is likely to refute again
                return delta
        return None

    def _reach(self, delta: Delta) -> list[int]:
        """The cells on the lines meeting ``delta`` (those whose change may break it), nearest first."""
        w, h = self.width, self.height
        inside = cells_of(delta)
        rows, cols = {i // w for i in inside}, {i % w for i in inside}
        cells = {r * w + c for r in rows for c in range(w)} | {r * w + c for c in cols for r in range(h)}
        top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)

        def distance(i: int) -> int:            # to the delta's bounding box
            r, c = divmod(i, w)
            return max(top - r, 0, r - bottom) + max(left - c, 0, c - right)
        return sorted(cells, key=lambda i: (i not in inside, distance(i), i))

    def _check(self, flips: frozenset[Change], base: bytearray) -> Delta | None:
        """Change ``flips`` on ``base``: None if the new puzzle is unique, else a delta refuting it."""
        picture = applied(base, flips)
        key = bytes(picture)
        if key in self.cache:
            return self.cache[key]
        delta = self._refuting(picture, flips)
        if delta is not None:
            self.refuted += 1
            return delta
        result = self._count(self._puzzle_of(picture), 2)
        if result.unique:
            self.cache[key] = None
            return None
        other = next(s for s in result.solutions if s.to_bytes() != bytes(picture))
        delta = delta_of(picture, other.to_bytes())
        self._learn(delta, flips)
        self.cache[key] = delta
        return delta

    def _levels(self, base: bytearray, max_flips: int, wanted: int) -> list[frozenset[Change]]:
        """Breadth first: the unique change sets of the fewest changes (at most ``wanted``)."""
        frontier: dict[frozenset[Change], Delta] = {}
        self.phase_sets = 0
        delta = self._check(frozenset(), base)
        if delta is None:
            return [frozenset()]
        frontier[frozenset()] = delta
        for size in range(1, max_flips + 1):
            found: list[frozenset[Change]] = []
            following: dict[frozenset[Change], Delta] = {}
            for flips, delta in frontier.items():
                taken = cells_of(flips)
                for cell in self._reach(delta):
                    if cell in taken:
                        continue
                    for value in alternatives(base, cell, self.top, self.fixed):
                        child = flips | {(cell, value)}
                        if child in following:
                            continue
                        refuting = self._check(child, base)
                        if refuting is None:
                            found.append(child)
                            if len(found) >= wanted:
                                return found
                            following[child] = ()
                        else:
                            following[child] = refuting
            if found:
                return found
            self.levels_done = size
            frontier = following
        return []

    def _puzzle_of(self, picture: bytes | bytearray) -> Puzzle:
        """The puzzle of ``picture`` (a step on the whole picture: timed, see :data:`_STEP_PER_CELL`)."""
        self._tick()
        began = time.perf_counter()
        made = puzzle_of(picture, self.width, self.puzzle)
        self.step = max(self.step, time.perf_counter() - began)
        return made

    def _undecided(self, picture: bytearray, most: int | None = None) -> tuple[list[int], int]:
        """The cells line logic alone leaves open in the puzzle of ``picture``: the first
        ``most`` (all: ``None``), and how many there are.  Both from the line logic's grid in
        C (a Python loop over its cells took 12 s at 10,000x10,000); the line logic runs
        within the time limit too."""
        import numpy as np

        puzzle = self._puzzle_of(picture)
        self._tick()
        result = self.lines.solve(puzzle, Limits(1, self.watch.time_limit(), self.watch.cancel))
        self._tick()
        if result.remainder is None:
            return [], 0
        began = time.perf_counter()
        cells = result.remainder.cells
        open_cells = np.flatnonzero(np.frombuffer(cells, dtype=np.uint8) == UNKNOWN)[:most].tolist()
        found = (open_cells, cells.count(UNKNOWN))
        self.step = max(self.step, time.perf_counter() - began)
        return found

    def _count_soon(self, picture: bytearray, most: int):
        """A count to ``most`` within ``count_budget`` seconds (``None`` when that ran out first)."""
        saved = self.phase_end
        self.phase_end = time.perf_counter() + self.count_budget
        try:
            return self._count(self._puzzle_of(picture), most)
        except _Budget:
            return None
        finally:
            self.phase_end = saved

    def _unique_soon(self, picture: bytearray) -> bool:
        return bool((result := self._count_soon(picture, 2)) and result.unique)

    def _greedy(self, source: str) -> RepairResult:
        picture = bytearray(self.base)
        flipped: frozenset[Change] = frozenset()
        most = max(_GREEDY_FLIPS, len(picture) // 10)
        while len(flipped) < most:
            result = self._count_soon(picture, _GREEDY_ENUMERATE)
            if result is not None and result.unique:
                return self._result(source, [frozenset(self._pruned(sorted(flipped)))], False, "greedy",
                                    proven=True)
            if result is not None:
                self._learn_all(picture, result.solutions, flipped)
            # The known deltas that still give second solutions, newest first.
            active = [d for d in self.deltas[:_GREEDY_DELTAS] if self._refutes(d, picture, flipped)]
            touched: set[tuple[str, int]] = set()     # the lines changed since the count
            while len(touched) < 2 * _GREEDY_PER_COUNT:
                if (best := self._best_flip(picture, flipped, active)) is None:
                    break
                cell, value = best
                picture[cell] = value
                flipped = flipped | {best}
                touched |= {("row", cell // self.width), ("column", cell % self.width)}
                active = [d for d in active if self._refutes(d, picture, flipped)]
                # Another change before the next count only for an ambiguity elsewhere (on other lines).
                if not active or touched & set(self.line_cache[active[0]]):
                    break
            if not touched:
                break
        return RepairResult("not-found", self.picture, source, method="greedy", lower_bound=self.lower_bound(),
                            stats=self.stats())

    def _best_flip(self, picture: bytearray, flipped: frozenset[Change], active: list[Delta]) -> Change | None:
        """The change on the newest active delta's lines that leaves the fewest refuting."""
        reach = (self._reach(active[0]) if active else self._undecided(picture, _GREEDY_REACH)[0])[:_GREEDY_REACH]
        taken = cells_of(flipped)
        scored = []
        for i in reach:
            if i in taken:
                continue
            self._tick()
            own = picture[i]
            for value in alternatives(picture, i, self.top, self.fixed):
                picture[i] = value
                scored.append((sum(self._refutes(d, picture, flipped | {(i, value)}) for d in active), (i, value)))
            picture[i] = own
        if not scored:
            return None
        scored.sort()
        best, best_left = scored[0][1], None
        for still, (i, value) in scored[:_GREEDY_CANDIDATES]:
            if still > scored[0][0]:
                break
            own, picture[i] = picture[i], value
            left = self._undecided(picture, 0)[1]
            picture[i] = own
            if best_left is None or left < best_left:
                best, best_left = (i, value), left
        return best

    def _pruned(self, flipped: list[Change]) -> list[Change]:
        """Drop each change the others do not need (an exact count to 2 each; a change whose
        count runs out of time stays)."""
        kept = list(flipped)
        try:
            for change in reversed(flipped):
                trial = [other for other in kept if other != change]
                if self._unique_soon(applied(self.base, trial)):
                    kept = trial
        except OutOfTime:
            pass
        return kept

    def _result(self, source: str, found: list[frozenset[Change]], minimal: bool, method: str,
                proven: bool = False) -> RepairResult:
        """The suggestions; each is counted afresh unless ``proven`` (just counted, or decided
        whole by line logic)."""
        made = []
        w = self.width
        for flips in found:
            new = puzzle_of(applied(self.base, flips), w, self.puzzle, self.puzzle.name, **self.puzzle.metadata)
            unique = proven or self._count(new, 2).unique        # the proof: an exact count to 2
            cells = tuple((i // w, i % w, v) for i, v in sorted(flips))
            made.append(Suggestion(cells, new, unique, changed_lines(self.puzzle, new)))
        made.sort(key=lambda s: (not s.unique, len(s.flips)))
        status = "repaired" if made and made[0].unique else "not-found"
        return RepairResult(status, self.picture, source, tuple(made), minimal and status == "repaired",
                            method, self.lower_bound(), self.stats())
