"""A line solve reads only the segment that can change; both engines must still reach the
very fixpoint a naive propagation reaches.

The engine solves a line only between the cuts around the cells changed since its last
solve, and answers an all-unknown line in closed form (``search/propagate.cpp``,
``lines/strategy.hpp``'s ``blank_fix``).  A wrong cut or a forgotten change would
leave a deduction out: the root's propagation (and probing) would stop at a weaker
grid.  So the root's grid is checked against a reference that knows nothing of windows or
segments: every line solved whole, by enumerating its arrangements, until nothing
changes, with probing by the same naive means (depth 2 too).
"""

from __future__ import annotations

import itertools
import random

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.solvers.native import fix_line
from nonolab.solvers.native.search import SearchSpace

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
    return None if grid is None else naive_probe(puzzle, grid, probing, solve)


def naive_probe(puzzle: Puzzle, grid: list[int], probing: str, solve=brute_line) -> list[int] | None:
    """Probing from a line fixpoint, cell by cell, until a sweep learns nothing."""
    grid = list(grid)
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


def engine_root(puzzle: Puzzle, probing: str, cache_bytes: int) -> list[int] | None:
    """The engine's grid after its root node (None: the root is a contradiction)."""
    space = SearchSpace(puzzle, cache_bytes, None, probing)
    outcome = space.run(max_solutions=1, node_limit=1)
    if outcome.complete and not outcome.solutions:
        return None
    return list(space.remainder())


def random_puzzles(count: int, seed: int, side: int = 9):
    """Pictures up to side x side of every density, and clue sets that may have no solution."""
    rng = random.Random(seed)
    for _ in range(count):
        h, w = rng.randint(1, side), rng.randint(1, side)
        density = rng.choice((0.3, 0.5, 0.65, 0.8))
        rows = [[int(rng.random() < density) for _ in range(w)] for _ in range(h)]
        other = [[int(rng.random() < density) for _ in range(w)] for _ in range(h)]
        columns = other if sum(map(sum, other)) == sum(map(sum, rows)) and rng.random() < 0.5 else rows
        yield Puzzle(rows=tuple(clues_of(r) for r in rows),
                     columns=tuple(clues_of([columns[r][c] for r in range(h)]) for c in range(w)))


@pytest.mark.parametrize("probing", ["none", "contradiction", "full"])
def test_the_root_reaches_the_naive_fixpoint(probing):
    checked = 0
    for puzzle in random_puzzles(70, seed=len(probing)):
        want = naive_root(puzzle, probing)
        for cache_bytes in (0, 1 << 20):
            assert engine_root(puzzle, probing, cache_bytes) == want, (puzzle, cache_bytes)
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


def test_large_pictures_reach_the_naive_fixpoint():
    for puzzle in random_pictures(60, seed=3, low=10, high=30):
        assert engine_root(puzzle, "none", 0) == naive_root(puzzle, "none", whole_line), puzzle


@pytest.mark.parametrize("probing", ["contradiction", "full"])
def test_probing_on_larger_pictures_reaches_the_naive_fixpoint(probing):
    """Probing's trials change one cell: their solves read the segment around it."""
    for puzzle in random_pictures(6, seed=8, low=9, high=11):
        want = naive_root(puzzle, probing, whole_line)
        assert engine_root(puzzle, probing, 1 << 20) == want, puzzle


def naive_depth2(puzzle: Puzzle, solve=brute_line) -> list[int] | None:
    """Depth-2 probing's root: full probing, then cells probed with contradiction probing
    inside each of their trials, until neither learns anything (the fixpoint is unique:
    every deduction holds in every state that narrows this one)."""
    grid = naive_root(puzzle, "full", solve)
    while grid is not None:
        learnt = False
        for p in (x for x in range(len(grid)) if grid[x] == UNKNOWN):
            trials = []
            for value in (EMPTY, FILLED):
                trial = list(grid)
                trial[p] = value
                trial = naive_propagate(puzzle, trial, solve)
                trials.append(None if trial is None else naive_probe(puzzle, trial, "contradiction", solve))
            if trials[0] is None and trials[1] is None:
                return None
            if trials[0] is None or trials[1] is None:
                grid[p] = FILLED if trials[0] is None else EMPTY
                learnt = True
            else:
                agreed = [x for x in range(len(grid)) if grid[x] == UNKNOWN and trials[0][x] == trials[1][x] != UNKNOWN]
                for x in agreed:
                    grid[x] = trials[0][x]
                learnt = bool(agreed)
            if learnt:
                grid = naive_propagate(puzzle, grid, solve)
                grid = None if grid is None else naive_probe(puzzle, grid, "full", solve)
                break
        if not learnt:
            return grid
    return None


# Pictures whose full probing leaves cells that depth-2 probing decides (found among
# random 6x6 to 9x9 pictures: about one in a few hundred is such).
DEPTH2_PICTURES = [
    ["...##...", "..#.#...", "..#.....", "#..##..#", ".##.....", "..##....", ".#..#.#.", ".....#.#"],
]


def test_depth2_probing_reaches_the_naive_fixpoint():
    for puzzle in random_puzzles(25, seed=5, side=5):
        assert engine_root(puzzle, "depth-2", 1 << 20) == naive_depth2(puzzle), puzzle
    for rows in DEPTH2_PICTURES:
        puzzle = Puzzle.from_solution(Solution.from_rows(rows))
        want = naive_depth2(puzzle, whole_line)
        assert want != naive_root(puzzle, "full", whole_line)  # depth 2 decides more
        assert engine_root(puzzle, "depth-2", 1 << 20) == want, rows


def test_pictures_across_the_bit_set_word_sizes_reach_the_naive_fixpoint():
    """Sides from 55 to 140: the compiled core solves parts of up to 63 cells on 64-bit
    words, up to 127 on 128-bit words and longer ones with the byte DP; the windows the
    bit sets narrow must hold every valid start, as the byte DP's do."""
    sides = set()
    for puzzle in random_pictures(8, seed=11, low=55, high=140):
        sides.update((puzzle.width, puzzle.height))
        assert engine_root(puzzle, "none", 0) == naive_root(puzzle, "none", whole_line), puzzle
    assert min(sides) <= 63 and any(64 <= s <= 127 for s in sides) and max(sides) > 127
