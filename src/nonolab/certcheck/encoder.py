"""A second, deliberately plain encoder of the regular line CNF, sharing no code with the solvers.

It follows the documented encoding (``models/cnf.md``) from the clues alone, but builds
it another way: the automaton of a clue is written out as a list of transitions, and the
states kept at each step are found by searching it forwards from the start and backwards
from the end (the solvers' encoder uses a closed form for them).  Variables are numbered
as the document says: cells first (cell (r, c) is ``r * width + c + 1``), then each line's
state and transition variables in order of first use (rows top to bottom, then columns;
per line the initial state, the final state, then per step and per transition its
transition variable, its source state, its target state).  The checker compares the
clauses as a multiset, so clause order and literal order are free.

>>> sorted(map(sorted, line_clauses((1,), [1, 2], first=3)[0]))[:3]
[[-10, -2], [-10, 4], [-10, 6]]
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["line_clauses", "puzzle_clauses"]


def _automaton(clue: Sequence[int]) -> tuple[list[tuple[int, int, int]], int]:
    """Every transition ``(state, value, next state)`` of the clue's automaton, each state's
    advance before its stay, and the accepting state.  State ``s`` has read ``s`` symbols of
    the pattern ``1^L1 0 1^L2 ... 0 1^Lk``; a 0 may repeat at the start, in each gap and at
    the end."""
    pattern: list[int] = []
    loops = {0}
    for j, length in enumerate(clue):
        if j > 0:
            pattern.append(0)
            loops.add(len(pattern))
        pattern += [1] * length
    loops.add(len(pattern))
    moves = []
    for state in range(len(pattern) + 1):
        if state < len(pattern):
            moves.append((state, pattern[state], state + 1))
        if state in loops:
            moves.append((state, 0, state))
    return moves, len(pattern)


def _kept_states(moves: list[tuple[int, int, int]], final: int, n: int) -> list[set[int]]:
    """The states at each step 0..n that the start reaches and that still reach the end."""
    out: dict[int, list[int]] = {}
    into: dict[int, list[int]] = {}
    for s, _, t in moves:
        out.setdefault(s, []).append(t)
        into.setdefault(t, []).append(s)
    ahead = [{0}]
    for _ in range(n):
        ahead.append({t for s in ahead[-1] for t in out.get(s, ())})
    behind = [{final}]
    for _ in range(n):
        behind.append({s for t in behind[-1] for s in into.get(t, ())})
    behind.reverse()
    return [ahead[i] & behind[i] for i in range(n + 1)]


def line_clauses(clue: Sequence[int], cells: Sequence[int], first: int) -> tuple[list[list[int]], int]:
    """The clauses of one line (its cells' variables ``cells``), its own variables numbered
    from ``first``; returns the clauses and the next free variable."""
    if not clue:
        return [[-x] for x in cells], first
    n = len(cells)
    moves, final = _automaton(clue)
    kept = _kept_states(moves, final, n)
    numbers: dict[tuple, int] = {}

    def var(*key: object) -> int:
        if key not in numbers:
            numbers[key] = first + len(numbers)
        return numbers[key]

    leaving: dict[int, list[tuple[int, int, int]]] = {}
    for move in moves:
        leaving.setdefault(move[0], []).append(move)
    steps = [[(s, v, t) for s in sorted(kept[i]) for _, v, t in leaving[s] if t in kept[i + 1]] for i in range(n)]
    clauses: list[list[int]] = [[var("q", 0, 0)], [var("q", n, final)]]
    for i, step in enumerate(steps):
        for s, v, t in step:
            taken = var("t", i, s, v)
            clauses += [[-taken, var("q", i, s)], [-taken, cells[i] if v else -cells[i]], [-taken, var("q", i + 1, t)]]
    for i, step in enumerate(steps):  # a state is entered by a kept transition
        for t in sorted(kept[i + 1]):
            clauses.append([-var("q", i + 1, t)] + [var("t", i, s, v) for s, v, u in step if u == t])
    for i, step in enumerate(steps):  # a state is left by a kept transition
        for s in sorted(kept[i]):
            clauses.append([-var("q", i, s)] + [var("t", i, r, v) for r, v, _ in step if r == s])
    for i, step in enumerate(steps):  # a cell's value is read by a kept transition
        clauses.append([cells[i]] + [var("t", i, s, v) for s, v, _ in step if v == 0])
        clauses.append([-cells[i]] + [var("t", i, s, v) for s, v, _ in step if v == 1])
    return clauses, first + len(numbers)


def puzzle_clauses(rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]]) -> tuple[list[list[int]], int]:
    """Every line's clauses, rows then columns; returns them and the number of variables.

    >>> clauses, variables = puzzle_clauses([(1,)], [(1,)])
    >>> len(clauses), variables
    (18, 7)
    """
    width, height = len(columns), len(rows)
    lines = [(clue, [r * width + c + 1 for c in range(width)]) for r, clue in enumerate(rows)]
    lines += [(clue, [r * width + c + 1 for r in range(height)]) for c, clue in enumerate(columns)]
    out: list[list[int]] = []
    top = width * height + 1
    for clue, cells in lines:
        found, top = line_clauses(clue, cells, top)
        out += found
    return out, top - 1
