"""Rule-based line strategies: simple overlap and chain ranges (the chain rules of block bounds).

Both work on per-block start bounds: ``lo[b]`` is a lower bound on where block
``b`` can start in any arrangement consistent with the line, and the same
computation on the reversed line gives an upper bound.  From the bounds:

* **simple overlap**: the cells between block ``b``'s latest start and its earliest
  end are filled in every arrangement;
* **clue exhaustion**: a cell that no block can reach is empty (the clue is used up
  on both sides of it);
* **block capping** (chain range only): a run of boxes as long as the longest block
  that could cover it is a complete block, so the cells at its two ends are empty.

The bounds come from the three reductions of the chain rules -- by a box on the right, by
neighbouring boxes and by spaces -- repeated until no bound moves.  The chain rules walk
the chains from the right and backtrack to a chain on the right when its left
neighbour pushes into it; every reduction only raises bounds, so any order reaches
the same fixpoint, and we sweep left to right (order, spaces, neighbours: pushing a
later chain is the chain rules' backtrack) and right to left (the box on the right) in
turn.  At the fixpoint the bounds *are* the leftmost arrangement when one exists:
each block sits off spaces and boxes, in order, and the box rule leaves no box in a
gap or after the last block; only a box before the first block can be uncovered,
and the mirrored pass then puts that block's upper bound below its lower one.

``overlap`` is the textbook left-right overlap: the leftmost and rightmost
arrangements, overlapped once (simple overlap and clue exhaustion).
``chain-range`` adds block capping and repeats everything until the line stops
changing (a capped end may move a bound), so it decides at least what overlap does.

Both are sound: every bound holds for every consistent arrangement, so no value
some arrangement allows is ever removed.  Neither is complete (the DP of
:mod:`~nonolab.solvers.native.line` fixes more), but both find every contradiction
on a fully decided line: such a line is checked against its clue at the end.

``labels[c]`` names the rule that decided cell ``c`` (0: unchanged), for the step
log (:mod:`~nonolab.solvers.native.labels`).

>>> import numpy as np
>>> from nonolab.solvers.native.strategies import fix_line_with
>>> fix_line_with("overlap", (3,), bytes([3, 3, 3, 3]))
(b'\\x03\\x02\\x02\\x03', (0, 1, 1, 0))
"""

from __future__ import annotations

from nonolab.solvers.native.jit import jit

# Labels of the cells a rule decided (also the step techniques, see labels.py).
UNCHANGED, SIMPLE_OVERLAP, BLOCK_CAPPING, CLUE_EXHAUSTION = 0, 1, 2, 3


@jit
def _cell(line, n, i, rev):
    return line[n - 1 - i] if rev else line[i]


@jit
def _length(clue, c0, k, b, rev):
    return clue[c0 + k - 1 - b] if rev else clue[c0 + b]


@jit
def _settle(line, n, rev, s, length, last_space):
    """The first start ``>= s`` that overlaps no space and touches no box."""
    while s + length <= n:
        q = last_space[s + length]
        if q >= s:  # reduce by spaces: jump past the last space under the block
            s = q + 1
        elif s > 0 and _cell(line, n, s - 1, rev) == 2:  # reduce by a neighbour box
            s += 1
        elif s + length < n and _cell(line, n, s + length, rev) == 2:
            s += 1
        else:
            break
    return s


@jit
def left_bounds(line, n, clue, c0, k, rev, lo, last_box, last_space):
    """Lower bounds on every block's start into ``lo[0:k]`` (in scan order); 0 if none fits.

    With ``rev`` the line and the clue are read backwards, which turns lower bounds
    into upper ones.
    """
    last_box[0] = -1
    last_space[0] = -1
    for i in range(n):  # the last box / space among the first i cells, in scan order
        v = _cell(line, n, i, rev)
        last_box[i + 1] = i if v == 2 else last_box[i]
        last_space[i + 1] = i if v == 1 else last_space[i]
    start = 0
    for b in range(k):
        lo[b] = start
        start += _length(clue, c0, k, b, rev) + 1
    while True:
        changed = False
        for b in range(k):  # left to right: order, spaces, neighbour boxes
            length = _length(clue, c0, k, b, rev)
            s = lo[b]
            if b > 0:
                s = max(s, lo[b - 1] + _length(clue, c0, k, b - 1, rev) + 1)
            s = _settle(line, n, rev, s, length, last_space)
            if s + length > n:
                return 0
            if s != lo[b]:
                lo[b] = s
                changed = True
        # Right to left: a box that no later block can reach (it lies before their
        # earliest starts) belongs to this block or an earlier one, so this block
        # ends at it or later.
        limit = n
        for b in range(k - 1, -1, -1):
            length = _length(clue, c0, k, b, rev)
            p = last_box[limit]
            if p >= 0 and p - length + 1 > lo[b]:
                lo[b] = p - length + 1
                changed = True
            limit = lo[b]
        if not changed:
            return 1


@jit
def _matches_clue(line, n, clue, c0, k):
    """Whether a fully decided line has exactly the runs of its clue."""
    b = 0
    run = 0
    for i in range(n + 1):
        if i < n and line[i] == 2:
            run += 1
        elif run > 0:
            if b >= k or clue[c0 + b] != run:
                return False
            b += 1
            run = 0
    return b == k


@jit
def _conclude(line, n, clue, c0, k, lo, hi, out, labels, cover):
    """Cells from the bounds ``lo``/``hi`` (forward coordinates): overlap and exhaustion.

    Writes ``out`` (the line narrowed) and the labels of the cells it decides;
    returns 0 on a contradiction (a box no block reaches, a space inside an overlap).
    """
    for c in range(n + 1):
        cover[c] = 0
    for b in range(k):
        if hi[b] < lo[b]:
            return 0
        cover[lo[b]] += 1  # block b may cover [lo, hi + length)
        cover[hi[b] + clue[c0 + b]] -= 1
    for c in range(n):
        out[c] = 0
    for b in range(k):
        for c in range(hi[b], lo[b] + clue[c0 + b]):  # covered wherever the block lies
            out[c] = 2
    reach = 0
    for c in range(n):
        reach += cover[c]
        allowed = 2 if out[c] == 2 else (3 if reach > 0 else 1)
        v = line[c] & allowed
        if v == 0:
            return 0
        out[c] = v
        if v != line[c] and labels[c] == UNCHANGED:
            labels[c] = SIMPLE_OVERLAP if v == 2 else CLUE_EXHAUSTION
    return 1


@jit
def _cap_runs(line, n, clue, c0, k, lo, hi, out, labels):
    """Block capping: empty both ends of a run of boxes that is a whole block; 0 on a contradiction."""
    a = 0
    while a < n:
        if line[a] != 2:
            a += 1
            continue
        e = a
        while e < n and line[e] == 2:
            e += 1
        longest = 0
        for b in range(k):  # the blocks that can cover the whole run
            length = clue[c0 + b]
            if length >= e - a and lo[b] <= a and hi[b] + length >= e:
                longest = max(longest, length)
        if longest == 0:
            return 0
        if longest == e - a:
            for c in (a - 1, e):
                if 0 <= c < n and out[c] == 3:
                    out[c] = 1
                    if labels[c] == UNCHANGED:
                        labels[c] = BLOCK_CAPPING
        a = e
    return 1


@jit
def _bounds(line, n, clue, c0, k, lo, hi, last_box, last_space):
    """Both bounds of every block, in forward coordinates; 0 if the line is contradictory."""
    if left_bounds(line, n, clue, c0, k, False, lo, last_box, last_space) == 0:
        return 0
    if left_bounds(line, n, clue, c0, k, True, hi, last_box, last_space) == 0:
        return 0
    # hi holds reversed lower bounds (block k-1-b first): turn them into forward starts.
    for b in range(k // 2):
        t = hi[b]
        hi[b] = hi[k - 1 - b]
        hi[k - 1 - b] = t
    for b in range(k):
        hi[b] = n - clue[c0 + b] - hi[b]
    return 1


@jit
def rule_fix(line, n, clue, c0, k, out, capping, labels, cur, lo, hi, last_box, last_space, cover):
    """Narrow ``line[0:n]`` by left-right overlap, or chain ranges (``capping`` set).

    Same contract as :func:`~nonolab.solvers.native.line.line_fix`: 1 with the
    narrowed line in ``out``, 0 for a contradiction.  Chain ranges repeat until the
    line stops changing (a cell a rule decides may move a bound); ``labels[c]``
    gets the rule that first decided cell ``c``.  ``cur`` is scratch of ``n`` cells.
    """
    for c in range(n):
        labels[c] = UNCHANGED
        cur[c] = line[c]
    if k == 0:
        for c in range(n):
            if line[c] == 2:
                return 0
            out[c] = 1
            if line[c] == 3:
                labels[c] = CLUE_EXHAUSTION
        return 1
    while True:
        if _bounds(cur, n, clue, c0, k, lo, hi, last_box, last_space) == 0:
            return 0
        if _conclude(cur, n, clue, c0, k, lo, hi, out, labels, cover) == 0:
            return 0
        if capping and _cap_runs(out, n, clue, c0, k, lo, hi, out, labels) == 0:
            return 0
        changed = False
        decided = True
        for c in range(n):
            if out[c] != cur[c]:
                changed = True
                cur[c] = out[c]
            if out[c] == 3:
                decided = False
        if decided:
            return 1 if _matches_clue(out, n, clue, c0, k) else 0
        if not (changed and capping):
            return 1
