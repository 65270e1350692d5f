"""The numba engine behind the interface :class:`NativeSolver` drives: one search space.

:class:`NumbaSpace` wraps a :class:`~nonolab.solvers.native.search.Workspace` with the
methods of :class:`~nonolab.solvers.native.compiled.CompiledSpace` (``nodes``,
``counters``, ``fork_root``, ``remainder``, ``run``), so the solver's driver (styles,
slices, hand-off) is one piece of code whichever engine searches.  Importing this
module imports numba; the solver does it only when the numba engine is chosen.
"""

from __future__ import annotations

from typing import Callable

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.native.bundles import DEPTH
from nonolab.solvers.native.cache import CACHE_HITS, LINE_SOLVES, MAX_DEPTH, NODES, PROBES, ROUNDS
from nonolab.solvers.native.modes import LineStrategy, Probing
from nonolab.solvers.native.search import SearchOutcome, Workspace, search
from nonolab.solvers.steps import Step


class NumbaSpace:
    """A numba search of ``puzzle`` (see ``Workspace`` for the arguments)."""

    engine = "numba"

    def __init__(self, puzzle: Puzzle, record_steps: bool, cache_bytes: int, given: bytes | None,
                 probing: Probing, line: LineStrategy, line_cap: int, *, _workspace: Workspace | None = None):
        self.probing = probing
        self.workspace = _workspace or Workspace(puzzle, record_steps, cache_bytes, given=given,
                                                 depth2=probing is Probing.DEPTH2, line=line, line_cap=line_cap)

    @property
    def nodes(self) -> int:
        return int(self.workspace.stats[NODES])

    def counters(self) -> dict[str, int]:
        s = self.workspace.stats
        return {"line_solves": int(s[LINE_SOLVES]), "cache_hits": int(s[CACHE_HITS]), "probes": int(s[PROBES]),
                "nodes": int(s[NODES]), "max_depth": int(s[MAX_DEPTH]), "propagation_rounds": int(s[ROUNDS])}

    def root_done(self) -> bool:
        """Whether the root's propagation and probing are over (the search has branched)."""
        return bool(self.workspace.arrays.state[DEPTH] > 0 or self.nodes > 1)

    def propagated(self) -> bool:
        """Whether the root's first line propagation is over (probing has begun, or the
        root is done)."""
        return bool(self.workspace.stats[PROBES] > 0) or self.root_done()

    def fork_root(self) -> "NumbaSpace":
        return NumbaSpace(None, False, 0, None, self.probing, None, 0,  # type: ignore[arg-type]
                          _workspace=self.workspace.fork_root())

    def remainder(self) -> bytes:
        return self.workspace.remainder()

    def steps(self) -> list[Step]:
        return self.workspace.steps()

    def run(self, max_solutions: int | None = 2, deadline: float | None = None, node_limit: int | None = None,
            probe_depth: int = 1 << 30, deep_sweeps: int = 1 << 30,
            progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> SearchOutcome:
        return search(self.workspace, self.probing, max_solutions, deadline, node_limit, probe_depth, deep_sweeps,
                      progress, cancelled)
