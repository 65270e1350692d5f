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
from itertools import groupby
from typing import Any, Callable, Iterable, Iterator, Literal

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.native.compiled import engine_module
from nonolab.solvers.native.modes import BRANCHING
from nonolab.solvers.steps import CellRun, Step, Technique, step_pieces

__all__ = ["Outcome", "SearchSpace", "StepLogCut", "steps_of"]

_PAUSED, _FOUND, _EXHAUSTED = 0, 1, 2
# How long one engine call runs before Python looks at the clock, the cancel event and
# the progress callback again (the GIL is released meanwhile).
SLICE_SECONDS = 0.02
_COUNTERS = ("line_solves", "cache_hits", "probes", "nodes", "max_depth", "propagation_rounds", "probes_skipped")
_PROBING = {"none": 0, "contradiction": 1, "full": 2, "depth-2": 3}
# The step log crosses into Python in pieces of this many rows, the clock looked at
# between them: a piece is read into numpy and grouped in milliseconds, so a log of
# 100 M rows (a blank 10,000x10,000 grid) stops within that of its deadline.
LOG_ROWS_PER_PIECE = 1 << 16
#: One row of the engine's step log as ``Engine.step_block`` gives it (``LogRow`` in
#: ``engine.hpp``: 24 bytes, native byte order).
_LOG_ROW = [("step", "=i8"), ("technique", "=i4"), ("source", "=i4"), ("cell", "=i4"), ("value", "=i4")]


class StepLogCut(Exception):
    """The step log was not all read before the deadline (or the cancel): the rows read
    are dropped, and the search that recorded it counts as stopped by its limit."""


@dataclass
class Outcome:
    """What one run of the search found: solutions as cell-state bytes, exactness, limits."""

    solutions: list[bytes] = field(default_factory=list)
    complete: bool = False
    limited: bool = False
    timed_out: bool = False
    steps: list | None = None  # the step log up to the first solution found (record_steps)
    steps_cut: bool = False  # the step log was not read within the limits (StepLogCut)


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
        threads: threads for the root's first line propagation (the answers and
            counters are the same on any number; only its wall time changes).
        skip_probes: skip a probe that learnt nothing while no line its trials solved
            has changed (the same search: only ``probes`` and the line counters drop;
            off only to hold the engine to the search without it).
        branching: the branching rule, ``"wu"`` or ``"lalafrog"``
            (:data:`~nonolab.solvers.native.modes.BRANCHING`).
    """

    def __init__(self, puzzle: Puzzle, cache_bytes: int = 32 << 20, given: bytes | None = None,
                 probing: str = "full", strategy: int = 0, cap: int = 1 << 16, record_steps: bool = False, *,
                 threads: int = 1, skip_probes: bool = True, branching: str = "wu", _engine: Any = None):
        self.height, self.width = puzzle.height, puzzle.width
        self.probing = probing
        self.record_steps = record_steps
        if _engine is not None:
            self._engine = _engine
            return
        if probing not in _PROBING:
            raise ValueError(f"SearchSpace: probing must be one of {', '.join(_PROBING)}, not {probing!r}")
        cells = given if given is not None else b""  # (b"": all unknown, made by the engine)
        self._engine = engine_module().Engine(puzzle.height, puzzle.width, puzzle.rows, puzzle.columns, cells,
                                              cache_bytes, _PROBING[probing], strategy, cap, record_steps, threads,
                                              skip_probes, BRANCHING.index(branching))

    @property
    def nodes(self) -> int:
        return self._engine.stats()[3]

    def counters(self) -> dict[str, int]:
        """line_solves, cache_hits, probes, nodes, max_depth, propagation_rounds, probes_skipped."""
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

    def fork_root(self, branching: str | None = None) -> "SearchSpace":
        """A new search of the same space from where this one's root ended (once it branched),
        by this one's branching rule or ``branching`` (:data:`~nonolab.solvers.native.modes.BRANCHING`)."""
        fork = SearchSpace.__new__(SearchSpace)
        fork.height, fork.width, fork.probing = self.height, self.width, self.probing
        fork.record_steps = self.record_steps
        fork._engine = self._engine.fork_root(-1 if branching is None else BRANCHING.index(branching))
        return fork

    def remainder(self) -> bytes:
        """What every solution the search has not yet reached agrees with."""
        return self._engine.remainder()

    def run(self, max_solutions: int | None = 2, deadline: float | None = None, node_limit: int | None = None,
            probe_depth: int = 1 << 30, deep_sweeps: int = 1 << 30,
            progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None, steps_deadline: float | None = None) -> Outcome:
        """Search to ``max_solutions`` (``None``: all), ``deadline`` (``time.perf_counter``
        time), ``node_limit`` new nodes, or until ``cancelled()`` says yes; resumable.

        Nodes deeper than ``probe_depth`` only propagate; below the root a probing makes
        at most ``deep_sweeps`` sweeps.  ``progress(decided, cells)`` is called between
        slices of about 20 ms.  With ``record_steps``, the step log up to the first
        solution found is read into ``steps`` by ``steps_deadline`` (else ``steps_cut``
        is set and the run counts as timed out); a run that finds none reads no log
        (:meth:`steps` reads the current path's).
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
                if self.record_steps and out.steps is None and not self._read_steps(out, steps_deadline, cancelled):
                    break
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
        return out

    def _read_steps(self, out: Outcome, deadline: float | None, cancelled: Callable[[], bool] | None) -> bool:
        """``out.steps`` from the log, or ``out`` marked cut and timed out (False)."""
        try:
            out.steps = self.steps(deadline, cancelled)
            return True
        except StepLogCut:
            out.steps_cut = out.limited = out.timed_out = True
            return False

    def steps(self, deadline: float | None = None, cancelled: Callable[[], bool] | None = None) -> list[Step]:
        """The step log of the current search path, grouped into steps.

        Raises:
            StepLogCut: ``deadline`` (``time.perf_counter`` time) passed, or
                ``cancelled()`` said yes, before the whole log was read.
        """
        total = self._engine.step_rows()
        if total <= LOG_ROWS_PER_PIECE:   # one piece: read as tuples, without importing numpy
            return steps_of(self._engine.steps(0, total), self.height, self.width)
        return _grouped(self._log_blocks(deadline, cancelled), self.height, self.width)

    def _log_blocks(self, deadline: float | None, cancelled: Callable[[], bool] | None) -> Iterator[Any]:
        """The engine's log rows as numpy records, a piece at a time, the clock looked at before each."""
        import numpy as np

        engine = self._engine
        total = engine.step_rows()
        for start in range(0, total, LOG_ROWS_PER_PIECE):
            if start and ((deadline is not None and time.perf_counter() >= deadline)
                          or (cancelled is not None and cancelled())):
                raise StepLogCut(f"the step log was read to row {start:,} of {total:,} when the limit came")
            yield np.frombuffer(engine.step_block(start, start + LOG_ROWS_PER_PIECE), dtype=_LOG_ROW)

    def implications(self, max_pairs: int) -> list[tuple[int, int, int, int]]:
        """Rows ``(p, a, q, b)``: cell ``p`` in state ``a`` makes propagation set cell ``q`` to
        state ``b`` (``q == p``, ``b == 3 - a``: ``a`` leads to a contradiction), from the
        given grid; at most ``max_pairs``."""
        return self._engine.implications(max_pairs)


_TECHNIQUES = ("line", "contradiction-probe", "both-branches-agree", "guess", "depth-2-probe")


def steps_of(rows: Iterable[tuple[int, int, int, int, int]], height: int, width: int) -> list[Step]:
    """The engine's log rows ``(step, technique, source, cell, value)`` grouped into
    :class:`~nonolab.solvers.steps.Step` records (one per step, in order), in plain
    Python: the reader of a log of one piece, which never imports numpy.

    >>> [s.describe() for s in steps_of([(1, 0, 2, 0, 1), (1, 0, 2, 1, 0), (2, 3, 3, 3, 1)], 2, 2)]
    ['line: column 1 sets 2 cells', 'guess (search): cell (row 2, column 2) sets 1 cell (first branch)']
    """
    made = _Steps(height, width)
    for _, group in groupby(rows, key=lambda row: row[0]):
        members = list(group)
        made.add(members[0][1], members[0][2], CellRun.of([m[3] for m in members], [m[4] for m in members], width))
    return made.steps


def _grouped(blocks: Iterable[Any], height: int, width: int) -> list[Step]:
    """Log rows, in numpy blocks of :data:`_LOG_ROW` (a step may run on from one block
    into the next), grouped into steps whose cells are :class:`~nonolab.solvers.steps.CellRun`:
    a few Python objects a step, none a cell (a blank 10,000 x 10,000 grid's log is
    100 M rows in 10,000 steps)."""
    import numpy as np

    made = _Steps(height, width)
    code: Literal["i", "q"] = "i" if width * height < 2 ** 31 else "q"
    for rows in step_pieces(blocks):
        cells = CellRun(rows["cell"].astype(code).tobytes(), rows["value"].astype(np.uint8).tobytes(), width, code)
        made.add(int(rows[0]["technique"]), int(rows[0]["source"]), cells)
    return made.steps


class _Steps:
    """The steps read so far, and the search depth the guesses among them reached."""

    def __init__(self, height: int, width: int):
        self.height, self.width = height, width
        self.steps: list[Step] = []
        self.depth = 0

    def add(self, code: int, source: int, cells: CellRun) -> None:
        """One step: technique ``code`` (the engine's), its ``source`` (a line; a cell, or
        ``-1 - cell`` for a guess's second branch) and the cells it set."""
        technique = Technique(_TECHNIQUES[code])
        width, note = self.width, ""
        if technique is Technique.LINE:
            where: tuple = ("row", source) if source < self.height else ("column", source - self.height)
        else:
            cell = source if source >= 0 else -1 - source
            where = ("cell", cell // width, cell % width)
            if technique is Technique.GUESS:
                self.depth += source >= 0
                note = "first branch" if source >= 0 else "second branch"
            elif technique is Technique.CONTRADICTION_PROBE:
                note = f"{'empty' if cells[0][2] else 'filled'} leads to a contradiction"
            elif technique is Technique.DEPTH2_PROBE:
                note = "probing inside both values of this cell"
            else:
                note = "both values of this cell imply these cells"
        self.steps.append(Step(technique, where, cells, self.depth, note))
