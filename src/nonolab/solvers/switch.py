"""A second solution next to a first one: flip sets where every touched line moves one cell.

A *switch* is rows r1, r2 and columns c1, c2 whose four cells form a checkerboard
(filled at (r1, c1) and (r2, c2), empty at (r1, c2) and (r2, c1), or the other way);
flipping them changes each of the four lines in two cells, and the result is another
solution exactly when each of those lines still matches its clue.  More generally a
*cycle* of 2k cells, alternately filled and empty, where consecutive cells share a row
then a column: flipping it moves one filled cell in each of the k rows and k columns it
touches.  :func:`switch_solution` looks for such a cycle of at most ``rows`` rows
around a black-and-white solution; what it returns is a solution of the puzzle other
than ``solution`` (every touched line is checked, the others are unchanged), so a
count to 2 may stop there with "multiple".

It only reads the solution's lines: per line the *single moves* (one filled cell moves
to one empty cell and the clue still holds: a block slides by one cell, or a block of
one cell moves into a free stretch) are listed first, a few per line, and the cycles
are paths through them.

>>> from nonolab.core import Puzzle
>>> from nonolab.core.grid import Solution
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> switch_solution(p, Solution.from_rows(["#.", ".#"])).to_text()
'.#\\n#.'
"""

from __future__ import annotations

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations

__all__ = ["single_moves", "switch_solution"]


def _blocks(line: bytes) -> list[tuple[int, int]]:
    """The (start, length) of each run of filled cells."""
    out, start = [], -1
    for i, v in enumerate(line):
        if v and start < 0:
            start = i
        elif not v and start >= 0:
            out.append((start, i - start))
            start = -1
    if start >= 0:
        out.append((start, len(line) - start))
    return out


def single_moves(line: bytes) -> dict[int, list[int]]:
    """For each filled cell that can move alone, the empty cells it can move to with the
    line's runs (its clue) unchanged.

    >>> single_moves(bytes([1, 1, 0, 0]))
    {0: [2]}
    >>> single_moves(bytes([0, 1, 0, 0, 0]))
    {1: [0, 3, 4]}
    """
    n = len(line)
    blocks = _blocks(line)
    lengths = [length for _, length in blocks]
    moves: dict[int, list[int]] = {}
    for i, (s, length) in enumerate(blocks):
        e = s + length - 1
        if length > 1:
            # Only a slide by one keeps the runs: the first cell to just past the end
            # (the cell after that must stay empty), or the last to just before the start.
            if e + 1 < n and (e + 2 >= n or not line[e + 2]):
                moves.setdefault(s, []).append(e + 1)
            if s >= 1 and (s < 2 or not line[s - 2]):
                moves.setdefault(e, []).append(s - 1)
            continue
        # A block of one cell: any empty cell whose neighbours stay empty once it has
        # left, if the runs read the same afterwards (it may pass other blocks of one).
        rest = lengths[:i] + lengths[i + 1:]
        starts = [b for j, (b, _) in enumerate(blocks) if j != i]
        for b in range(n):
            if line[b] or (b >= 1 and b - 1 != s and line[b - 1]) or (b + 1 < n and b + 1 != s and line[b + 1]):
                continue
            at = sum(1 for x in starts if x < b)
            if rest[:at] + [1] + rest[at:] == lengths:
                moves.setdefault(s, []).append(b)
    return moves


def switch_solution(puzzle: Puzzle, solution: Solution, rows: int = 3) -> Solution | None:
    """Another solution of black-and-white ``puzzle``, flipping a cycle of at most ``rows``
    rows (and as many columns) of ``solution``; ``None`` when there is none that small.

    Args:
        puzzle: the puzzle ``solution`` solves.
        solution: a solution of it.
        rows: the most rows the cycle touches (2: the 2x2 switches only).
    """
    h, w = solution.height, solution.width
    data = bytearray(solution[r][c] for r in range(h) for c in range(w))
    row_moves = [single_moves(bytes(data[r * w:(r + 1) * w])) for r in range(h)]
    # Per column, the other way round: for each empty cell, the filled cells that can move onto it.
    onto: list[dict[int, list[int]]] = []
    for c in range(w):
        back: dict[int, list[int]] = {}
        for source, targets in single_moves(bytes(data[c::w])).items():
            for target in targets:
                back.setdefault(target, []).append(source)
        onto.append(back)
    for r1 in range(h):
        for a1, targets in row_moves[r1].items():
            cycle = _cycle(r1, a1, targets, row_moves, onto, rows)
            if cycle is None:
                continue
            for r, c in cycle:
                data[r * w + c] ^= 1
            candidate = Solution.from_bytes(bytes(data), w)
            if not violations(puzzle, candidate):
                return candidate
            for r, c in cycle:   # (cannot happen: every touched line was checked)
                data[r * w + c] ^= 1
    return None


def _cycle(r1: int, a1: int, targets: list[int], row_moves: list[dict[int, list[int]]],
           onto: list[dict[int, list[int]]], rows: int) -> list[tuple[int, int]] | None:
    """The cells of a cycle that starts with row r1 moving its filled cell a1 to one of
    ``targets``, or None.  Row r moves b to b2; column b2 then moves a filled cell of row
    r2 onto (r, b2); row r2 moves b2 on, and so on, until a row moves onto column a1 and
    column a1 can move (r1, a1) onto that row."""
    def walk(r: int, b: int, used_rows: frozenset, used_cols: frozenset, cells: list) -> list | None:
        for r2 in onto[b].get(r, ()):
            if r2 in used_rows:
                continue
            for b2 in row_moves[r2].get(b, ()):
                step = cells + [(r2, b), (r2, b2)]
                if b2 == a1:
                    if r1 in onto[a1].get(r2, ()):
                        return step
                elif len(used_rows) < rows - 1 and b2 not in used_cols:
                    found = walk(r2, b2, used_rows | {r2}, used_cols | {b2}, step)
                    if found is not None:
                        return found
        return None

    for b1 in targets:
        found = walk(r1, b1, frozenset({r1}), frozenset({a1, b1}), [(r1, a1), (r1, b1)])
        if found is not None:
            return found
    return None
