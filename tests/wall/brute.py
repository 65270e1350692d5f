"""The wall's oracle: every solution of a small puzzle by plain enumeration.

It imports nothing of nonolab (it reads a puzzle as plain clue tuples), so a bug in the
model, the checker (``core.violations``) or any solver cannot reach it: its runs are
found by its own :func:`runs`, its lines by trying every one of ``values ** n``, and
its grids row by row, a row kept only when every column so far is the prefix of a line
that fits the column's clue.

>>> sorted(solutions([((1, 1),), ((1, 1),)], [((1, 1),), ((1, 1),)], values=2))
[((0, 1), (1, 0)), ((1, 0), (0, 1))]
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Mapping, Sequence

Clue = tuple[tuple[int, int], ...]          # (length, colour) per block, colours 1..values-1
Picture = tuple[tuple[int, ...], ...]       # rows of values, 0 the background


def runs(line: Sequence[int]) -> Clue:
    """The blocks of a line: each maximal run of one non-background value.

    >>> runs((0, 2, 2, 1, 0, 1))
    ((2, 2), (1, 1), (1, 1))
    """
    out: list[tuple[int, int]] = []
    previous = 0
    for v in line:
        if v and v == previous:
            out[-1] = (out[-1][0] + 1, v)
        elif v:
            out.append((1, v))
        previous = v
    return tuple(out)


@lru_cache(maxsize=None)
def _all_lines(n: int, values: int) -> dict[Clue, tuple[tuple[int, ...], ...]]:
    by_clue: dict[Clue, list[tuple[int, ...]]] = {}
    for line in itertools.product(range(values), repeat=n):
        by_clue.setdefault(runs(line), []).append(line)
    return {clue: tuple(lines) for clue, lines in by_clue.items()}


def lines_of(clue: Clue, n: int, values: int) -> tuple[tuple[int, ...], ...]:
    """Every line of ``n`` cells (values ``0..values-1``) whose blocks are ``clue``."""
    return _all_lines(n, values).get(tuple(clue), ())


@lru_cache(maxsize=4096)
def _prefixes(clue: Clue, n: int, values: int) -> frozenset[tuple[int, ...]]:
    return frozenset(line[:i] for line in lines_of(clue, n, values) for i in range(n + 1))


def solutions(rows: Sequence[Clue], columns: Sequence[Clue], values: int,
              givens: Mapping[tuple[int, int], int] | None = None, limit: int | None = None) -> set[Picture]:
    """Every picture whose rows and columns have exactly these blocks and that agrees with
    ``givens`` (``(row, column) -> value``); at most ``limit`` of them (None: all).

    ``values`` counts the background: 2 for black and white (block colour 1)."""
    h, w = len(rows), len(columns)
    givens = dict(givens or {})
    options = [[line for line in lines_of(tuple(clue), w, values)
                if all(line[c] == v for (r2, c), v in givens.items() if r2 == r)]
               for r, clue in enumerate(rows)]
    prefixes = [_prefixes(tuple(clue), h, values) for clue in columns]
    found: set[Picture] = set()
    grid: list[tuple[int, ...]] = []

    def place(r: int) -> bool:
        """False once ``limit`` pictures are found."""
        if r == h:
            found.add(tuple(grid))
            return limit is None or len(found) < limit
        for row in options[r]:
            grid.append(row)
            if all(tuple(g[c] for g in grid) in prefixes[c] for c in range(w)) and not place(r + 1):
                grid.pop()
                return False
            grid.pop()
        return True

    if h and w:
        place(0)
    return found


def fits(picture: Picture, rows: Sequence[Clue], columns: Sequence[Clue],
         givens: Mapping[tuple[int, int], int] | None = None) -> bool:
    """Whether ``picture`` has exactly these blocks in every row and column and agrees
    with ``givens`` (how a solution is judged when there are too many to list).

    >>> fits(((0, 1), (1, 0)), [((1, 1),), ((1, 1),)], [((1, 1),), ((1, 1),)], {(0, 0): 1})
    False
    """
    if len(picture) != len(rows) or any(len(line) != len(columns) for line in picture):
        return False
    return (all(runs(line) == tuple(clue) for line, clue in zip(picture, rows))
            and all(runs([line[c] for line in picture]) == tuple(clue) for c, clue in enumerate(columns))
            and all(picture[r][c] == v for (r, c), v in (givens or {}).items()))
