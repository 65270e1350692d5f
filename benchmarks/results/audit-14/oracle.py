"""audit-14's own brute force: every solution of a small puzzle, independent of nonolab and of
tests/wall/brute.py (which enumerates every line of values**n and keeps column prefixes).

Here rows are placed from their clues (block by block), and each column is followed by a
deterministic automaton of its clue, advanced one row at a time, with a bound on the cells
it still needs.  Clues are ((length, colour), ...); 0 is the background.
"""

from __future__ import annotations


class TooBig(Exception):
    pass


def runs(line):
    out, prev = [], 0
    for v in line:
        if v and v == prev:
            out[-1] = (out[-1][0] + 1, v)
        elif v:
            out.append((1, v))
        prev = v
    return tuple(out)


def lines(clue, n):
    """Every line of n cells with exactly these blocks."""
    out = []

    def place(i, pos, acc):
        if i == len(clue):
            out.append(tuple(acc + [0] * (n - len(acc))))
            return
        length, colour = clue[i]
        rest = sum(l for l, _ in clue[i + 1:]) + sum(
            1 for j in range(i + 1, len(clue)) if clue[j][1] == clue[j - 1][1])
        start_min = pos
        if i and clue[i - 1][1] == colour:
            start_min = pos + 1
        for start in range(start_min, n - length - rest + 1):
            place(i + 1, start + length, acc + [0] * (start - len(acc)) + [colour] * length)

    place(0, 0, [])
    return out


class Column:
    """A clue's automaton: state (i, k): block i, k cells of it placed (k == len: just ended)."""

    def __init__(self, clue):
        self.clue = clue
        n = len(clue)
        # cells still needed from (i, k)
        self.tail = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            gap = 1 if i + 1 < n and clue[i + 1][1] == clue[i][1] else 0
            self.tail[i] = clue[i][0] + gap + self.tail[i + 1]

    def start(self):
        return (0, 0)

    def step(self, state, v):
        i, k = state
        clue = self.clue
        n = len(clue)
        if i == n:
            return state if v == 0 else None
        length, colour = clue[i]
        if 0 < k < length:
            return (i, k + 1) if v == colour else None
        if k == length:
            if v == 0:
                return (i + 1, 0)
            if i + 1 < n and v == clue[i + 1][1] and v != colour:
                return (i + 1, 1)
            return None
        # k == 0, waiting for block i
        if v == 0:
            return state
        return (i, 1) if v == colour else None

    def needed(self, state):
        i, k = state
        n = len(self.clue)
        if i == n:
            return 0
        return self.tail[i] - k

    def accepts(self, state):
        i, k = state
        n = len(self.clue)
        return i == n or (i == n - 1 and k == self.clue[i][0])


def solutions(rows, columns, givens=None, limit=None, budget=2_000_000):
    """Up to ``limit`` solutions (set of tuples of row tuples); TooBig past ``budget`` nodes."""
    h, w = len(rows), len(columns)
    givens = givens or {}
    options = []
    for r, clue in enumerate(rows):
        opts = [line for line in lines(clue, w) if all(line[c] == v for (rr, c), v in givens.items() if rr == r)]
        options.append(opts)
    cols = [Column(c) for c in columns]
    found = []
    nodes = [0]

    def place(r, states, grid):
        if r == h:
            if all(col.accepts(s) for col, s in zip(cols, states)):
                found.append(tuple(grid))
                return limit is None or len(found) < limit
            return True
        left = h - r - 1
        for line in options[r]:
            nodes[0] += 1
            if nodes[0] > budget:
                raise TooBig()
            new = []
            for col, s, v in zip(cols, states, line):
                t = col.step(s, v)
                if t is None or col.needed(t) > left:
                    break
                new.append(t)
            else:
                grid.append(line)
                go = place(r + 1, new, grid)
                grid.pop()
                if not go:
                    return False
        return True

    place(0, [c.start() for c in cols], [])
    return found


def fits(picture, rows, columns, givens=None):
    if len(picture) != len(rows) or any(len(p) != len(columns) for p in picture):
        return False
    return (all(runs(line) == tuple(c) for line, c in zip(picture, rows))
            and all(runs([p[c] for p in picture]) == tuple(cl) for c, cl in enumerate(columns))
            and all(picture[r][c] == v for (r, c), v in (givens or {}).items()))
