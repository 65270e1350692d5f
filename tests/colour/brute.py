"""Brute force for colour puzzles, sharing no code with any backend: every line of a
clue by enumeration, and every picture by rows, pruned on column prefixes."""

from __future__ import annotations

import itertools
from functools import lru_cache

from nonolab.core import Puzzle, Solution


def runs(line) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for i, v in enumerate(line):
        if v and (i == 0 or line[i - 1] != v):
            out.append([1, v])
        elif v:
            out[-1][0] += 1
    return tuple((n, c) for n, c in out)


@lru_cache(maxsize=None)
def lines_of(blocks: tuple[tuple[int, int], ...], n: int, colours: int) -> tuple[tuple[int, ...], ...]:
    """Every line of ``n`` cells (values 0..colours) whose runs are ``blocks``."""
    return tuple(line for line in itertools.product(range(colours + 1), repeat=n) if runs(line) == blocks)


def _prefix_fits(prefix: list[int], blocks: tuple[tuple[int, int], ...], n: int) -> bool:
    got = runs(prefix)
    if len(got) > len(blocks):
        return False
    for k, (length, colour) in enumerate(got):
        want_n, want_c = blocks[k]
        if colour != want_c or length > want_n:
            return False
        if length < want_n and (k < len(got) - 1 or prefix[-1] != colour):
            return False   # a finished run must be whole
    left = n - len(prefix)
    rest = blocks[len(got):]
    need = sum(b for b, _ in rest) + sum(rest[i][1] == rest[i + 1][1] for i in range(len(rest) - 1))
    if got and prefix[-1] == got[-1][1]:
        need += blocks[len(got) - 1][0] - got[-1][0]
    return need <= left


def solutions(puzzle: Puzzle) -> set[Solution]:
    """Every picture of ``puzzle``, found row by row."""
    k, h, w = puzzle.colours, puzzle.height, puzzle.width
    options = [lines_of(blocks, w, k) for blocks in puzzle.coloured_rows]
    found: set[Solution] = set()
    grid: list[tuple[int, ...]] = []

    def place(r: int) -> None:
        if r == h:
            found.add(Solution.from_bytes(bytes(v for row in grid for v in row), w, colours=True)
                      if k > 1 else Solution(grid))
            return
        for row in options[r]:
            grid.append(row)
            if all(_prefix_fits([g[c] for g in grid], puzzle.coloured_columns[c], h) for c in range(w)):
                place(r + 1)
            grid.pop()

    place(0)
    return found
