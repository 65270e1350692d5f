"""One black-and-white search of the native engine, in slices, and its step log.

The C++ of this room (``engine.hpp`` and the files beside it) is the search: complete
line DP with block windows and a line cache (or a simpler line strategy), round-based
propagation, probing (depth-1 contradiction and full, depth 2), depth-first search with
exact counting and no learning, and the step log of ``explain`` and ``grade``.
:class:`SearchSpace` drives one search from Python: each ``run`` goes on where the
last stopped, and returns between slices of about 20 ms (the GIL released meanwhile)
to look at the clock, the cancel and the progress callback.

>>> from nonolab.core import Puzzle
>>> space = SearchSpace(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> outcome = space.run(max_solutions=None)
>>> len(outcome.solutions), outcome.complete
(2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.native.compiled import engine_module
from nonolab.solvers.steps import Step, Technique

__all__ = ["Outcome", "SearchSpace", "steps_of"]

_PAUSED, _FOUND, _EXHAUSTED = 0, 1, 2
# How long one engine call runs before Python looks at the clock, the cancel event and
# the progress callback again (the GIL is released meanwhile).
SLICE_SECONDS = 0.02
_COUNTERS = ("line_solves", "cache_hits", "probes", "nodes", "max_depth", "propagation_rounds")
_PROBING = {"none": 0, "contradiction": 1, "full": 2, "depth-2": 3}


@dataclass
class Outcome:
    """What one run of the search found: solutions as cell-state bytes, exactness, limits."""

    solutions: list[bytes] = field(default_factory=list)
    complete: bool = False
    limited: bool = False
    timed_out: bool = False
    steps: list | None = None  # the step log up to the first solution (record_steps)


class SearchSpace:
    """One search of ``puzzle`` by the engine (``engine.hpp``), resumable, in slices.

    Args:
        puzzle: the puzzle.
        cache_bytes: memory for the line cache (0 disables it).
        given: a partial grid to start from (one state mask per cell: 1 empty, 2
            filled, 3 unknown; row-major), or ``None``.
        probing: ``"none"``, ``"contradiction"``, ``"full"`` or ``"depth-2"``.
        strategy: the line strategy's code (:class:`~nonolab.solvers.native.modes.LineStrategy`).
        cap: ``enumerate``'s budget of block positions per line solve.
        record_steps: keep the step log (:meth:`steps`).
    """

    def __init__(self, puzzle: Puzzle, cache_bytes: int = 32 << 20, given: bytes | None = None,
                 probing: str = "full", strategy: int = 0, cap: int = 1 << 16, record_steps: bool = False, *,
                 _engine: Any = None):
        self.height, self.width = puzzle.height, puzzle.width
        self.probing = probing
        self.record_steps = record_steps
        if _engine is not None:
            self._engine = _engine
            return
        if probing not in _PROBING:
            raise ValueError(f"SearchSpace: probing must be one of {', '.join(_PROBING)}, not {probing!r}")
        size = puzzle.height * puzzle.width
        cells = given if given is not None else b"\x03" * size
        self._engine = engine_module().Engine(puzzle.height, puzzle.width, puzzle.rows, puzzle.columns, cells,
                                              cache_bytes, _PROBING[probing], strategy, cap, record_steps)

    @property
    def nodes(self) -> int:
        return self._engine.stats()[3]

    def counters(self) -> dict[str, int]:
        """line_solves, cache_hits, probes, nodes, max_depth, propagation_rounds."""
        return dict(zip(_COUNTERS, self._engine.stats()))

    def root_done(self) -> bool:
        """Whether the root's propagation and probing are over: ``remainder()`` holds
        all they proved, and the search has branched."""
        return self._engine.root_done()

    def propagated(self) -> bool:
        """Whether the root's first line propagation is over (its probing has begun, or
        the root is done): ``remainder()`` then holds what line logic alone proves."""
        return self._engine.stats()[2] > 0 or self._engine.root_done()

    def interrupt(self) -> None:
        """Pause the slice running in another thread at its next look at the clock (and
        every later slice at its own): safe to call while :meth:`run` goes on."""
        self._engine.interrupt()

    def fork_root(self) -> "SearchSpace":
        """A new search of the same space from where this one's root ended (once it branched)."""
        fork = SearchSpace.__new__(SearchSpace)
        fork.height, fork.width, fork.probing = self.height, self.width, self.probing
        fork.record_steps = self.record_steps
        fork._engine = self._engine.fork_root()
        return fork

    def remainder(self) -> bytes:
        """What every solution the search has not yet reached agrees with."""
        return self._engine.remainder()

    def run(self, max_solutions: int | None = 2, deadline: float | None = None, node_limit: int | None = None,
            probe_depth: int = 1 << 30, deep_sweeps: int = 1 << 30,
            progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> Outcome:
        """Search to ``max_solutions`` (``None``: all), ``deadline`` (``time.perf_counter``
        time), ``node_limit`` new nodes, or until ``cancelled()`` says yes; resumable.

        Nodes deeper than ``probe_depth`` only propagate; below the root a probing makes
        at most ``deep_sweeps`` sweeps.  ``progress(decided, cells)`` is called between
        slices of about 20 ms.
        """
        out = Outcome()
        engine = self._engine
        first_node = self.nodes
        while True:
            budget = -1
            if node_limit is not None:
                left = node_limit - (self.nodes - first_node)
                if left <= 0 and not engine.node_paused():  # a paused node is finished first
                    out.limited = True
                    break
                budget = max(left, 0)
            seconds = SLICE_SECONDS
            if deadline is not None:
                seconds = max(0.0, min(seconds, deadline - time.perf_counter()))
            code = engine.run(seconds, budget, probe_depth, deep_sweeps)
            if code == _FOUND:
                out.solutions.append(engine.cells())
                if self.record_steps and out.steps is None:
                    out.steps = self.steps()
                if max_solutions is not None and len(out.solutions) >= max_solutions:
                    break
            elif code == _EXHAUSTED:
                out.complete = True
                break
            if (deadline is not None and time.perf_counter() >= deadline) or (cancelled is not None and cancelled()):
                out.limited = out.timed_out = True
                break
            if code == _PAUSED and progress is not None:
                progress(engine.decided(), self.height * self.width)
        if self.record_steps and out.steps is None:
            out.steps = self.steps()
        return out

    def steps(self) -> list[Step]:
        """The step log of the current search path, grouped into steps."""
        return steps_of(self._engine.steps(), self.height, self.width)

    def implications(self, max_pairs: int) -> list[tuple[int, int, int, int]]:
        """Rows ``(p, a, q, b)``: cell ``p`` in state ``a`` makes propagation set cell ``q`` to
        state ``b`` (``q == p``, ``b == 3 - a``: ``a`` leads to a contradiction), from the
        given grid; at most ``max_pairs``."""
        return self._engine.implications(max_pairs)


_TECHNIQUES = ("line", "contradiction-probe", "both-branches-agree", "guess", "depth-2-probe")


def steps_of(rows: list[tuple[int, int, int, int, int]], height: int, width: int) -> list[Step]:
    """The engine's log rows ``(step, technique, source, cell, value)`` grouped into
    :class:`~nonolab.solvers.steps.Step` records (one per step, in order).

    >>> [s.describe() for s in steps_of([(1, 0, 2, 0, 1), (1, 0, 2, 1, 0), (2, 3, 3, 3, 1)], 2, 2)]
    ['line: column 1 sets 2 cells', 'guess (search): cell (row 2, column 2) sets 1 cell (first branch)']
    """
    steps: list[Step] = []
    depth = 0
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0]:
            j += 1
        technique = Technique(_TECHNIQUES[rows[i][1]])
        source = rows[i][2]
        cells = tuple((x // width, x % width, v) for _, _, _, x, v in rows[i:j])
        note = ""
        if technique is Technique.LINE:
            where: tuple = ("row", source) if source < height else ("column", source - height)
        else:
            cell = source if source >= 0 else -1 - source
            where = ("cell", cell // width, cell % width)
            if technique is Technique.GUESS:
                depth += source >= 0
                note = "first branch" if source >= 0 else "second branch"
            elif technique is Technique.CONTRADICTION_PROBE:
                note = f"{'empty' if cells[0][2] else 'filled'} leads to a contradiction"
            elif technique is Technique.DEPTH2_PROBE:
                note = "probing inside both values of this cell"
            else:
                note = "both values of this cell imply these cells"
        steps.append(Step(technique, where, cells, depth, note))
        i = j
    return steps
