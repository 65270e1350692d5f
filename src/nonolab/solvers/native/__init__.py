"""The native reference solver: complete line solver, propagation, probing, search.

The line solver is a choice (``line=``): the complete DP by default, or one of the
simpler strategies named in :mod:`~nonolab.solvers.native.modes` (for benchmarks and
human-labelled step logs); search keeps every answer exact with any of them.

The engine is C++, built with the package (:mod:`~nonolab.solvers.native.compiled`):
it loads in milliseconds and never compiles anything at run time.  Its rooms:
:mod:`~nonolab.solvers.native.search` (black and white: propagation, probing, search,
the step log), :mod:`~nonolab.solvers.native.lines` (the line strategies) and
:mod:`~nonolab.solvers.native.colour` (colour puzzles).  This module holds the solver's
options and the driver of its two search styles.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = NativeSolver().solve(p, Limits(max_solutions=None))
>>> result.status.value, result.count, result.complete
('solved', 2, True)
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator, Mapping

from nonolab.core.grid import UNKNOWN, Grid, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import (Capability, Given, Implication, Limits, SolveResult, Budget, accept,
                                  available_cores, finish)
from nonolab.errors import InvalidArgument
from nonolab.solvers.options import Option, settle
from nonolab.solvers.stopping import when_set
from nonolab.solvers.native.checks import Checks
from nonolab.solvers.native.modes import (BRANCHING, DEFAULT_ENUMERATE_CAP, STRATEGIES, LineStrategy, Probing,
                                          line_strategy)
from nonolab.solvers.observer import QUIET, SearchObserver
from nonolab.solvers.steps import Step, Technique

__all__ = ["NativeSolver", "Probing", "SearchObserver", "Step", "Technique", "fix_line", "solve_line"]


def __getattr__(name: str) -> Any:
    # The one-line solvers load the extension: imported on first use, not with the solver.
    if name in ("fix_line", "solve_line"):
        from nonolab.solvers.native import lines
        return getattr(lines, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# Two search styles run interleaved, in alternating time slices, each resuming where
# it stopped: probing at every node (one sweep below the root) wins where probing
# prunes much (Lion, Nature, the LalaFrogKK puzzle); probing only at the root and its
# children wins where nodes must be cheap (Forever).  Interleaving costs at most twice
# the better style, and loses no work.  Measured on the survey set: benchmarks/RESULTS.md.
_STYLES = ((1 << 30, 1), (1, 1 << 30))
# LalaFrogKK's slot (``lalafrog_after``): one more search from the root, probing as the
# first style does but branching by LalaFrogKK's score, which answers puzzles Wu's rule
# does not (Sierp, Thing, 9-Dom) and loses others (Nature): once the first style has
# searched that many nodes, the slot is given, after each of the first style's turns, as
# many nodes as the first has searched in all.  By nodes, not time: the slot's search is
# a function of the first's (and with restarts off, the first's turns grow by a quarter
# of its nodes, so the whole search is deterministic); it costs at most the first style's work again.
# From 1,024 nodes: Lion, Nature, Forever, Marley and Center end before it (their search is
# unchanged) while Sierp, Thing and 9-Dom are answered (benchmarks/log/2026-11-27-native-6.md).
LALAFROG_AFTER = 1024
_SLICE = 0.05  # seconds
# The first root slice while an observer waits for the end of the root's propagation (the
# slices double): 0.1 ms, so a 25x25 grid reports its end after 0.17 ms, not 0.58 ms.
_STUCK_SLICE = 0.0001
# The second style is a copy of the first's root (its grid, and its probing's scratch
# grids: 4 bytes a cell, 1.4 s on a 10,000x10,000 grid, measured); it joins once the
# first has searched below the root for about as long as the copy takes, so that a huge
# grid whose search ends in a few nodes (nearly all of them) never pays for it.
_FORK_PER_CELL = 2e-8


class NativeSolver:
    """Line propagation, probing and depth-first search with exact counting.

    Args:
        probing: ``"full"`` (default), ``"contradiction"``, ``"none"``, or
            ``"depth-2"`` (probes that probe: for grading, far slower).
        cache_bytes: memory for the line cache (0 disables it).
        node_limit: stop after this many search nodes in all (reported as TIMEOUT).
        record_steps: keep the step log up to the first solution in ``SolveResult.steps``.
        restarts: alternate the two search styles with growing node budgets (default);
            ``False`` runs one search with ``probe_depth`` and ``deep_sweeps``.
        probe_depth: without restarts, nodes deeper than this only propagate.
        deep_sweeps: without restarts, probing sweeps per node below the root.
        lalafrog_after: add LalaFrogKK's slot once the first style has searched this many
            nodes (default 1,024; ``None``: no slot): a search from the root branching by LalaFrogKK's
            score, given as many nodes as the first style (see ``_STYLES``).
        progress: called as ``progress(decided_cells, all_cells)`` about every 20 ms
            while the first search style works (for progress bars on long runs).
        observer: a :class:`~nonolab.solvers.observer.SearchObserver`, told of
            the search between its slices (the end of the root's propagation and of
            its probing, an alarm, a hand-off of the remainder): how ``auto`` follows
            the search, starts a learning engine beside it and hands the rest over.

        line: the line strategy, ``"dp"`` (default, complete), ``"chain-range"``,
            ``"overlap"`` or ``"enumerate"`` (see
            :mod:`~nonolab.solvers.native.lines`).  An incomplete one leaves
            more to search; answers stay exact.  Rule-based ones label their step
            log with human techniques (simple-overlap, block-capping, clue-exhaustion).
        line_cap: ``enumerate`` only: the block positions one line solve may try
            before it gives up on that line (leaving it unchanged).

    ``NativeSolver(line="chain-range").line_complete`` says whether the line strategy
    is complete (``VARIANTS`` lists the option values the contract suite runs).

    A colour puzzle runs the colour engine (:mod:`~nonolab.solvers.native.colour`):
    the complete colour line solver whatever ``line`` says, probing at the root up to
    ``full``, search with exact counting, and the step log with colour values.

    A cancel that says when it is set (:class:`~nonolab.solvers.stopping.Alarm`)
    interrupts the engine inside its slice, at once; any other is looked at between
    slices.

    A count is exact only when one run exhausts its space; solutions found by any
    run are kept (each is verified), so two of them prove ``multiple`` at once.
    """

    name = "native"
    # The memory a search holds a cell, held to the memory budget by ``accept`` (measured,
    # benchmarks/log/2026-11-26-limits-3.md: the engine's grid, probing's scratch grids,
    # the second style's copy and two solutions in Python peak at 8-11 bytes a cell on
    # 10,000x10,000 and 20,000x20,000 grids; the step log adds its 24-byte rows, about
    # 5 bytes a cell in Python, and the second style's copy of the root's rows: 34 a
    # cell for grade and explain of a blank 10,000x10,000 grid, 61-68 for a smooth one).
    BYTES_PER_CELL = 12
    # (Re-measured beside the slot, tidy-7: two styles with the step log peak at 78-80 bytes
    # a cell on 1500x1500 to 3000x3000 grids whose root settles nearly every cell and whose
    # search then times out, the path's log read after it: above 72, so 70 with the engine's 12.)
    STEP_LOG_BYTES_PER_CELL = 70
    # LalaFrogKK's slot (``lalafrog_after``, on by default) is one more fork of the root: its
    # grid and probing's scratch grids, 2.9-4.6 bytes a cell more at peak on 4 M to 100 M
    # cells, and with the step log its copy of the root's log rows, 27-28 more
    # (benchmarks/log/2026-11-27-tidy-7.md; tests/native/test_slot_memory.py holds a
    # search to the sum).  Declared, so the slot runs at any size under the one budget; a
    # budget that holds the search but not the slot beside it switches the slot off (_slot_bytes).
    SLOT_BYTES_PER_CELL = 5
    SLOT_STEP_LOG_BYTES_PER_CELL = 28
    # The colour engine (its colour sets, the root's copy, probing's scratch, the solution in
    # Python): 78, 240, 583 MB peak solving 1, 4, 9 M cells of a banded 3-colour picture, 69
    # bytes a cell more from 4 to 9 M (benchmarks/log/2026-11-26-limits-5.md). Its step log (bytes a step in Python,
    # 16 a cell narrowed in the engine): explain adds 92-102 bytes a cell on stripes of 3 and 6 colours, 124-132 with
    # 40-byte rows (benchmarks/log/2026-11-27-follow-16.md; tests/colour/test_log_memory.py holds it to the sum).
    COLOUR_BYTES_PER_CELL = 70
    COLOUR_STEP_LOG_BYTES_PER_CELL = 50
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.PROGRESS,
                              Capability.STEPS, Capability.REMAINDER, Capability.COLOUR, Capability.BATCH})
    OPTIONS = (
        Option("probing", "choice", "full", "probing between line propagation and search",
               choices=tuple(p.value for p in Probing)),
        Option("line", "choice", "dp", "the line strategy (dp is complete; the others leave more to search)",
               choices=tuple(STRATEGIES)),
        Option("line_cap", "int", DEFAULT_ENUMERATE_CAP, "enumerate only: placements one line solve may try",
               minimum=1),
        Option("cache_bytes", "int", 32 << 20, "memory for the line cache (0 disables it)", minimum=0),
        Option("node_limit", "int", None, "stop after this many search nodes (reported as timeout)",
               minimum=1, optional=True, spends="nodes"),
        Option("record_steps", "bool", False, "keep the step log up to the first solution"),
        Option("batch_slice", "float", 0.05, "solve_many: seconds the compiled batch entry gives one puzzle "
               "before the ordinary solve takes it over", minimum=0),
        Option("restarts", "bool", True, "alternate the two search styles (off: probe_depth, deep_sweeps)",
               experimental=True),
        Option("probe_depth", "int", 1 << 30, "without restarts: deeper nodes only propagate", minimum=0,
               experimental=True),
        Option("deep_sweeps", "int", 1 << 30, "without restarts: probing sweeps per node below the root",
               minimum=0, experimental=True),
        Option("threads", "int", None, "threads for the root's line propagation of large grids (none: the "
               "cores available); the answers are the same on any number", minimum=1, maximum=256, optional=True),
        Option("branching", "choice", "wu", "the branching rule over each cell's two probing gains: wu "
               "(sqrt(max/(min+1)) + min) or lalafrog (LalaFrogKK's min + 1.85 ln(1 + max - min))",
               choices=BRANCHING),
        Option("lalafrog_after", "int", LALAFROG_AFTER, "add a search style branching by LalaFrogKK's score "
               "once the first has searched this many nodes, given as many nodes as the first (none: not added)",
               minimum=0, optional=True),
    )
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    probing: Probing
    line: LineStrategy
    line_cap: int
    cache_bytes: int
    node_limit: int | None
    record_steps: bool
    batch_slice: float
    restarts: bool
    probe_depth: int
    deep_sweeps: int
    threads: int | None
    branching: str
    lalafrog_after: int | None
    PROGRAMMATIC = ("progress", "observer")
    # The engine skips probes that would learn nothing again (the same search, fewer
    # trials); off only to measure that against the search without it (benchmarks.native_ab).
    _skip_probes = True
    # Option values that make a different solver (the default "dp" is the plain
    # backend), each held to the whole contract suite: see nonolab.solvers.specs.
    VARIANTS = {"line": tuple(name for name in STRATEGIES if name != "dp"), "branching": ("lalafrog",)}

    def __init__(self, *, progress: Callable[[int, int], None] | None = None,
                 observer: SearchObserver | None = None, **options: Any):
        settle(self, options)
        self.probing = Probing(self.probing)
        self.line = line_strategy(self.line)
        self.progress = progress
        self.observer = observer

    def memory_per_cell(self, puzzle: Puzzle) -> int:
        """The memory this engine declares a cell of ``puzzle`` costs (held to the budget by
        ``accept``): the colour or the black-and-white engine's, the step log's when it
        keeps one, and LalaFrogKK's slot's when it may run and fits (options: so declared per
        instance, not read off the class; the colour engine runs no slot).

        >>> p = Puzzle(rows=((1,),), columns=((1,),))
        >>> NativeSolver().memory_per_cell(p), NativeSolver(record_steps=True).memory_per_cell(p)
        (17, 115)
        >>> NativeSolver(lalafrog_after=None).memory_per_cell(p)
        12
        """
        log = self.STEP_LOG_BYTES_PER_CELL if self.record_steps else 0
        if puzzle.is_colour:
            return self.COLOUR_BYTES_PER_CELL + (self.COLOUR_STEP_LOG_BYTES_PER_CELL if log else 0)
        return self.BYTES_PER_CELL + log + self._slot_bytes(puzzle, self.BYTES_PER_CELL + log)

    def _slot_bytes(self, puzzle: Puzzle, rest: int) -> int:
        """LalaFrogKK's slot's bytes a cell on ``puzzle`` beside the search's ``rest``; 0 when it is
        off, or when the budget holds the search but not the slot: a speed-up, not another answer
        (one more complete search of the same space), it then gives way rather than refuse the run."""
        if self.lalafrog_after is None:
            return 0
        from nonolab.solvers.size import fits_memory
        slot = self.SLOT_BYTES_PER_CELL + (self.SLOT_STEP_LOG_BYTES_PER_CELL if self.record_steps else 0)
        return slot if fits_memory(puzzle, rest + slot) else 0

    def solve_many(self, puzzles: Iterable[Puzzle], limits: Limits = Limits(),
                   rest: Callable[[Puzzle, Limits], SolveResult] | None = None) -> Iterator[Any]:
        """Each puzzle's result, in order, as :meth:`solve` gives it (or the library error
        that stopped it, in its place), many puzzles a call into the compiled core
        (:mod:`nonolab.solvers.native.many`); ``rest`` answers what the batch entry leaves
        (default :meth:`solve`)."""
        from nonolab.solvers.native.many import solve_many
        return solve_many(self, puzzles, limits, rest)

    def _space(self, puzzle: Puzzle, given: bytes | None) -> Any:
        """A fresh search of ``puzzle`` from the given cells."""
        from nonolab.solvers.native.search import SearchSpace
        return SearchSpace(puzzle, self.cache_bytes, given, self.probing.value, self.line.code, self.line_cap,
                           self.record_steps, threads=self.threads or available_cores(),
                           branching=self.branching, skip_probes=self._skip_probes)

    @staticmethod
    def probings(puzzle: Puzzle) -> tuple[Probing, ...]:
        """The probing levels this engine runs on ``puzzle`` (colour: up to ``full``).

        >>> [p.value for p in NativeSolver.probings(Puzzle(rows=((1,),), columns=((1,),)))]
        ['none', 'contradiction', 'full', 'depth-2']
        """
        if puzzle.is_colour:
            return (Probing.NONE, Probing.CONTRADICTION, Probing.FULL)
        return tuple(Probing)

    @property
    def line_complete(self) -> bool:
        """Whether the line strategy fixes every forced cell (only ``dp`` does)."""
        return self.line.complete

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Search ``puzzle`` within ``limits``.

        Args:
            given: its cells are set before the root; the solutions (and the count)
                are those that agree with them.
        """
        if puzzle.is_colour:   # the colour engine (its line solver is always the complete DP)
            from nonolab.solvers.native.colour import solve_colour
            if self.probing not in self.probings(puzzle):
                raise InvalidArgument(f"backend 'native': {self.probing.value} probing covers black-and-white "
                                      "puzzles only (colour: none, contradiction, full)")
            return solve_colour(self.name, puzzle, limits, accept(self, puzzle, given), self.node_limit,
                                self.probing.level, self.record_steps)
        watch = Budget.of(limits)
        start = _given(puzzle, accept(self, puzzle, given).cells)
        first = self._space(puzzle, start)
        # A cancel that says when it is set stops the engine inside its slice.
        unsubscribe = [when_set(limits.cancel, first.interrupt)]
        try:
            return self._search(puzzle, limits, watch, start, first, unsubscribe)
        finally:
            for undo in unsubscribe:
                undo()

    def _search(self, puzzle: Puzzle, limits: Limits, watch: Budget, given: bytes | None, first: Any,
                unsubscribe: list[Callable[[], None]]) -> SolveResult:
        """The search of :meth:`solve` from its ``first`` space (forks subscribe to the cancel too)."""
        styles = list(_STYLES) if self.restarts else [(self.probe_depth, self.deep_sweeps)]
        rest = self.BYTES_PER_CELL + (self.STEP_LOG_BYTES_PER_CELL if self.record_steps else 0)
        slot_after = self.lalafrog_after if self._slot_bytes(puzzle, rest) else None   # (within the budget)
        turns = len(styles) + (slot_after is not None)  # the styles, then LalaFrogKK's slot
        spaces = [first]
        # Under a time limit the search ends early enough to check what it finds (checks.py).
        checks = Checks(puzzle, self.name)
        search_end = checks.search_end(watch, limits, 0)
        found: dict[bytes, Solution] = {}  # verified as each slice ends, inside the clock
        w = puzzle.width
        steps = None
        complete = limited = done = dropped = False
        observer = self.observer or QUIET
        handed = observer.hand_off_after is None
        rooted = not observer.follows_root
        stuck = not observer.follows_propagation
        began = time.perf_counter()
        fork_after = _FORK_PER_CELL * puzzle.width * puzzle.height
        searched = 0.0  # seconds the first style's runs spent below the root (verifying excluded)
        alarm_at = None if observer.alarm_after is None else began + observer.alarm_after
        while not done:
            for index in range(turns):
                in_slot = index == len(styles)
                probe_depth, deep_sweeps = styles[0] if in_slot else styles[index]
                if index == len(spaces):
                    if first.nodes <= 1:
                        break  # no second style until the first one branches: line-solvable puzzles end at the root
                    if in_slot and first.nodes < slot_after:
                        break
                    if fork_after > _SLICE and searched < fork_after:
                        break  # (below 2.5 M cells, the copy costs less than a slice: at once)
                    spaces.append(first.fork_root("lalafrog" if in_slot else None))
                    unsubscribe.append(when_set(limits.cancel, spaces[-1].interrupt))
                space = spaces[index]
                nodes = sum(sp.nodes for sp in spaces)
                budget = None if self.node_limit is None else self.node_limit - nodes
                # A turn's own node budget (the slot's catch-up, the lone first style's
                # doubling turns beside it); spending it does not end the search.
                turn = None
                if in_slot:
                    turn = first.nodes - space.nodes
                    if turn <= 0:
                        continue
                elif slot_after is not None and len(styles) == 1:
                    turn = slot_after - first.nodes if first.nodes < slot_after else max(1, first.nodes // 4)
                if turn is not None and (budget is None or turn < budget):
                    budget = turn
                else:
                    turn = None
                # With a hand-off (or the root's end) to report, the root runs alone (one node), so
                # that the call follows the end of its probing at once.
                root_only = not (handed and rooted and stuck) and space is first and not first.root_done()
                if root_only:
                    budget = 1 if budget is None else min(budget, 1)
                deadline = search_end
                if (len(styles) > 1 and not in_slot) or not handed:
                    slice_end = time.perf_counter() + _SLICE
                    deadline = slice_end if deadline is None else min(deadline, slice_end)
                if alarm_at is not None:
                    deadline = alarm_at if deadline is None else min(deadline, alarm_at)
                watching = not stuck and space is first
                if watching:
                    # Slices that double: the call comes at most twice the propagation's
                    # time late, after a few returns to Python (a 200x200 grid: 7).
                    now = time.perf_counter()
                    short = now + max(_STUCK_SLICE, now - began)
                    deadline = short if deadline is None else min(deadline, short)
                run_began = time.perf_counter()
                run = space.run(limits.max_solutions, deadline, budget, probe_depth, deep_sweeps,
                                self.progress if space is first else None, watch.cancelled, search_end)
                if run.steps_cut:  # the step log could not be read within the limit: stopped by it
                    return self._cut(puzzle, limits, watch, spaces, sound=not (found or run.solutions))
                if space is first and first.nodes > 1:
                    searched += time.perf_counter() - run_began
                if steps is None and run.solutions:
                    steps = run.steps
                # Verify what this slice found now, not after the search: a count finds
                # solutions faster than they are checked, and the limit must cover both.
                fresh = [cells for cells in dict.fromkeys(run.solutions) if cells not in found]
                checked, all_checked = checks.check(fresh, lambda cells: Solution.from_states(cells, w), watch)
                found.update(checked)
                # The spaces went past the solutions left unchecked: no remainder holds them.
                dropped = dropped or not all_checked
                search_end = checks.search_end(watch, limits, len(found))
                # An exhausted search has seen every solution, so the union is all of them
                # (when all were checked in time).
                complete = run.complete and all_checked
                past = search_end is not None and time.perf_counter() >= search_end
                out_of_nodes = run.limited and not run.timed_out and (
                    not (root_only or turn) or sum(sp.nodes for sp in spaces) >= (self.node_limit or 1 << 62))
                limited = not complete and (past or watch.cancelled() or out_of_nodes)
                enough = limits.max_solutions is not None and len(found) >= limits.max_solutions
                done = complete or limited or enough
                if done:
                    break
                if not stuck and first.propagated():
                    stuck = True
                    grid = _narrowest(puzzle, spaces)
                    if UNKNOWN in grid.cells:  # (probing may have settled the rest in this slice)
                        observer.stuck(grid)
                if not rooted and first.root_done():
                    rooted = True
                    observer.rooted(_narrowest(puzzle, spaces))
                rang = alarm_at is not None and time.perf_counter() >= alarm_at
                if rang:
                    alarm_at = None
                    observer.alarm()
                if not handed and observer.hand_off_due(watch.elapsed(), first.root_done):
                    handed = True
                    observer.hand_off(_narrowest(puzzle, spaces))
                    if watch.cancelled():  # the hand-off stopped this search
                        limited = done = True
                        break
                if watching or root_only or (rang and space is first):
                    # A slice cut short to follow the root (its propagation's end, its
                    # one node) is not the first style's turn: the first style goes on
                    # before the next one gets a slice.  (Else a cut that fell after the
                    # root's first branch sent a puzzle native settles in 4 ms with 7
                    # nodes to the second style for a whole slice: 2,175 nodes.)  So is a
                    # slice the alarm cut.
                    break
        solutions = tuple(found.values())
        if limits.max_solutions is not None:
            dropped = dropped or len(solutions) > limits.max_solutions
            solutions = solutions[:limits.max_solutions]
        counts = [sp.counters() for sp in spaces]
        s = {key: sum(c[key] for c in counts) for key in counts[0]}
        s["max_depth"] = max(c["max_depth"] for c in counts)
        solves, hits = s["line_solves"], s["cache_hits"]
        counters = {
            "line_solves": solves,
            "cache_hits": hits,
            "cache_hit_rate": round(hits / (solves + hits), 4) if solves + hits else 0.0,
            "propagation_rounds": s["propagation_rounds"],
            "probes": s["probes"],
            "probes_skipped": s["probes_skipped"],
            "nodes": s["nodes"],
            "max_depth": s["max_depth"],
            "styles": len(spaces),
            "slot_nodes": spaces[len(styles)].nodes if len(spaces) > len(styles) else 0,
        }
        if steps is None and self.record_steps:
            from nonolab.solvers.native.search import StepLogCut
            try:
                steps = first.steps(search_end, watch.cancelled)
            except StepLogCut:
                return self._cut(puzzle, limits, watch, spaces, sound=not found)
        if steps and self.line.labelled:
            from nonolab.solvers.native.lines import label_steps
            steps = label_steps(puzzle, steps, self.line, given, self.line_cap)
        # Each style's open space is valid alone: hand on the narrower one, built only
        # when someone reads it (a count stopped at its limit usually is not asked); none
        # when a solution the spaces passed is not listed (audit 14: it left them out).
        remainder = None if complete or dropped else (lambda: _narrowest(puzzle, spaces))
        return finish(self.name, puzzle, limits, watch, solutions, complete, counters, tuple(steps or ()),
                      remainder, checked=True)

    def _cut(self, puzzle: Puzzle, limits: Limits, watch: Budget, spaces: list[Any], sound: bool) -> SolveResult:
        """A search whose step log the limit cut: stopped by it (timeout, or interrupted),
        without solutions or steps (what it found is not what was asked: the steps to it);
        its remainder only when ``sound`` (the spaces found no solution, which it would leave out)."""
        counters = {"nodes": sum(sp.nodes for sp in spaces), "styles": len(spaces), "step_log_cut": 1}
        return finish(self.name, puzzle, limits, watch, (), False, counters, (),
                      (lambda: _narrowest(puzzle, spaces)) if sound else None, checked=True)

    def implications(self, puzzle: Puzzle, grid: Grid, max_pairs: int = 1 << 21) -> tuple[Implication, ...]:
        """What propagation derives from each value of each unknown cell of ``grid``.

        ``grid`` is a partial grid (e.g. a result's ``remainder``).  Returns
        implications ``((r, c, a), (q, d, b))``: with ``grid``, cell ``(r, c)`` with
        value ``a`` implies cell ``(q, d)`` with value ``b`` (0 empty, 1 filled; a cell
        implying its own other value marks a value that leads to a contradiction).
        Each holds in every solution that agrees with ``grid``; at most ``max_pairs``.

        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
        >>> NativeSolver().implications(p, Grid(2, 2))[:2]
        (((0, 0, 0), (0, 1, 1)), ((0, 0, 0), (1, 0, 1)))
        """
        if (grid.height, grid.width) != (puzzle.height, puzzle.width):
            raise InvalidArgument(f"NativeSolver.implications: a {grid.width}x{grid.height} grid for a "
                                  f"{puzzle.width}x{puzzle.height} puzzle")
        space = self._space(puzzle, bytes(grid.cells))
        w = puzzle.width
        # The engine's rows are (cell, state, cell, state) with states 1 empty, 2 filled.
        return tuple(((p // w, p % w, a - 1), (q // w, q % w, b - 1)) for p, a, q, b in space.implications(max_pairs))


def _narrowest(puzzle: Puzzle, spaces: list[Any]) -> Grid:
    """The open space with the fewest unknown cells, as a grid."""
    cells = min((sp.remainder() for sp in spaces), key=lambda cells: cells.count(3))
    return Grid(puzzle.height, puzzle.width, cells)


def _given(puzzle: Puzzle, cells: Mapping[tuple[int, int], int]) -> bytes | None:
    """Given cells (already checked) as the engine's partial grid of state masks (2
    filled, 1 empty, 3 unknown); ``None`` when there are none."""
    if not cells:
        return None
    w = puzzle.width
    grid = bytearray([3]) * (puzzle.height * w)
    for (r, c), value in cells.items():
        grid[r * w + c] = 2 if value else 1
    return bytes(grid)
