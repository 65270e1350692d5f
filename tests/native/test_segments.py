"""A line solve reads only the segment that can change; both engines must still reach the
very fixpoint a naive propagation reaches.

The engines solve a line only between the cuts around the cells changed since its last
solve, and answer an all-unknown line in closed form (``propagate.open_segment``,
``line.blank_fix``, ``compiled/engine.cpp``).  A wrong cut or a forgotten change would
leave a deduction out: the root's propagation (and probing) would stop at a weaker
grid.  So the root's grid of each engine is checked against a reference that knows
nothing of windows or segments: every line solved whole, by enumerating its
arrangements, until nothing changes, with probing by the same naive means.
"""

from __future__ import annotations

import itertools
import random

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.solvers.native import fix_line
from nonolab.solvers.native.compiled import CompiledSpace, available
from nonolab.solvers.native.modes import Probing
from nonolab.solvers.native.numba_space import NumbaSpace
from nonolab.solvers.native.strategies import DEFAULT_ENUMERATE_CAP, STRATEGIES

EMPTY, FILLED, UNKNOWN = 1, 2, 3


def arrangements(clue: tuple[int, ...], n: int):
    """Every line of n cells (1 empty, 2 filled) whose runs are ``clue``."""
    for bits in itertools.product((EMPTY, FILLED), repeat=n):
        if tuple(clues_of([b == FILLED for b in bits])) == tuple(clue):
            yield bits


def brute_line(clue: tuple[int, ...], cells: tuple[int, ...]) -> tuple[int, ...] | None:
    """The union of the arrangements that agree with ``cells``; None when none does."""
    union = [0] * len(cells)
    found = False
    for bits in arrangements(clue, len(cells)):
        if all(c & b for c, b in zip(cells, bits)):
            found = True
            union = [u | b for u, b in zip(union, bits)]
    return tuple(union) if found else None


def whole_line(clue: tuple[int, ...], cells: tuple[int, ...]) -> tuple[int, ...] | None:
    """The line DP on the whole line from its static windows (no segments): for long lines."""
    got = fix_line(clue, bytes(cells))
    return None if got is None else tuple(got)


def naive_propagate(puzzle: Puzzle, grid: list[int], solve=brute_line) -> list[int] | None:
    """Solve every row and column whole, over and over, until nothing changes."""
    h, w = puzzle.height, puzzle.width
    grid = list(grid)
    changed = True
    while changed:
        changed = False
        for r in range(h):
            got = solve(puzzle.rows[r], tuple(grid[r * w:(r + 1) * w]))
            if got is None:
                return None
            changed |= list(got) != grid[r * w:(r + 1) * w]
            grid[r * w:(r + 1) * w] = got
        for c in range(w):
            got = solve(puzzle.columns[c], tuple(grid[c::w]))
            if got is None:
                return None
            changed |= list(got) != grid[c::w]
            grid[c::w] = got
    return grid


def naive_root(puzzle: Puzzle, probing: str, solve=brute_line) -> list[int] | None:
    """The root's fixpoint: propagation, then probing cell by cell until a sweep learns nothing."""
    grid = naive_propagate(puzzle, [UNKNOWN] * (puzzle.height * puzzle.width), solve)
    learnt = probing != "none"
    while grid is not None and learnt:
        learnt = False
        for p in range(len(grid)):
            if grid[p] != UNKNOWN:
                continue
            trials = []
            for value in (EMPTY, FILLED):
                trial = list(grid)
                trial[p] = value
                trials.append(naive_propagate(puzzle, trial, solve))
            if trials[0] is None and trials[1] is None:
                return None
            if trials[0] is None or trials[1] is None:
                grid[p] = FILLED if trials[0] is None else EMPTY
            elif probing == "full":
                agreed = [x for x in range(len(grid)) if grid[x] == UNKNOWN and trials[0][x] == trials[1][x] != UNKNOWN]
                if not agreed:
                    continue
                for x in agreed:
                    grid[x] = trials[0][x]
            else:
                continue
            learnt = True
            grid = naive_propagate(puzzle, grid, solve)
            if grid is None:
                return None
    return grid


def engine_root(puzzle: Puzzle, engine: str, probing: str, cache_bytes: int) -> list[int] | None:
    """The engine's grid after its root node (None: the root is a contradiction)."""
    if engine == "compiled":
        space = CompiledSpace(puzzle, cache_bytes, None, probing)
    else:
        space = NumbaSpace(puzzle, False, cache_bytes, None, Probing(probing), STRATEGIES["dp"],
                           DEFAULT_ENUMERATE_CAP)
    outcome = space.run(max_solutions=1, node_limit=1)
    if outcome.complete and not outcome.solutions:
        return None
    return list(space.remainder())


def random_puzzles(count: int, seed: int):
    """Pictures up to 9x9 of every density, and clue sets that may have no solution."""
    rng = random.Random(seed)
    for _ in range(count):
        h, w = rng.randint(1, 9), rng.randint(1, 9)
        density = rng.choice((0.3, 0.5, 0.65, 0.8))
        rows = [[int(rng.random() < density) for _ in range(w)] for _ in range(h)]
        other = [[int(rng.random() < density) for _ in range(w)] for _ in range(h)]
        columns = other if sum(map(sum, other)) == sum(map(sum, rows)) and rng.random() < 0.5 else rows
        yield Puzzle(rows=tuple(clues_of(r) for r in rows),
                     columns=tuple(clues_of([columns[r][c] for r in range(h)]) for c in range(w)))


ENGINES = ["numba"] + (["compiled"] if available() else [])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("probing", ["none", "contradiction", "full"])
def test_the_root_reaches_the_naive_fixpoint(engine, probing):
    checked = 0
    for puzzle in random_puzzles(70, seed=len(probing)):
        want = naive_root(puzzle, probing)
        for cache_bytes in (0, 1 << 20):
            assert engine_root(puzzle, engine, probing, cache_bytes) == want, (puzzle, cache_bytes)
        checked += want is not None and UNKNOWN in want
    assert checked > 0  # some roots leave cells open: their segments were solved part by part


def random_pictures(count: int, seed: int, low: int, high: int):
    """Puzzles of random pictures ``low``..``high`` a side: long lines of many blocks,
    where most solves after a line's first read a segment of it."""
    rng = random.Random(seed)
    for _ in range(count):
        h, w = rng.randint(low, high), rng.randint(low, high)
        density = rng.choice((0.5, 0.6, 0.7, 0.8))
        bits = [[int(rng.random() < density) for _ in range(w)] for _ in range(h)]
        yield Puzzle.from_solution(Solution.from_rows(bits))


@pytest.mark.parametrize("engine", ENGINES)
def test_large_pictures_reach_the_naive_fixpoint(engine):
    for puzzle in random_pictures(60, seed=3, low=10, high=30):
        assert engine_root(puzzle, engine, "none", 0) == naive_root(puzzle, "none", whole_line), puzzle


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("probing", ["contradiction", "full"])
def test_probing_on_larger_pictures_reaches_the_naive_fixpoint(engine, probing):
    """Probing's trials change one cell: their solves read the segment around it."""
    for puzzle in random_pictures(6, seed=8, low=9, high=11):
        want = naive_root(puzzle, probing, whole_line)
        assert engine_root(puzzle, engine, probing, 1 << 20) == want, puzzle


def test_an_all_unknown_line_is_answered_as_by_enumeration():
    """``blank_fix``: the closed form of every clue of lines up to 9 cells."""
    for n in range(1, 10):
        clues = {tuple(clues_of([b == FILLED for b in bits])) for bits in itertools.product((EMPTY, FILLED), repeat=n)}
        for clue in clues:
            got = fix_line(clue, bytes([UNKNOWN] * n))
            assert tuple(got) == brute_line(clue, (UNKNOWN,) * n), (clue, n)
    assert fix_line((3, 3), bytes([UNKNOWN] * 6)) is None  # no room: a contradiction


@pytest.mark.skipif(not available(), reason="the native engine's C++ core is not built")
def test_without_the_cache_both_engines_solve_the_same_lines():
    """The same schedule and the same skips: with no cache (whose two tables hash
    differently), every search does exactly the same line solves in both engines."""
    from nonolab.solvers.base import Limits
    from nonolab.solvers.native import NativeSolver

    puzzles = [*random_puzzles(25, seed=21), *random_pictures(8, seed=4, low=10, high=25)]
    for probing in ("none", "full"):
        for puzzle in puzzles:
            counters = []
            for engine in ("compiled", "numba"):
                result = NativeSolver(engine=engine, probing=probing, restarts=False, cache_bytes=0).solve(
                    puzzle, Limits(max_solutions=None))
                c = result.stats.counters
                counters.append((result.count, c["line_solves"], c["cache_hits"], c["nodes"], c["probes"]))
            assert counters[0] == counters[1], (puzzle, probing)
            assert counters[0][1] > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_pictures_across_the_bit_set_word_sizes_reach_the_naive_fixpoint(engine):
    """Sides from 55 to 140: the compiled core solves parts of up to 63 cells on 64-bit
    words, up to 127 on 128-bit words and longer ones with the byte DP; the windows the
    bit sets narrow must hold every valid start, as the byte DP's do."""
    sides = set()
    for puzzle in random_pictures(8, seed=11, low=55, high=140):
        sides.update((puzzle.width, puzzle.height))
        assert engine_root(puzzle, engine, "none", 0) == naive_root(puzzle, "none", whole_line), puzzle
    assert min(sides) <= 63 and any(64 <= s <= 127 for s in sides) and max(sides) > 127
