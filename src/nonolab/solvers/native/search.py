"""Depth-first search with exact solution counting.

Every node propagates and probes; the search branches on the cell whose two probe
branches together decide the most (Wu et al.'s ``sqrt(max / (min + 1)) + min``, the
default of nonogrid), trying the value that decides more first.  Branching on the
two values of one cell partitions the space, so each solution is reached exactly
once and an exhausted stack makes the count exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN
from nonolab.errors import LimitReached
from nonolab.solvers.native.probe import Probing, probe
from nonolab.solvers.native.propagate import Propagator
from nonolab.solvers.native.steps import Step, Technique


@dataclass
class SearchOutcome:
    """What the search found.

    ``complete`` means the space was exhausted (the count is exact); ``limited``
    means a time or node limit stopped it.  ``steps`` is the step log up to the first
    solution (or up to the stop), when one was asked for.
    """

    solutions: list[bytes] = field(default_factory=list)
    complete: bool = False
    limited: bool = False
    steps: list[Step] | None = None
    nodes: int = 0
    max_depth: int = 0
    probes: int = 0
    final_cells: bytes = b""


def branch_score(gains: tuple[int, int]) -> float:
    low, high = sorted(gains)
    return math.sqrt(high / (low + 1)) + low


def search(prop: Propagator, probing: Probing = Probing.FULL, max_solutions: int | None = 2,
           node_limit: int | None = None, record_steps: bool = False) -> SearchOutcome:
    """Find up to ``max_solutions`` solutions (``None``: all) of the propagator's puzzle."""
    out = SearchOutcome()
    log: list[Step] | None = [] if record_steps else None
    size = prop.height * prop.width
    w = prop.width
    root = bytearray([UNKNOWN]) * size
    # A node is (cells, depth, guess or None, log length to return to).
    stack: list[tuple[bytearray, int, tuple[int, int, str] | None, int]] = [(root, 0, None, 0)]
    cells = root
    try:
        while stack:
            cells, depth, guess, log_len = stack.pop()
            if log is not None:
                del log[log_len:]
            out.nodes += 1
            if node_limit is not None and out.nodes > node_limit:
                raise LimitReached(f"node limit {node_limit} reached")
            out.max_depth = max(out.max_depth, depth)
            if guess is None:
                ok = prop.run(cells, range(prop.height), range(w), log, depth)
            else:
                p, value, note = guess
                r, c = divmod(p, w)
                cells[p] = value
                if log is not None:
                    log.append(Step(Technique.GUESS, ("cell", r, c), ((r, c, int(value == FILLED)),),
                                    depth, note))
                ok = prop.run_cell(cells, p, log, depth)
            if not ok:
                continue
            probed = probe(prop, cells, probing, log, depth)
            out.probes += probed.probes
            if not probed.consistent:
                continue
            if UNKNOWN not in cells:
                out.solutions.append(bytes(cells))
                if log is not None:
                    out.steps = list(log)
                    log = None  # the explanation is the path to the first solution
                if max_solutions is not None and len(out.solutions) >= max_solutions:
                    break
                continue
            p, first = _choose(cells, probed.scores, w)
            second = EMPTY if first == FILLED else FILLED
            here = len(log) if log is not None else 0
            stack.append((bytearray(cells), depth + 1, (p, second, "second branch"), here))
            stack.append((cells, depth + 1, (p, first, "first branch"), here))
        out.complete = not stack
    except LimitReached:
        out.limited = True
    if log is not None:
        out.steps = list(log)
    out.final_cells = bytes(cells)
    return out


def _choose(cells: bytearray, scores: dict[int, tuple[int, int]], width: int) -> tuple[int, int]:
    """The cell to branch on and the value to try first."""
    if scores:
        p = max(scores, key=lambda i: (branch_score(scores[i]), -i))
        gain_empty, gain_filled = scores[p]
        return p, FILLED if gain_filled >= gain_empty else EMPTY
    return cells.index(UNKNOWN), FILLED
