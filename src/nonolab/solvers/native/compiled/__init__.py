"""The native engine's compiled core: the C++ search behind ``NativeSolver(engine="compiled")``.

The same algorithm as the numba kernels of :mod:`nonolab.solvers.native` (complete
line DP with block windows and a line cache, round-based propagation, depth-1
contradiction and full probing, depth-first search with exact counting, no learning),
in C++ (``engine.cpp``; the line DP is lcg's, ``lcg/line.hpp``), built with the
package into ``_native``.  It loads in milliseconds, where numba costs about 0.3 s to
import and 0.4 s to load its cached kernels, and a first run never compiles anything.
The two engines search the same tree: the same nodes, the same solutions in the same
order (``tests/native/test_compiled.py`` holds them to it).

It serves the default line strategy (``dp``) with probing ``none``, ``contradiction``
or ``full`` and no step log; the other strategies, depth-2 probing and the step log of
``explain``/``grade`` stay with numba.  Nothing here imports numba or numpy.

>>> from nonolab.core import Puzzle
>>> space = CompiledSpace(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
>>> outcome = space.run(max_solutions=None)
>>> len(outcome.solutions), outcome.complete
(2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable

__all__ = ["CompiledSpace", "Outcome", "available", "engine_module"]

_PAUSED, _FOUND, _EXHAUSTED = 0, 1, 2
# How long one engine call runs before Python looks at the clock, the cancel event and
# the progress callback again (the GIL is released meanwhile).
SLICE_SECONDS = 0.02
_COUNTERS = ("line_solves", "cache_hits", "probes", "nodes", "max_depth", "propagation_rounds")
_PROBING = {"none": 0, "contradiction": 1, "full": 2, "depth-2": 3}


def engine_module() -> Any:
    """The compiled extension ``_native``.

    Raises:
        BackendUnavailable: it was not built (installing the package builds it; a source
            checkout needs ``python setup.py build_ext --inplace``).
    """
    try:
        import nonolab.solvers.native.compiled._native as _native
    except ImportError as exc:
        raise BackendUnavailable(f"the native engine's compiled core is not built ({exc}); reinstall nonolab "
                                 f"with a C++ compiler present: pip install .") from exc
    return _native


def available() -> bool:
    """Whether the compiled core is built."""
    try:
        engine_module()
    except BackendUnavailable:
        return False
    return True


@dataclass
class Outcome:
    """What one run of the search found: solutions as cell-state bytes, exactness, limits."""

    solutions: list[bytes] = field(default_factory=list)
    complete: bool = False
    limited: bool = False
    timed_out: bool = False
    steps: list | None = None  # the compiled engine keeps no step log


class CompiledSpace:
    """One search of ``puzzle`` by the compiled engine (the numba ``Workspace``'s counterpart).

    Args:
        puzzle: the puzzle.
        cache_bytes: memory for the line cache (0 disables it).
        given: a partial grid to start from (one state mask per cell: 1 empty, 2
            filled, 3 unknown; row-major), or ``None``.
        probing: ``"none"``, ``"contradiction"`` or ``"full"``.
    """

    engine = "compiled"

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
            raise ValueError(f"CompiledSpace: probing must be one of {', '.join(_PROBING)}, not {probing!r}")
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
        every later slice at its own): safe to call while :meth:`run` goes on.  An
        extension built before ``Engine.interrupt`` is stopped between slices only."""
        interrupt = getattr(self._engine, "interrupt", None)
        if interrupt is not None:
            interrupt()

    def fork_root(self) -> "CompiledSpace":
        """A new search of the same space from where this one's root ended (once it branched)."""
        fork = CompiledSpace.__new__(CompiledSpace)
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

    def steps(self) -> list:
        """The step log of the current search path, grouped into steps."""
        return steps_of(self._engine.steps(), self.height, self.width)

    def implications(self, max_pairs: int) -> list[tuple[int, int, int, int]]:
        """Rows ``(p, a, q, b)``: cell ``p`` in state ``a`` makes propagation set cell ``q`` to
        state ``b`` (``q == p``, ``b == 3 - a``: ``a`` leads to a contradiction), from the
        given grid; at most ``max_pairs``."""
        return self._engine.implications(max_pairs)


_TECHNIQUES = ("line", "contradiction-probe", "both-branches-agree", "guess", "depth-2-probe")


def steps_of(rows: list[tuple[int, int, int, int, int]], height: int, width: int) -> list:
    """The engine's log rows ``(step, technique, source, cell, value)`` grouped into
    :class:`~nonolab.solvers.steps.Step` records (one per step, in order)."""
    from nonolab.solvers.steps import Step, Technique

    steps = []
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
