"""The enumerating line strategy: every placement of the line, intersected.

Placements are generated block by block, leftmost first, and only those that agree
with the known cells are kept (a block never covers a space nor touches a box; a
stretch a block skips over holds no box).  Each complete placement widens ``out``
to the values it gives every cell, so after all of them ``out`` is exactly what the
complete DP computes.  Two shortcuts keep the exact answer: once every unknown cell
has been seen both filled and empty nothing more can be learnt, so enumeration stops.

The cost is bounded by ``cap``: the number of block positions the enumeration may
try (every partial placement counts, so dead ends are paid for too).  Past the cap
the line is left as it is -- sound, but not complete -- unless it is fully decided,
which is checked against its clue directly, so contradictions there are never
missed.  Under its cap the strategy equals the DP; the strategy as a whole is
declared incomplete for that reason.

>>> from nonolab.solvers.native.strategies import fix_line_with
>>> fix_line_with("enumerate", (2, 1), bytes([3, 3, 3, 3]))[0]
b'\\x02\\x02\\x01\\x02'
"""

from __future__ import annotations

from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.line_rules import _matches_clue


@jit
def enumerate_fix(line, n, clue, c0, k, out, cap, pos, boxes_before, spaces_before):  # noqa: C901
    """Narrow ``line[0:n]`` by enumerating placements; 1 ok (``out`` set), 0 contradiction.

    ``pos`` (k entries) holds the current placement's starts; ``boxes_before`` and
    ``spaces_before`` (n+1) are prefix counts.  See the module docstring for ``cap``.
    """
    boxes_before[0] = 0
    spaces_before[0] = 0
    unknown = 0
    for i in range(n):
        v = line[i]
        boxes_before[i + 1] = boxes_before[i] + (1 if v == 2 else 0)
        spaces_before[i + 1] = spaces_before[i] + (1 if v == 1 else 0)
        unknown += 1 if v == 3 else 0
        out[i] = 0
    if k == 0:
        if boxes_before[n] > 0:
            return 0
        for i in range(n):
            out[i] = 1
        return 1
    tried = 0
    open_cells = unknown  # unknown cells not yet seen both filled and empty
    found = False
    b = 0
    pos[0] = 0
    while b >= 0:
        length = clue[c0 + b]
        s = pos[b]
        need = 0  # the cells blocks b..k-1 need, with a gap after each
        for j in range(b, k):
            need += clue[c0 + j] + 1
        prev_end = 0 if b == 0 else pos[b - 1] + clue[c0 + b - 1]
        # The stretch from the previous block to this start must hold no box: moving
        # further right only lengthens it, so a box there ends this block's choices.
        if s + need - 1 > n or boxes_before[s] - boxes_before[prev_end] > 0:
            b -= 1
            if b >= 0:
                pos[b] += 1
            continue
        if spaces_before[s + length] != spaces_before[s] or (s + length < n and line[s + length] == 2):
            pos[b] += 1
            continue
        tried += 1
        if tried > cap:
            for i in range(n):
                out[i] = line[i]
            if unknown == 0:  # a decided line is still checked: search relies on it
                return 1 if _matches_clue(line, n, clue, c0, k) else 0
            return 1
        if b < k - 1:
            b += 1
            pos[b] = s + length + 1
            continue
        if boxes_before[n] - boxes_before[s + length] == 0:  # a whole placement: widen out
            found = True
            cell = 0
            for j in range(k):
                while cell < pos[j]:
                    open_cells -= _widen(out, line, cell, 1)
                    cell += 1
                while cell < pos[j] + clue[c0 + j]:
                    open_cells -= _widen(out, line, cell, 2)
                    cell += 1
            while cell < n:
                open_cells -= _widen(out, line, cell, 1)
                cell += 1
            if open_cells == 0:  # every unknown cell can be both: the line is unchanged
                for i in range(n):
                    out[i] = line[i]
                return 1
        pos[b] += 1
    return 1 if found else 0


@jit
def _widen(out, line, cell, value):
    """Add ``value`` to what ``cell`` may be; 1 if an unknown cell just became open both ways."""
    before = out[cell]
    after = before | value
    out[cell] = after
    return 1 if after == 3 and before != 3 and line[cell] == 3 else 0
