"""The complete line solver: every forced cell and every contradiction of one line.

A pure function of (clue, partial line).  Cells use the state masks of
:mod:`nonolab.core.grid` (EMPTY=1, FILLED=2, UNKNOWN=3).  The dynamic programme is
the prefix/suffix reachability formulation of Wu et al. (2013), restricted to each
block's feasible start range ``[lo_b, lo_b + slack]``, so one call costs
O(n + k * (slack + 1)).  It is written as plain loops over flat arrays so that it can
be compiled later without changing its shape.

>>> solve_line((3,), bytes([3, 3, 3, 3]))
b'\\x03\\x02\\x02\\x03'
>>> solve_line((2, 1), bytes([3, 3, 3, 3]))
b'\\x02\\x02\\x01\\x02'
"""

from __future__ import annotations

from itertools import accumulate

from nonolab.core.grid import EMPTY, FILLED
from nonolab.errors import Contradiction

Clue = tuple[int, ...]


def solve_line(clue: Clue, cells: bytes | bytearray) -> bytes:
    """The line narrowed to what every completion agrees on.

    Args:
        clue: block lengths, ``()`` for an empty line.
        cells: one state mask per cell (1 empty, 2 filled, 3 unknown).

    Returns:
        The new states: every cell that is the same in all arrangements consistent
        with ``cells`` is fixed, the others are ``UNKNOWN``.

    Raises:
        Contradiction: no arrangement of ``clue`` is consistent with ``cells``.
    """
    fixed = fix_line(clue, cells)
    if fixed is None:
        raise Contradiction(f"no arrangement of clue {clue} fits the line")
    return fixed


def fix_line(clue: Clue, cells: bytes | bytearray) -> bytes | None:
    """:func:`solve_line` with ``None`` for a contradiction (the hot path)."""
    n = len(cells)
    k = len(clue)
    if k == 0:
        return None if FILLED in cells or 0 in cells else bytes([EMPTY]) * n
    # known_white[i] / known_black[i]: how many of cells[0:i] are known empty / filled.
    known_white = list(accumulate(map(EMPTY.__eq__, cells), initial=0))
    known_black = list(accumulate(map(FILLED.__eq__, cells), initial=0))
    slack = n - sum(clue) - (k - 1)
    if slack < 0:
        return None
    lo = [0] * k  # earliest start of each block
    pos = 0
    for b in range(k):
        lo[b] = pos
        pos += clue[b] + 1
    # Gap j lies before block j (gap k after the last block).  Positions i in
    # [gap_lo[j], gap_hi[j]] are the only prefix lengths at which blocks 0..j-1 can
    # have ended; outside it both tables are False.
    gap_lo = [0] * (k + 1)
    gap_hi = [0] * (k + 1)
    for j in range(1, k + 1):
        gap_lo[j] = lo[j - 1] + clue[j - 1]
    for j in range(k):
        gap_hi[j] = lo[j] + slack
    gap_hi[k] = n

    # fwd[j][i]: cells[0:i] can hold exactly blocks 0..j-1, ending cleanly at i.
    fwd = [bytearray(n + 2) for _ in range(k + 1)]
    row = fwd[0]
    for i in range(0, gap_hi[0] + 1):
        if known_black[i]:
            break
        row[i] = 1
    for j in range(1, k + 1):
        length = clue[j - 1]
        prev = fwd[j - 1]
        row = fwd[j]
        last_start = lo[j - 1] + slack
        for i in range(gap_lo[j], gap_hi[j] + 1):
            if i > gap_lo[j] and row[i - 1] and cells[i - 1] & EMPTY:
                row[i] = 1
                continue
            s = i - length
            if s > last_start or known_white[i] != known_white[s]:
                continue
            if j == 1:
                if prev[s]:
                    row[i] = 1
            elif s >= 1 and cells[s - 1] & EMPTY and prev[s - 1]:
                row[i] = 1
    if not fwd[k][n]:
        return None

    # bwd[j][i]: cells[i:n] can hold exactly blocks j..k-1, starting cleanly at i.
    bwd = [bytearray(n + 2) for _ in range(k + 1)]
    row = bwd[k]
    total_black = known_black[n]
    for i in range(n, gap_lo[k] - 1, -1):
        if total_black - known_black[i]:
            break
        row[i] = 1
    for j in range(k - 1, -1, -1):
        length = clue[j]
        nxt = bwd[j + 1]
        row = bwd[j]
        first_start = lo[j]
        for i in range(gap_hi[j], gap_lo[j] - 1, -1):
            if i < gap_hi[j] and row[i + 1] and cells[i] & EMPTY:
                row[i] = 1
                continue
            if i < first_start:
                continue
            e = i + length
            if known_white[e] != known_white[i]:
                continue
            if j == k - 1:
                if nxt[e]:
                    row[i] = 1
            elif e < n and cells[e] & EMPTY and nxt[e + 1]:
                row[i] = 1

    out = bytearray(n)  # bit 0: may be white, bit 1: may be black
    for j in range(k + 1):
        f = fwd[j]
        g = bwd[j]
        for c in range(gap_lo[j], min(gap_hi[j], n)):
            if f[c] and g[c + 1] and cells[c] & EMPTY:
                out[c] = EMPTY
    # A valid start of block b paints cells [s, s+L); collect them as a difference array.
    diff = [0] * (n + 1)
    for b in range(k):
        length = clue[b]
        before = fwd[b]
        after = bwd[b + 1]
        for s in range(lo[b], lo[b] + slack + 1):
            e = s + length
            if known_white[e] != known_white[s]:
                continue
            if b == 0:
                if not before[s]:
                    continue
            elif not (cells[s - 1] & EMPTY and before[s - 1]):
                continue
            if b == k - 1:
                if not after[e]:
                    continue
            elif not (e < n and cells[e] & EMPTY and after[e + 1]):
                continue
            diff[s] += 1
            diff[e] -= 1
    covered = 0
    for c in range(n):
        covered += diff[c]
        if covered:
            out[c] |= FILLED
        elif not out[c]:
            return None
    return bytes(out)
