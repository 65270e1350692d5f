"""Line strategies of the native engine: one registry, one compiled dispatch.

A line strategy is a pure function of (clue, partial line) with the contract of
:func:`~nonolab.solvers.native.line.line_fix`: narrow the line, or report a
contradiction.  Every strategy is *sound* (it never removes a value some
arrangement allows) and checks a fully decided line against its clue, so
propagation, probing and search stay exact with any of them; an incomplete one
just leaves more to search.

====================  ========  ===============================================
name                  complete  what it does
====================  ========  ===============================================
``dp``                yes       the reference DP (every forced cell, every contradiction)
``chain-range``       no        block ranges (chain rules): overlap, capping, repeated
``overlap``           no        leftmost and rightmost arrangements, overlapped once
``enumerate``         no        every placement intersected, up to a cap
====================  ========  ===============================================

``enumerate`` equals ``dp`` on every line whose enumeration stays under its cap and
leaves a longer one unchanged, so it is declared incomplete.  The strategy travels
to the compiled code in the ``params`` array of the work bundle
(:func:`line_work`), and :func:`strategy_fix` is the one place that
dispatches on it.

>>> line_strategy("chain-range").complete
False
>>> fix_line_with("dp", (1, 1), bytes([3, 3, 3]))[0]
b'\\x02\\x01\\x02'
"""

from __future__ import annotations

import numpy as np

from nonolab.errors import InvalidArgument
from nonolab.solvers.native.bundles import CAP, STRATEGY, LineWork
from nonolab.solvers.native.jit import jit
from nonolab.solvers.native.line import line_fix, static_windows, table_size
from nonolab.solvers.native.line_enumerate import enumerate_fix
from nonolab.solvers.native.line_rules import rule_fix
# The registry lives in modes.py (no numba there), re-exported here for the kernels and callers.
from nonolab.solvers.native.modes import (  # noqa: F401
    CHAIN_RANGE, DEFAULT_ENUMERATE_CAP, DP, ENUMERATE, N_STRATEGIES, OVERLAP, STRATEGIES, LineStrategy,
    line_strategy)


@jit
def strategy_fix(line, n, clue, c0, k, out, work, win_lo, win_hi, update):
    """Run the strategy named in ``work.params`` on one line (1 ok, 0 contradiction).

    The rule and enumerating strategies reuse the DP's work arrays for their own
    purposes (block bounds, placements, prefix counts), under their own names.
    """
    strategy = work.params[STRATEGY]
    if strategy == CHAIN_RANGE or strategy == OVERLAP:
        return rule_fix(line, n, clue, c0, k, out, strategy == CHAIN_RANGE, work.labels, work.scratch,
                        work.off, work.glo, work.kw, work.kb, work.diff)
    if strategy == ENUMERATE:
        return enumerate_fix(line, n, clue, c0, k, out, work.params[CAP], work.off, work.kw, work.kb)
    return line_fix(line, n, clue, c0, k, out, work, win_lo, win_hi, update)


def line_work(longest: int, blocks: int, table: int, strategy: LineStrategy | None = None,
              cap: int = DEFAULT_ENUMERATE_CAP) -> LineWork:
    """The work arrays of one line solve, for lines up to ``longest`` cells and ``blocks`` blocks.

    ``table`` is the DP's table size (:func:`~nonolab.solvers.native.line.table_size`).
    ``params``, ``labels`` and ``scratch`` belong to the strategies: the strategy
    code and enumeration cap, per-cell labels and a working line.
    """
    if cap < 1:
        raise ValueError("line_work: the enumeration cap must be positive")
    code = (strategy or STRATEGIES["dp"]).code
    params = np.zeros(2, np.int64)
    params[STRATEGY] = code
    params[CAP] = cap
    return LineWork(kw=np.zeros(longest + 1, np.int32), kb=np.zeros(longest + 1, np.int32),
                    off=np.zeros(blocks + 1, np.int32), glo=np.zeros(blocks + 1, np.int32),
                    fwd=np.zeros(table, np.uint8), bwd=np.zeros(table, np.uint8),
                    diff=np.zeros(longest + 1, np.int32), params=params,
                    labels=np.zeros(longest + 1, np.uint8), scratch=np.zeros(longest + 1, np.uint8))


def fix_line_with(name: str, clue: tuple[int, ...], cells: bytes,
                  cap: int = DEFAULT_ENUMERATE_CAP) -> tuple[bytes | None, tuple[int, ...]]:
    """One line through strategy ``name``: (narrowed cells or ``None``, per-cell labels).

    Labels are those of :mod:`~nonolab.solvers.native.line_rules` (0 for a cell
    left as it was, and always 0 for strategies that do not label).

    >>> fix_line_with("overlap", (3,), bytes([3, 3, 3, 3, 1]))
    (b'\\x03\\x02\\x02\\x03\\x01', (0, 1, 1, 0, 0))
    """
    strategy = line_strategy(name)
    n, k = len(cells), len(clue)
    line = np.frombuffer(bytes(cells), np.uint8)
    clue_arr = np.array(clue if k else (0,), np.int32)
    work = line_work(max(n, 1), k + 1, table_size([clue], n), strategy, cap)
    win_lo, win_hi = static_windows(clue_arr[:k], np.array([0, k]), [n])
    if k and win_hi[0] < win_lo[0]:
        return None, (0,) * n  # the clue does not fit
    out = np.empty(max(n, 1), np.uint8)
    ok = strategy_fix(line, n, clue_arr, 0, k, out, work, win_lo, win_hi, False)
    if not ok:
        return None, (0,) * n
    labels = tuple(int(x) for x in work.labels[:n]) if strategy.labelled else (0,) * n
    return out[:n].tobytes(), labels
