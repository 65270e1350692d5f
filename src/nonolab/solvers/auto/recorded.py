"""``auto`` when it records steps: native for a budget of work, then the first engine alone.

A step log is one answer per puzzle: ``nonolab explain``, the HTML stepper (``render
--steps``) and the workbench show it, and a test compares two runs.  The default path
decides by the clock (native's ``native_budget`` and ``handoff_by`` seconds, the early
engine, the race of two engines, native's two search styles in time slices), so the steps
of one puzzle depended on the machine's load: Hakank's t2 gave 46 steps (native's guess
and the lines after it) on a quiet machine and 43 (a ``cdcl`` step) when native was handed
over at once.  Here every choice is decided by work:

* native searches with its first style alone (native's ``restarts=false, deep_sweeps=1``:
  probing at every node, one sweep below the root; LalaFrogKK's slot still joins it by
  nodes), a deterministic search, for at most ``native_nodes`` nodes (32; the root is the
  first; ``node_limit``);
* if it has not finished, the first engine (lcg, reproducible: its slices only pause a
  deterministic search) alone searches native's remainder, and the steps are native's
  root deductions then one ``cdcl`` step (or, when native had found a solution, native's
  own steps to it).

No thread is started and nothing races, so the steps, the solutions and the verdict are
the same on any machine unless the caller's time limit or cancel stops the search.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers import get
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = get("auto", record_steps=True, native_nodes=1).solve(p)
>>> result.stats.counters["phase"], [s.technique.value for s in result.steps]
('native+lcg', ['cdcl'])
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Given, Limits, SolveResult, Budget, left
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import STOPPED

__all__ = ["recorded"]


def recorded(parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given) -> SolveResult:
    """Native (reproducible, see :meth:`Parts.native`) for ``native_nodes`` nodes, then the
    first engine alone on its remainder; the two answers merged as the duel merges them."""
    first = parts.native(node_limit=parts.schedule.native_nodes).solve(puzzle, left(limits, watch), given)
    if first.status not in STOPPED or first.remainder is None or watch.expired() or watch.cancelled():
        # Native finished (or the caller's own limit stopped it): its answer is the answer.
        return parts.native_answer(watch, first)
    second, cells = parts.hand_over(parts.first, puzzle, first.remainder, given, left(limits, watch))
    return parts.merged(puzzle, limits, watch, first, second, first.remainder, cells, f"native+{parts.first}")
