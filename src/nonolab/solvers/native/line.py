"""The complete line solver: every forced cell and every contradiction of one line.

A pure function of (clue, partial line).  Cells use the state masks of
:mod:`nonolab.core.grid` (EMPTY=1, FILLED=2, UNKNOWN=3).  The dynamic programme is
the prefix/suffix reachability formulation of Wu et al. (2013), restricted to each
block's feasible start range ``[lo_b, lo_b + slack]``: one call costs
O(n + k * (slack + 1)).  :func:`line_fix` is the compiled kernel the engine calls
with its own work arrays; :func:`solve_line` and :func:`fix_line` wrap it for one
line at a time.

>>> solve_line((3,), bytes([3, 3, 3, 3]))
b'\\x03\\x02\\x02\\x03'
>>> solve_line((2, 1), bytes([3, 3, 3, 3]))
b'\\x02\\x02\\x01\\x02'
"""

from __future__ import annotations

import numpy as np

from nonolab.errors import Contradiction
from nonolab.solvers.native.bundles import LineWork
from nonolab.solvers.native.jit import jit

Clue = tuple[int, ...]


@jit
def blank_fix(n, clue, c0, k, out, win_lo, win_hi, update):
    """:func:`line_fix` on a line of ``n`` unknown cells and ``k >= 1`` blocks, without the DP.

    A cell is filled in every arrangement exactly where block ``b`` at its leftmost
    start (the blocks packed to the left) overlaps itself shifted by the slack; with
    no slack every other cell is empty.  Every start in between is valid, so with
    ``update`` the windows become those ranges: the DP's answer, cell for cell and
    window for window.
    """
    need = k - 1
    for b in range(k):
        need += clue[c0 + b]
    slack = n - need
    if slack < 0:
        return 0
    fill = 1 if slack == 0 else 3
    for i in range(n):
        out[i] = fill
    start = 0
    for b in range(k):
        length = clue[c0 + b]
        for i in range(start + slack, start + length):
            out[i] = 2
        if update:
            win_lo[c0 + b] = start
            win_hi[c0 + b] = start + slack
        start += length + 1
    return 1


@jit
def line_fix(line, n, clue, c0, k, out, work, win_lo, win_hi, update):  # noqa: C901
    """Narrow ``line[0:n]`` for the clue ``clue[c0:c0+k]`` into ``out[0:n]``.

    Returns 1 when the line has an arrangement (``out`` then holds, per cell, the
    set of values some arrangement gives it) and 0 for a contradiction.

    Block ``b`` may only start in ``[win_lo[c0+b], win_hi[c0+b]]``: any superset of
    its valid starts gives the same answer, so callers pass the static ranges
    ``[lo_b, lo_b + slack]`` (:func:`static_windows`) or ranges an earlier solve of a
    wider state of the same line found.  With ``update`` set, the windows are
    narrowed to this solve's valid starts, which makes later solves of the line
    cheaper as it fills.  ``work`` is a :class:`~nonolab.solvers.native.bundles.LineWork`
    whose ``kw``/``kb``/``diff`` have n+1 entries, ``off``/``glo`` k+2 and
    ``fwd``/``bwd`` :func:`table_size`.
    """
    kw, kb, off, glo, fwd, bwd, diff = work.kw, work.kb, work.off, work.glo, work.fwd, work.bwd, work.diff
    # kw[i] / kb[i]: how many of line[0:i] are known empty / known filled.
    kw[0] = 0
    kb[0] = 0
    for i in range(n):
        v = line[i]
        kw[i + 1] = kw[i] + (1 if v == 1 else 0)
        kb[i + 1] = kb[i] + (1 if v == 2 else 0)
    if k == 0:
        if kb[n] > 0:
            return 0
        for i in range(n):
            out[i] = 1
        return 1
    if kw[n] == 0 and kb[n] == 0:  # all unknown (each line's first solve): the answer in closed form
        return blank_fix(n, clue, c0, k, out, win_lo, win_hi, update)
    # Gap j lies before block j (gap k after the last one).  Blocks 0..j-1 can only
    # have ended at prefix lengths i in [glo[j], ghi(j)], ghi(j) being block j's
    # latest start (n for the last gap); row j of the tables starts at off[j].
    glo[0] = 0
    for j in range(1, k + 1):
        glo[j] = win_lo[c0 + j - 1] + clue[c0 + j - 1]
    off[0] = 0
    for j in range(k + 1):
        ghi = n if j == k else win_hi[c0 + j]
        length = ghi - glo[j] + 1
        if length < 0:
            return 0
        off[j + 1] = off[j] + length
    for idx in range(off[k + 1]):
        fwd[idx] = 0
        bwd[idx] = 0

    # Forward: F(j, i) = line[0:i] can hold exactly blocks 0..j-1, ending cleanly at i.
    for i in range(0, win_hi[c0] + 1):
        if kb[i] > 0:
            break
        fwd[i] = 1
    for j in range(1, k + 1):
        length = clue[c0 + j - 1]
        g = glo[j]
        ghi = n if j == k else win_hi[c0 + j]
        last_start = win_hi[c0 + j - 1]
        row = off[j]
        prev = off[j - 1]
        pg = glo[j - 1]
        for i in range(g, ghi + 1):
            if i > g and fwd[row + i - 1 - g] == 1 and (line[i - 1] & 1) != 0:
                fwd[row + i - g] = 1
                continue
            s = i - length
            if s > last_start or kw[i] != kw[s]:
                continue
            if j == 1:
                if fwd[s] == 1:
                    fwd[row + i - g] = 1
            elif s - 1 >= pg and (line[s - 1] & 1) != 0 and fwd[prev + s - 1 - pg] == 1:
                fwd[row + i - g] = 1
    if fwd[off[k] + n - glo[k]] == 0:
        return 0

    # Backward: B(j, i) = line[i:n] can hold exactly blocks j..k-1, starting cleanly at i.
    row = off[k]
    g = glo[k]
    for i in range(n, g - 1, -1):
        if kb[n] - kb[i] > 0:
            break
        bwd[row + i - g] = 1
    for j in range(k - 1, -1, -1):
        length = clue[c0 + j]
        g = glo[j]
        ghi = win_hi[c0 + j]
        row = off[j]
        nxt = off[j + 1]
        ng = glo[j + 1]
        nhi = n if j + 1 == k else win_hi[c0 + j + 1]
        first = win_lo[c0 + j]
        for i in range(ghi, g - 1, -1):
            if i < ghi and bwd[row + i + 1 - g] == 1 and (line[i] & 1) != 0:
                bwd[row + i - g] = 1
                continue
            if i < first:
                continue
            e = i + length
            if kw[e] != kw[i]:
                continue
            if j == k - 1:
                if bwd[nxt + e - ng] == 1:
                    bwd[row + i - g] = 1
            elif e < n and e + 1 <= nhi and (line[e] & 1) != 0 and bwd[nxt + e + 1 - ng] == 1:
                bwd[row + i - g] = 1

    for c in range(n):
        out[c] = 0
    # May be white: some gap j covers cell c with both sides feasible.
    for j in range(k + 1):
        g = glo[j]
        ghi = n if j == k else win_hi[c0 + j]
        row = off[j]
        for c in range(g, min(ghi, n)):
            if fwd[row + c - g] == 1 and bwd[row + c + 1 - g] == 1 and (line[c] & 1) != 0:
                out[c] = 1
    # May be black: some valid start of some block covers cell c.
    for c in range(n + 1):
        diff[c] = 0
    for b in range(k):
        length = clue[c0 + b]
        first_valid = -1
        last_valid = -1
        for s in range(win_lo[c0 + b], win_hi[c0 + b] + 1):
            e = s + length
            if kw[e] != kw[s]:
                continue
            if b == 0:
                if fwd[s] == 0:
                    continue
            elif not (s - 1 >= glo[b] and (line[s - 1] & 1) != 0 and fwd[off[b] + s - 1 - glo[b]] == 1):
                continue
            if b == k - 1:
                if bwd[off[k] + e - glo[k]] == 0:
                    continue
            elif not (e < n and (line[e] & 1) != 0 and bwd[off[b + 1] + e + 1 - glo[b + 1]] == 1):
                continue
            diff[s] += 1
            diff[e] -= 1
            if first_valid < 0:
                first_valid = s
            last_valid = s
        if first_valid < 0:
            return 0
        if update:
            win_lo[c0 + b] = first_valid
            win_hi[c0 + b] = last_valid
    covered = 0
    for c in range(n):
        covered += diff[c]
        if covered > 0:
            out[c] |= 2
        elif out[c] == 0:
            return 0
    return 1


def static_windows(clue_data, line_start, lengths):
    """Every block's static start range ``[lo_b, lo_b + slack]``, indexed like ``clue_data``."""
    data = np.asarray(clue_data, np.int64)
    starts = np.asarray(line_start, np.int64)
    size = max(len(data), 1)
    if len(data) == 0:
        return np.zeros(size, np.int32), np.zeros(size, np.int32)
    counts = np.diff(starts)
    owner = np.repeat(np.arange(len(counts)), counts)  # the line of each block
    # lo_b = (sum of the earlier blocks of its line) + (their number): a prefix sum restarted per line.
    step = data + 1
    before = np.cumsum(step) - step
    lo = before - np.append(before, 0)[starts[:-1]][owner]
    totals = np.add.reduceat(step, starts[:-1][counts > 0]) - 1
    slack_of_line = np.zeros(len(counts), np.int64)
    slack_of_line[counts > 0] = np.asarray(lengths, np.int64)[counts > 0] - totals
    hi = lo + slack_of_line[owner]
    return lo.astype(np.int32), hi.astype(np.int32)


def table_size(clues, length: int) -> int:
    """Entries ``fwd``/``bwd`` need for these clues on lines of ``length`` cells."""
    need = 1
    for clue in clues:
        slack = length - sum(clue) - max(len(clue) - 1, 0)
        need = max(need, (len(clue) + 1) * (max(slack, 0) + 2))
    return need


def dp_work(n: int, k: int, table: int) -> LineWork:
    """Work arrays for :func:`line_fix` alone, on lines up to ``n`` cells and ``k`` blocks
    (``table``: :func:`table_size`); the line strategies' arrays are left empty."""
    unused = np.empty(0, np.uint8)
    return LineWork(kw=np.empty(n + 1, np.int32), kb=np.empty(n + 1, np.int32), off=np.empty(k + 2, np.int32),
                    glo=np.empty(k + 2, np.int32), fwd=np.empty(table, np.uint8), bwd=np.empty(table, np.uint8),
                    diff=np.empty(n + 1, np.int32), params=np.empty(0, np.int64), labels=unused, scratch=unused)


def fix_line(clue: Clue, cells: bytes | bytearray) -> bytes | None:
    """:func:`solve_line` with ``None`` for a contradiction."""
    n = len(cells)
    k = len(clue)
    line = np.frombuffer(bytes(cells), dtype=np.uint8)
    clue_arr = np.array(clue if k else (0,), dtype=np.int32)
    size = table_size([clue], n)
    out = np.empty(max(n, 1), dtype=np.uint8)
    # One line's static windows, without the vectorised many-line version's overhead
    # (this wrapper is called millions of times by the exhaustive tests).
    slack = n - sum(clue) - max(k - 1, 0)
    if k and slack < 0:
        return None  # the clue does not fit
    win_lo = np.zeros(max(k, 1), dtype=np.int32)
    start = 0
    for b, length in enumerate(clue):
        win_lo[b] = start
        start += length + 1
    win_hi = win_lo + np.int32(slack if k else 0)
    ok = line_fix(line, n, clue_arr, 0, k, out, dp_work(n, k, size), win_lo, win_hi, False)
    return out[:n].tobytes() if ok else None


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
