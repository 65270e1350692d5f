"""The ``auto`` strategy: native propagation and probing first, then clause learning.

Most published puzzles fall to line logic and probing in milliseconds, where a CDCL
solver pays for building its model; a few (9-Dom, Sierp, Gettys, random grids near
the phase transition) defeat any search without learning.  ``auto`` runs the native
solver within a small budget and, if it has not finished, hands what is left to a
CDCL backend (CP-SAT by default, CaDiCaL with ``cdcl="cnf"``, the lcg engine with ``cdcl="lcg"``):

* every cell the native solver proved for the unexplored space (its ``remainder``:
  root propagation and probing, plus the branches it exhausted) is fixed;
* optionally (``probe_clauses``), what probing derives from each value of each open
  cell is added as binary clauses;
* the CDCL backend counts in that space with blocking clauses on the cells, and its
  solutions join those the native search already found.  Both sets are verified, so
  the count stays exact when the CDCL search is exhausted;
* by default (``race``) the native search keeps going on the other core meanwhile
  (the CDCL backend runs in a thread), and whichever of the two finishes first
  cancels the other (``Limits.cancel``).

Colour puzzles go whole to the first CDCL backend that declares
:attr:`~nonolab.solvers.base.Capability.COLOUR` (``cdcl`` first, then the others in
:data:`CDCL_BACKENDS` order: CP-SAT by default), decided by declared capabilities.  The
native colour engine is faster on the generated colour sets, whose random pictures have
many solutions found at once (benchmarks/RESULTS.md), but it has no probing and no
hand-off to clause learning yet, so a colour puzzle that needs deep search would have no
fallback: CP-SAT answers them all.

Backends are reached through the registry only: ``auto`` is a strategy over
backends, not a backend of its own kind.

>>> from nonolab.core import Puzzle
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = AutoSolver().solve(p, Limits(max_solutions=None))
>>> result.count, result.complete, result.stats.counters["phase"]
(2, True, 'native')
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from nonolab.core.grid import Grid, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers import capabilities_of, get, options_of
from nonolab.solvers.base import (Capability, Given, Limits, SolveResult, Stats, Status, Stopwatch, accept,
                                  Implication, finish, left)
from nonolab.solvers.size import model_states
from nonolab.solvers.options import Option
from nonolab.solvers.steps import Step, Technique

CDCL_BACKENDS = ("cpsat", "cnf", "lcg")
# Hand over no model beyond this many automaton states (cpsat's own guard): past it a
# second model costs more memory than the race can win back (issue 13).
HANDOFF_MAX_STATES = 5_000_000
# The statuses of a search that stopped before its end.
_STOPPED = (Status.TIMEOUT, Status.INTERRUPTED)
# How long the answer waits for the other part of a race once native has stopped: a
# CDCL part that finished first has already stored its answer and is ending; a loser
# is asked to stop and left behind, not awaited (CP-SAT may take 0.2-0.45 s to stop).
_JOIN = 0.1


class AutoSolver:
    """Native first; past ``native_budget`` seconds, a CDCL backend on the rest.

    Args:
        cdcl: the backend that takes over, ``"cpsat"`` (default), ``"cnf"`` or ``"lcg"``.
        native_budget: seconds the native solver may spend before the hand-off.
        probe_clauses: also pass probing's implications as binary clauses.
        fix_cells: pass the native solver's proven cells to the CDCL backend
            (``False`` hands over the bare puzzle: for the benchmarks).
        record_steps: keep the step log (native steps, then one ``cdcl`` step).
        progress: forwarded to the native solver (progress bars on huge grids).
        native_options / cdcl_options: options of the two backends.
        probing: the native phase's probing (``full``, ``contradiction``, ``none``).
        line: the native phase's line strategy (``dp``, ``chain-range``, ``overlap``,
            ``enumerate``; see ``NativeSolver``).
        race: after the hand-off, keep the same native search going on the other
            core (a thread: the compiled engine and both CDCL libraries release the
            GIL) and take whichever finishes first; the other is cancelled.  Native wins
            where probing prunes well (Marley, Nature), CDCL where learning is
            needed (9-Dom, Sierp).  ``False``: CDCL alone after the hand-off.

    A puzzle whose model is beyond what the CDCL backend holds (its ``max_states``,
    see :func:`~nonolab.solvers.size.model_states`) is never handed over: native
    searches it alone (a 2000x2000 CP-SAT model takes gigabytes before it starts).
    """

    name = "auto"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.PROGRESS,
                              Capability.STEPS, Capability.REMAINDER, Capability.COLOUR})
    OPTIONS = (
        Option("cdcl", "choice", "cpsat", "the backend that takes over", choices=CDCL_BACKENDS),
        Option("native_budget", "float", 0.5, "seconds of native search before the hand-off", minimum=0),
        Option("race", "bool", True, "keep native searching after the hand-off; the first to finish wins"),
        Option("probe_clauses", "bool", False, "also hand probing's implications over as clauses"),
        Option("fix_cells", "bool", True, "hand over the cells native proved (off: the bare puzzle)"),
        Option("probing", "choice", None, "the native phase's probing (unset: native's default)",
               choices=lambda: _native_choices("probing"), optional=True),
        Option("line", "choice", None, "the native phase's line strategy (unset: dp)",
               choices=lambda: _native_choices("line"), optional=True),
        Option("record_steps", "bool", False, "keep the step log (native steps, then one cdcl step)"),
        Option("handoff_max_states", "int", HANDOFF_MAX_STATES,
               "hand over only models up to this many automaton states (none: any size)", minimum=1,
               optional=True),
    )
    PROGRAMMATIC = ("progress", "native_options", "cdcl_options")

    def __init__(self, cdcl: str = "cpsat", native_budget: float = 0.5, probe_clauses: bool = False,
                 fix_cells: bool = True, record_steps: bool = False,
                 progress: Callable[[int, int], None] | None = None,
                 native_options: dict[str, Any] | None = None, cdcl_options: dict[str, Any] | None = None,
                 probing: str | None = None, race: bool = True, line: str | None = None,
                 handoff_max_states: int | None = HANDOFF_MAX_STATES):
        if cdcl not in CDCL_BACKENDS:
            raise ValueError(f"AutoSolver: cdcl must be one of {', '.join(CDCL_BACKENDS)}, not {cdcl!r}")
        if probe_clauses and Capability.IMPLICATIONS not in capabilities_of(cdcl):
            takers = [name for name in CDCL_BACKENDS if Capability.IMPLICATIONS in capabilities_of(name)]
            raise InvalidArgument(f"backend 'auto': option probe_clauses=true needs cdcl={' or '.join(takers)}, "
                                  f"not {cdcl} (it takes given cells only)")
        self.handoff_max_states = handoff_max_states
        if not native_budget >= 0:
            raise ValueError(f"AutoSolver: native_budget must be a non-negative number, not {native_budget!r}")
        self.cdcl = cdcl
        self.native_budget = float(native_budget)
        self.probe_clauses = bool(probe_clauses)
        self.fix_cells = bool(fix_cells)
        self.record_steps = bool(record_steps)
        self.progress = progress
        self.race = bool(race)
        self.native_options = dict(native_options or {})
        if probing is not None:
            self.native_options["probing"] = probing
        if line is not None:
            self.native_options["line"] = line
        self.cdcl_options = dict(cdcl_options or {})

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Search ``puzzle`` within ``limits``; ``given`` as for the backends: only the
        solutions that agree with its cells are counted."""
        watch = Stopwatch.of(limits)
        given = accept(self, puzzle, given)
        if puzzle.is_colour:
            return self._colour(puzzle, limits, watch, given)
        _warm_up(self._native())
        # A zero budget still lets native start (its first slice), so tests can force the hand-off.
        budget = max(self.native_budget, 1e-9)
        if not self._fits(puzzle):
            first = self._native().solve(puzzle, left(limits, watch), given)
            result = SolveResult(first.status, first.solutions, first.complete,
                                 self._stats(watch, "native", first, None, {}), first.steps, first.remainder)
            result.stats.counters["handoff"] = "refused: model too large for " + self.cdcl
            return result
        if self.race:
            return self._race(puzzle, limits, watch, budget, given)
        native = self._native()
        if limits.time_limit is not None:
            budget = min(budget, limits.time_limit)
        first = native.solve(puzzle, Limits(limits.max_solutions, budget, limits.cancel), given)
        if first.status not in _STOPPED or first.remainder is None or watch.expired():
            # Native finished (or the user's own limit ran out): its answer is the answer.
            return SolveResult(first.status, first.solutions, first.complete,
                               self._stats(watch, "native", first, None, {}), first.steps)
        second, handed = self._cdcl(puzzle, first.remainder, given, left(limits, watch))
        return self._merge(puzzle, limits, watch, first, second, first.remainder, handed, f"native+{self.cdcl}")

    def _colour(self, puzzle: Puzzle, limits: Limits, watch: Stopwatch, given: Given) -> SolveResult:
        """A colour puzzle, whole, on the first CDCL backend that declares colour."""
        if self.record_steps:
            raise InvalidArgument("backend 'auto' records no steps for colour puzzles (they go to "
                                  "a CDCL backend)")
        order = [self.cdcl] + [name for name in CDCL_BACKENDS if name != self.cdcl]
        name = next((n for n in order if Capability.COLOUR in capabilities_of(n)), None)
        if name is None:
            raise InvalidArgument("backend 'auto': no installed backend solves colour puzzles")
        options = self.cdcl_options if name == self.cdcl else {}
        result = get(name, **options).solve(puzzle, left(limits, watch), given)
        stats = Stats(self.name, watch.elapsed(), {**result.stats.counters, "phase": name})
        return SolveResult(result.status, result.solutions, result.complete, stats, result.steps)

    def _fits(self, puzzle: Puzzle) -> bool:
        """Whether the CDCL backend can hold this puzzle's model (its own ``max_states``)."""
        limits = [getattr(get(self.cdcl, **self.cdcl_options), "max_states", None), self.handoff_max_states]
        states = model_states(puzzle)
        return all(limit is None or states <= limit for limit in limits)

    def _native(self, **extra: Any) -> Any:
        return get("native", record_steps=self.record_steps, progress=self.progress, **self.native_options, **extra)

    def _cdcl(self, puzzle: Puzzle, remainder: Grid, given: Given,
              limits: Limits) -> tuple[SolveResult, dict[str, int]]:
        """The CDCL backend on the space ``remainder`` describes."""
        # The remainder includes the caller's given cells.
        handed = Given.from_grid(remainder) if self.fix_cells else Given(given.cells)
        if self.probe_clauses:
            start = remainder if self.fix_cells else Grid(puzzle.height, puzzle.width)
            handed = Given(handed.cells, _distinct(get("native").implications(puzzle, start)))
        result = get(self.cdcl, **self.cdcl_options).solve(puzzle, limits, handed)
        return result, {"handoff_fixed_cells": len(handed.cells), "handoff_clauses": len(handed.implications)}

    def _race(self, puzzle: Puzzle, limits: Limits, watch: Stopwatch, budget: float,
              given: Given) -> SolveResult:
        """Native runs on; past ``budget`` it hands its remainder to CDCL in a thread
        (the compiled engine and both CDCL libraries release the GIL, so each gets a
        core) and the first of the two to finish cancels the other."""
        stop_native: Any = threading.Event()
        stop_cdcl: Any = threading.Event()
        if limits.cancel is not None:  # the caller's own cancel stops both
            stop_native, stop_cdcl = _Either(stop_native, limits.cancel), _Either(stop_cdcl, limits.cancel)
        box: dict[str, Any] = {}

        def run_cdcl(remainder: Grid, part: Limits) -> None:
            try:
                box["result"] = self._cdcl(puzzle, remainder, given, part)
            except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller's thread
                box["error"] = exc
            finally:
                stop_native.set()

        def handoff(remainder: Grid) -> None:
            box["remainder"] = remainder
            # Not a daemon: a loser left behind (asked to stop, not awaited) is joined by
            # the interpreter at exit; a daemon thread still inside OR-tools when the
            # process ends aborts it ("terminate called without an active exception").
            box["thread"] = threading.Thread(target=run_cdcl, args=(remainder, left(limits, watch, stop_cdcl)), daemon=False,
                                             name="nonolab-auto-cdcl")
            box["thread"].start()

        native = self._native(handoff=handoff, handoff_after=budget)
        try:
            first = native.solve(puzzle, left(limits, watch, stop_native), given)
        finally:
            stop_cdcl.set()
            if "thread" in box:
                # The CDCL part was told to stop; an answer does not wait on it for long,
                # and not at all once the caller's time is up.
                box["thread"].join(0 if watch.expired() else _JOIN)
        if "error" in box:
            raise box["error"]
        if "result" not in box:  # no hand-off, or a CDCL part that is still stopping
            result = SolveResult(first.status, first.solutions, first.complete,
                                 self._stats(watch, "native", first, None, {}), first.steps, first.remainder)
            if "thread" in box:  # handed over, but the answer is native's alone
                result.stats.counters.update(phase=f"native+{self.cdcl} race", winner="native",
                                             cdcl_left_running=True)
            return result
        second, handed = box["result"]
        result = self._merge(puzzle, limits, watch, first, second, box["remainder"], handed,
                             f"native+{self.cdcl} race")
        # Whoever finished first stopped the other, which then reports INTERRUPTED.
        result.stats.counters["winner"] = ("native" if first.status not in _STOPPED
                                           else self.cdcl if second.status not in _STOPPED else None)
        return result

    def _merge(self, puzzle: Puzzle, limits: Limits, watch: Stopwatch, first: SolveResult, second: SolveResult,
               remainder: Grid, handed: dict[str, int], phase: str) -> SolveResult:
        """Native's answer and the CDCL answer on the remainder, as one.

        Every solution is real, so the union is; it is all of them when the CDCL search
        of the remainder was exhausted (native had exhausted the rest before the
        hand-off, and kept what it found there) or when native exhausted everything.
        """
        merged = list(dict.fromkeys(first.solutions + second.solutions))
        cap = limits.max_solutions
        enough = cap is not None and len(merged) >= cap
        complete = (first.complete or second.complete) and (cap is None or len(merged) <= cap)
        solutions = merged[:cap] if cap is not None else merged
        steps: tuple = ()
        if self.record_steps:
            if first.complete:
                steps = first.steps
            else:
                root = tuple(s for s in first.steps if s.depth == 0)  # the native deductions, not its guesses
                steps = root + _cdcl_step(self.cdcl, root, solutions, puzzle.width)
        stats = self._stats(watch, phase, first, second, handed)
        return finish(self.name, puzzle, limits, watch, solutions, complete, stats.counters, steps, remainder)

    def _stats(self, watch: Stopwatch, phase: str, first: SolveResult, second: SolveResult | None,
               handed: dict[str, int]) -> Stats:
        counters: dict[str, Any] = {"phase": phase, "native_time": round(first.stats.wall_time, 6)}
        counters.update({f"native_{k}": v for k, v in first.stats.counters.items()})
        if second is not None:
            counters.update({"cdcl": self.cdcl, "cdcl_time": round(second.stats.wall_time, 6), **handed,
                             "native_solutions": len(first.solutions), "cdcl_solutions": len(second.solutions)})
            counters.update({f"{self.cdcl}_{k}": v for k, v in second.stats.counters.items()})
        return Stats(self.name, watch.elapsed(), counters)


def _native_choices(name: str) -> tuple[str, ...]:
    """The values native declares for its option ``name`` (auto passes them on)."""
    return next(option.allowed() for option in options_of("native") if option.name == name)


class _Either:
    """An event that is set when its own flag or a caller's cancel is."""

    def __init__(self, own: threading.Event, other: Any):
        self.own, self.other = own, other

    def set(self) -> None:
        self.own.set()

    def is_set(self) -> bool:
        return self.own.is_set() or self.other.is_set()


_WARM: set[str] = set()


def _warm_up(native: Any) -> None:
    """Load the compiled engine once per process, outside the native budget.

    The first native call in a process loads numba's cached machine code (0.2-0.4 s);
    counting that against the budget would hand easy puzzles to CDCL in every fresh
    ``nonolab`` process.
    """
    if "native" not in _WARM:
        native.solve(Puzzle(rows=((1,),), columns=((1,),)))
        _WARM.add("native")


def _distinct(implications: tuple[Implication, ...]) -> tuple[Implication, ...]:
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


def _cdcl_step(backend: str, before: tuple[Step, ...], solutions: tuple[Solution, ...],
               width: int) -> tuple[Step, ...]:
    """One step: the cells of the first solution that the native deductions left open."""
    if not solutions:
        return ()
    known = {(r, c) for step in before for r, c, _ in step.cells}
    flat = solutions[0].flat()
    cells = tuple((i // width, i % width, int(v)) for i, v in enumerate(flat) if (i // width, i % width) not in known)
    return (Step(Technique.CDCL, ("solver", backend), cells, 0, "decided by clause learning after the hand-off"),)
