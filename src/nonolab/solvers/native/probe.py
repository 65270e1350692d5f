"""Probing: try each value of each unknown cell, propagate, and learn from the outcome.

* ``contradiction`` (depth-1 contradiction probing): if one value of a cell leads to
  a contradiction, the cell takes the other value.
* ``full`` (Wu et al. 2013, "fully probing"): as above, and when both values are
  consistent, every cell the two branches set identically is fixed too.

Both repeat until a whole sweep over the unknown cells learns nothing.  The number of
cells each value decides is kept as the cell's score, which search uses to branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN
from nonolab.solvers.native.propagate import Propagator
from nonolab.solvers.native.steps import Step, Technique


class Probing(str, Enum):
    """How much probing runs between line propagation and search."""

    NONE = "none"
    CONTRADICTION = "contradiction"
    FULL = "full"


@dataclass
class ProbeResult:
    """``consistent`` is False when some cell has no consistent value.

    ``scores`` maps a row-major cell index to the cells decided by its (empty,
    filled) branches in the last sweep, for the cells still unknown.
    """

    consistent: bool
    scores: dict[int, tuple[int, int]] = field(default_factory=dict)
    probes: int = 0


def probe(prop: Propagator, cells: bytearray, mode: Probing = Probing.FULL,
          log: list[Step] | None = None, depth: int = 0) -> ProbeResult:
    """Probe ``cells`` (already at the line fixpoint) in place until nothing changes."""
    result = ProbeResult(True)
    if mode is Probing.NONE:
        return result
    w = prop.width
    learnt = True
    while learnt:
        learnt = False
        scores: dict[int, tuple[int, int]] = {}
        for p in [i for i, v in enumerate(cells) if v == UNKNOWN]:
            if cells[p] != UNKNOWN:
                continue  # decided earlier in this sweep
            r, c = divmod(p, w)
            branches = []
            touched: list[set[int]] = [set(), set()]
            for value, changed in zip((EMPTY, FILLED), touched):
                trial = bytearray(cells)
                trial[p] = value
                result.probes += 1
                branches.append(trial if prop.run(trial, (r,), (c,), touched=changed) else None)
            if_empty, if_filled = branches
            if if_empty is None and if_filled is None:
                result.consistent = False
                return result
            if if_empty is None or if_filled is None:
                value = FILLED if if_empty is None else EMPTY
                failed = "empty" if value == FILLED else "filled"
                if not _apply(prop, cells, p, value, if_filled if if_empty is None else if_empty,
                              log, Step(Technique.CONTRADICTION_PROBE, ("cell", r, c),
                                        ((r, c, int(value == FILLED)),), depth,
                                        f"{failed} leads to a contradiction")):
                    result.consistent = False
                    return result
                learnt = True
                continue
            scores[p] = (len(touched[0]) + 1, len(touched[1]) + 1)
            if mode is Probing.FULL:
                # Only cells both propagations changed can agree (they were unknown here).
                agreed = sorted(i for i in touched[0] & touched[1] if if_empty[i] == if_filled[i])
                if agreed:
                    for i in agreed:
                        cells[i] = if_empty[i]
                    if log is not None:
                        log.append(Step(Technique.BOTH_BRANCHES_AGREE, ("cell", r, c),
                                        tuple((*divmod(i, w), int(if_empty[i] == FILLED)) for i in agreed),
                                        depth, "both values of this cell imply these cells"))
                    rows = {i // w for i in agreed}
                    cols = {i % w for i in agreed}
                    if not prop.run(cells, rows, cols, log, depth):
                        result.consistent = False
                        return result
                    learnt = True
        result.scores = {p: s for p, s in scores.items() if cells[p] == UNKNOWN}
    return result


def _apply(prop: Propagator, cells: bytearray, p: int, value: int, propagated: bytearray,
           log: list[Step] | None, step: Step) -> bool:
    """Adopt a forced value; with a log, replay the propagation so its steps are recorded."""
    if log is None:
        cells[:] = propagated
        return True
    log.append(step)
    cells[p] = value
    return prop.run_cell(cells, p, log, step.depth)
