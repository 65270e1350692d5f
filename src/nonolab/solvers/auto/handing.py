"""What ``auto`` hands from native to a learning engine, and how the step log shows it.

>>> distinct((((0, 0, 1), (0, 1, 0)), ((0, 1, 1), (0, 0, 0))))  # one clause, two implications
(((0, 0, 1), (0, 1, 0)),)
"""

from __future__ import annotations

from typing import Sequence

from nonolab.core.grid import Solution
from nonolab.solvers.base import Implication
from nonolab.solvers.steps import Step, Technique

__all__ = ["cdcl_step", "distinct"]


def distinct(implications: tuple[Implication, ...]) -> tuple[Implication, ...]:
    """Implications as distinct clauses: an implication and its contrapositive (not
    ``b`` implies not ``a``) are one clause, so keep one of each pair."""
    seen: set[tuple[tuple[int, int, int], ...]] = set()
    out = []
    for (r, c, a), (q, d, b) in implications:
        # The clause's two literals as (row, column, value that satisfies it), ordered.
        key = tuple(sorted(((r, c, 1 - a), (q, d, b))))
        if key not in seen:
            seen.add(key)
            out.append(((r, c, a), (q, d, b)))
    return tuple(out)


def cdcl_step(backend: str, before: tuple[Step, ...], solutions: Sequence[Solution],
              width: int) -> tuple[Step, ...]:
    """One step: the cells of the first solution that the native deductions left open."""
    if not solutions:
        return ()
    known = {(r, c) for step in before for r, c, _ in step.cells}
    flat = solutions[0].flat()
    cells = tuple((i // width, i % width, int(v)) for i, v in enumerate(flat) if (i // width, i % width) not in known)
    return (Step(Technique.CDCL, ("solver", backend), cells, 0, "decided by clause learning after the hand-off"),)
