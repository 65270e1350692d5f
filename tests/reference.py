"""Independent, deliberately naive oracles for the tests: enumeration, no cleverness.

Nothing here may import a solver of nonolab; only the model (Puzzle, clues_of).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from nonolab.core.violations import clues_of

EMPTY, FILLED = 1, 2


@lru_cache(maxsize=None)
def placements(clue: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Every 0/1 line of length n whose runs are exactly ``clue`` (by enumerating 2^n)."""
    return tuple(bits for bits in itertools.product((0, 1), repeat=n) if clues_of(bits) == clue)


def brute_line(clue: tuple[int, ...], cells: bytes) -> bytes | None:
    """What every completion of ``cells`` with runs ``clue`` agrees on; None if none."""
    may_white = [0] * len(cells)
    may_black = [0] * len(cells)
    found = False
    for bits in placements(tuple(clue), len(cells)):
        if all((c & FILLED) if b else (c & EMPTY) for b, c in zip(bits, cells)):
            found = True
            for i, b in enumerate(bits):
                if b:
                    may_black[i] = 1
                else:
                    may_white[i] = 1
    if not found:
        return None
    return bytes(w | (b << 1) for w, b in zip(may_white, may_black))


def count_by_rows(rows, columns) -> int:
    """Solutions counted as products of row placements filtered by the column clues."""
    width = len(columns)
    options = [placements(tuple(r), width) for r in rows]
    total = 0
    for choice in itertools.product(*options):
        if all(clues_of(col) == tuple(columns[c]) for c, col in enumerate(zip(*choice))):
            total += 1
    return total


def n_dom(n: int):
    """Rows and columns of the N-Dom family (webpbn's 9-Dom is n = 9), size (2n+1)^2.

    Unique, and hard for DPLL-style search.
    """
    size = 2 * n + 1
    rows = [(3,)] + [(1,) if i % 2 else (3, 1) for i in range(1, size - 1)] + [(1,)]
    cols = [(1,), (1,)] + [(1, 3) if c % 2 == 0 else (1,) for c in range(2, size - 1)] + [(3,)]
    return tuple(rows), tuple(cols)


def truth_tables(n: int):
    """Brute force's answer for every clue of length-n lines against every partial line.

    Yields ``(clue, cells, expected)``: ``expected`` is the narrowed line (state masks
    1 empty, 2 filled, 3 unknown) or ``None`` when no arrangement fits.
    """
    full = 1 << n
    clue_of_line = [clues_of((f >> i) & 1 for i in range(n)) for f in range(full)]
    clues = sorted(set(clue_of_line))
    index = {c: i for i, c in enumerate(clues)}
    line_clue = [index[c] for c in clue_of_line]
    for states in itertools.product((1, 2, 3), repeat=n):
        known_black = sum(1 << i for i, s in enumerate(states) if s == 2)
        unknown = sum(1 << i for i, s in enumerate(states) if s == 3)
        may_black = [0] * len(clues)
        may_white = [0] * len(clues)
        seen = [False] * len(clues)
        sub = unknown
        while True:
            f = known_black | sub
            ci = line_clue[f]
            seen[ci] = True
            may_black[ci] |= f
            may_white[ci] |= ~f & (full - 1)
            if sub == 0:
                break
            sub = (sub - 1) & unknown
        for ci, clue in enumerate(clues):
            expected = None
            if seen[ci]:
                expected = bytes(((may_white[ci] >> i) & 1) | (((may_black[ci] >> i) & 1) << 1) for i in range(n))
            yield clue, bytes(states), expected


def reference_violations(puzzle, solution) -> list[str]:
    """nonolab's check of a solution as plain Python, line by line: what the compiled
    checker (``nonolab.core._check``, behind :func:`nonolab.core.violations`) must say,
    message for message (the check before it was compiled, kept as the oracle)."""
    from nonolab.core.violations import colour_runs_of

    def shown(blocks):
        return "(" + " ".join(f"{n}c{c}" for n, c in blocks) + ")"

    if solution.height != puzzle.height or solution.width != puzzle.width:
        return [f"size: expected {puzzle.width}x{puzzle.height}, got {solution.width}x{solution.height}"]
    data, w = solution.to_bytes(), solution.width
    problems = [f"given cell ({r + 1},{c + 1}): expected {v}, got {data[r * w + c]}"
                for r, c, v in puzzle.givens if data[r * w + c] != v]
    if puzzle.is_colour:
        top = len(puzzle.palette) - 1
        if solution.colours > top:
            return problems + [f"cell value {solution.colours} is not a colour of the {top}-colour palette"]
        for kind, lines, get in (("row", puzzle.coloured_rows, solution.row_bytes),
                                 ("column", puzzle.coloured_columns, solution.column_bytes)):
            for i, blocks in enumerate(lines):
                got = colour_runs_of(list(get(i)))     # the cell-by-cell loop
                if got != blocks:
                    problems.append(f"{kind} {i + 1}: expected {shown(blocks)}, got {shown(got)}")
        return problems
    if any(v not in (0, 1) for v in data):
        return [f"cell value {solution.colours}: a black-and-white picture has 0 and 1 only"]
    for kind, clues, get in (("row", puzzle.rows, solution.row_bytes), ("column", puzzle.columns, solution.column_bytes)):
        for i, clue in enumerate(clues):
            got = clues_of(list(get(i)))               # the cell-by-cell loop
            if got != tuple(clue):
                problems.append(f"{kind} {i + 1}: expected {tuple(clue)}, got {got}")
    return problems
