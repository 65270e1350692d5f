"""The pieces of the ambiguity report: a pool of known solutions, an oracle that asks the
backend only what the pool cannot answer, and the splitting of free cells into regions.

Cells are row-major indices here; :mod:`.ambiguity` turns them into ``(row, column)``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterable, Sequence

from nonolab.core.puzzle import Puzzle
from nonolab.solvers import Session
from nonolab.solvers.base import Given, Limits, SolveResult, Status, Stopwatch


class OutOfTime(Exception):
    """The report's deadline passed; raised between questions, caught by the phases."""


class Pool:
    """The solutions seen so far, kept as per-cell bit masks over the solutions.

    Bit ``k`` of ``has(i, v)`` is set when cell ``i`` takes value ``v`` (1 filled, or a
    colour index) in solution ``k``; "is there a known solution with these cells" is
    then a few big-integer ANDs.
    """

    def __init__(self, cells: int):
        self.cells = cells
        self._by_value: dict[int, list[int]] = {}   # value -> the mask of each cell
        self.size = 0
        self.complete = False     # every solution of the puzzle is in the pool
        self._index: dict[bytes, int] = {}
        self.pictures: list[bytes] = []

    def add(self, picture: bytes) -> int:
        k = self._index.get(picture)
        if k is None:
            k = self._index[picture] = self.size
            self.pictures.append(picture)
            bit = 1 << k
            for i, v in enumerate(picture):
                masks = self._by_value.get(v)
                if masks is None:
                    masks = self._by_value[v] = [0] * self.cells
                masks[i] |= bit
            self.size += 1
        return k

    def has(self, i: int, value: int) -> int:
        """Mask of the known solutions in which cell ``i`` takes ``value``."""
        masks = self._by_value.get(value)
        return masks[i] if masks is not None else 0

    def values(self, i: int) -> set[int]:
        """The values cell ``i`` takes in the known solutions."""
        return {v for v, masks in self._by_value.items() if masks[i]}

    def matching(self, fixed: dict[int, int]) -> int:
        """Mask of the known solutions that agree with ``fixed`` (cell -> value)."""
        mask = (1 << self.size) - 1
        for i, v in fixed.items():
            mask &= self.has(i, v)
            if not mask:
                break
        return mask


class Oracle:
    """Answers "is there a solution with these cells?" from the pool, else by the backend."""

    def __init__(self, session: Session, pool: Pool, watch: Stopwatch, width: int):
        self.session = session
        self.pool = pool
        self.watch = watch
        self.width = width
        self.questions = 0

    def limits(self, max_solutions: int | None, share: float = 1.0) -> Limits:
        if self.watch.cancelled():
            raise OutOfTime
        if self.watch.deadline is None:
            return Limits(max_solutions, cancel=self.watch.cancel)
        left = self.watch.deadline - self.watch.start - self.watch.elapsed()
        if left <= 0:
            raise OutOfTime
        return Limits(max_solutions, max(left * share, 1e-3), self.watch.cancel)

    def ask(self, fixed: dict[int, int], max_solutions: int | None, share: float = 1.0,
            stop_on_timeout: bool = True) -> SolveResult:
        """Solutions that extend ``fixed``, all kept in the pool."""
        self.questions += 1
        cells = {divmod(i, self.width): v for i, v in fixed.items()}
        result = self.session.solve(self.limits(max_solutions, share), Given(cells))
        if result.status in (Status.TIMEOUT, Status.INTERRUPTED) and stop_on_timeout:
            raise OutOfTime
        for solution in result.solutions:
            self.pool.add(solution.to_bytes())
        return result

    def feasible(self, fixed: dict[int, int], context: dict[int, int] | None = None) -> bool:
        """Is there a solution with ``fixed``?  ``context`` holds cells the caller knows
        do not change the answer (an independent part held at the reference): the
        backend is given them too, which narrows its search; the pool ignores them.
        """
        if self.pool.matching(fixed):
            return True
        if self.pool.complete:
            return False
        return bool(self.ask({**(context or {}), **fixed}, 1).solutions)


def clue_values(puzzle: Puzzle, i: int) -> set[int]:
    """The values cell ``i`` (row-major) may take by its two clues: the background, and
    the colours both its row and its column use (0 and 1 in black and white); a given
    cell only its given value.

    >>> clue_values(Puzzle(rows=((1,),), columns=((1,),)), 0)
    {0, 1}
    >>> clue_values(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 1): 0}), 1)
    {0}
    """
    r, c = divmod(i, puzzle.width)
    if puzzle.givens and (r, c) in puzzle.given_cells:
        return {puzzle.given_cells[(r, c)]}
    if not puzzle.is_colour:
        return {0, 1}
    return {0} | ({v for _, v in puzzle.coloured_rows[r]} & {v for _, v in puzzle.coloured_columns[c]})


def line_groups(free: Iterable[int], width: int) -> list[list[int]]:
    """The free cells split so that every row and every column has its free cells in one part.

    This split is always a product decomposition: two solutions may swap the values
    of any one part, since every line sees the cells of one part only and the rest of
    it (backbone) agrees.  Parts are sorted, in the order of their first cell.
    """
    parent: dict[int, int] = {}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_in_line: dict[tuple[str, int], int] = {}
    for i in free:
        parent[i] = i
        for line in (("row", i // width), ("column", i % width)):
            if line in first_in_line:
                parent[find(i)] = find(first_in_line[line])
            else:
                first_in_line[line] = i
    groups: dict[int, list[int]] = {}
    for i in parent:
        groups.setdefault(find(i), []).append(i)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


def linked_parts(cells: Sequence[int], feasible: Callable[[dict[int, int]], bool],
                 watch: Stopwatch, width: int,
                 values: Callable[[int], Iterable[int]] = lambda i: (0, 1)) -> list[list[int]]:
    """Connected components of the linked relation among ``cells``.

    Two cells are linked when some combination of their values (``values(i)``: those
    cell ``i`` takes in some solution) occurs in no solution.
    Pairs already in one component are skipped, and the search stops as soon as
    everything is one component.  Cells of one line are tried first (the likeliest
    links).
    """
    parent = {i: i for i in cells}
    parts = len(cells)

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    same_line = ((a, b) for a, b in combinations(cells, 2) if a // width == b // width or a % width == b % width)
    others = ((a, b) for a, b in combinations(cells, 2) if a // width != b // width and a % width != b % width)
    for pairs in (same_line, others):
        for n, (a, b) in enumerate(pairs):
            if parts == 1:
                break
            if n % 4096 == 0 and watch.expired():
                raise OutOfTime
            ra, rb = find(a), find(b)
            if ra != rb and any(not feasible({a: va, b: vb}) for va in values(a) for vb in values(b)):
                parent[ra] = rb
                parts -= 1
    out: dict[int, list[int]] = {}
    for i in cells:
        out.setdefault(find(i), []).append(i)
    return list(out.values())


def product_factors(arrangements: Sequence[bytes], parts: Sequence[Sequence[int]]) -> list[list[int]]:
    """The finest split of ``parts`` into factors whose arrangements combine freely.

    ``arrangements`` are the distinct value patterns of a set of cells (positions
    ``0 .. n-1``); ``parts`` partition the positions and must each lie inside one
    factor (linked cells do).  A union ``U`` of parts is a factor when the number of
    arrangements equals ``patterns(U) * patterns(rest)``.  The parts are added one at
    a time: the new part merges with the smallest set of factors found so far that
    makes a factor, found by dropping factors one by one (the sets that work are
    exactly the supersets of the smallest one, so this finds it).

    >>> product_factors([b"\\x00\\x00", b"\\x01\\x01"], [[0], [1]])
    [[0, 1]]
    >>> sorted(product_factors([bytes(p) for p in ((0, 0), (0, 1), (1, 0), (1, 1))], [[0], [1]]))
    [[0], [1]]
    """
    ids: list[list[int]] = []
    for part in parts:
        seen: dict[bytes, int] = {}
        ids.append([seen.setdefault(bytes(a[i] for i in part), len(seen)) for a in arrangements])
    rows = range(len(arrangements))

    def patterns(chosen: list[int]) -> int:
        return len({tuple(ids[j][n] for j in chosen) for n in rows}) if chosen else 1

    factors: list[list[int]] = []          # lists of part indices
    for j in range(len(parts)):
        done = [q for f in factors for q in f]
        total = patterns(done + [j])
        merge = list(range(len(factors)))
        for f in list(merge):
            trial = [g for g in merge if g != f]
            inside = [j] + [q for g in trial for q in factors[g]]
            outside = [q for g, fac in enumerate(factors) if g not in trial for q in fac]
            if patterns(inside) * patterns(outside) == total:
                merge = trial
        factors = [fac for g, fac in enumerate(factors) if g not in merge] + [
            [j] + [q for g in merge for q in factors[g]]]
    return [sorted(i for q in fac for i in parts[q]) for fac in factors]

def rectangle_corners(cells: tuple[tuple[int, int], ...]) -> bool | None:
    """For the four corners of a rectangle (row-major): whether they form a 2x2 block;
    ``None`` for any other set of cells.
    """
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    if len(cells) != 4 or len(rows) != 2 or len(cols) != 2:
        return None
    return rows[1] == rows[0] + 1 and cols[1] == cols[0] + 1


def is_diagonal_pair(patterns: set[bytes]) -> bool:
    """Whether the arrangements of four corners ``a b / c d`` are exactly the two
    diagonals: ``a = d``, ``b = c``, ``a != b``, and the same with the values swapped
    (in colour, any two values).

    >>> is_diagonal_pair({b"\\x01\\x00\\x00\\x01", b"\\x00\\x01\\x01\\x00"})
    True
    >>> is_diagonal_pair({b"\\x02\\x00\\x00\\x02", b"\\x00\\x02\\x02\\x00"}), is_diagonal_pair({b"\\x01\\x00\\x00\\x01"})
    (True, False)
    """
    if len(patterns) != 2:
        return False
    p, q = sorted(patterns)
    x, y = p[0], p[1]
    return x != y and p == bytes((x, y, y, x)) and q == bytes((y, x, x, y))


def region_kind(cells: tuple[tuple[int, int], ...], patterns: set[bytes]) -> tuple[str, bool]:
    """``("switch", adjacent)`` for four rectangle corners whose only arrangements are
    the two diagonals, else ``("region", False)``.
    """
    adjacent = rectangle_corners(cells)
    if adjacent is not None and is_diagonal_pair(patterns):
        return "switch", adjacent
    return "region", False
