"""What an ``auto`` strategy works with: the engines to build, the schedule, the result.

:class:`~nonolab.solvers.auto.AutoSolver` reads its options once into a
:class:`Parts`, and each strategy (:mod:`.duel`, :mod:`.solo`, :mod:`.carry_on`,
:mod:`.colour`) is a function of the puzzle and the parts: it builds native and the
learning engines through them, hands native's remainder to an engine through them, and
assembles auto's answer through them.  A strategy never reaches into the solver.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.auto import AutoSolver
>>> parts = AutoSolver(solo_side=0).parts()
>>> parts.engines[0], parts.schedule.native_budget
('lcg', 0.5)
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result, handed = parts.hand_over("lcg", p, Grid(2, 2), Given({}), Limits(max_solutions=None))
>>> result.count, handed
(2, {'handoff_fixed_cells': 0, 'handoff_clauses': 0})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers import backend_class, capabilities_of, get, build, options_of, parse_spec
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Stats, Budget, finish
from nonolab.solvers.size import model_states, model_states_at_most
from nonolab.solvers.auto.handing import cdcl_step, distinct
from nonolab.solvers.auto.reuse import fresh

__all__ = ["Parts", "Schedule", "declares", "shared", "takes_clauses"]


@dataclass(frozen=True, kw_only=True)
class Schedule:
    """When each part of the portfolio runs, and at what priority (``AutoSolver``'s
    options of the same names, in seconds and niceness); built by name, never by position."""

    native_budget: float      # native's search before the hand-off, once its root is over
    native_nodes: int         # ... when steps are recorded: native's nodes (auto.recorded)
    handoff_by: float         # the hand-off's upper bound, the root over or not
    early: bool               # the first engine may start beside native (the duel)
    early_open: float         # ... at the end of native's propagation, above this open share
    early_after: float        # ... else this long after native's start
    early_yield: float        # native pauses this long when it starts
    early_nice: int           # niceness of the early engine while native's root runs
    native_nice: int          # niceness of native beside the early engine
    rival_nice: int           # niceness of the rival engine
    rival_after: float        # the rival joins no sooner than this
    colour_rival_after: float  # a colour puzzle's first engine runs alone this long
    solo_side: int            # grids up to this side go to the first engine alone
    solo_budget: float        # ... for this long before the rival joins
    solo_find_budget: float   # ... or this long when one solution is asked for
    count_relay: bool         # ... and in a count, the seeded rival until a first solution (auto.relay)
    relay_early: bool         # ... joining after solo_find_budget while there is none


@dataclass(frozen=True, kw_only=True)
class Parts:
    """The engines an ``auto`` strategy builds, its schedule, and how it answers.

    Attributes:
        name: the answering solver's name (``auto``).
        engines: the learning engines' specs: the first engine, then the rival when it
            is an engine.
        rival: the rival's spec, ``"native"`` or ``"none"``.
        find_seed: when one solution is asked for, the solo path's rival is the first
            engine with this seed (:attr:`find_rival`; 0: ``rival``).
        schedule: when each part runs (:class:`Schedule`).
        fix_cells / rival_fix_cells: hand native's proven cells to the first engine / to
            the rival (else the bare puzzle).
        probe_clauses: also hand probing's implications to engines that take clauses.
        record_steps: keep the step log (native writes it).
        handoff_max_states: the largest model handed over (``None``: any).
        progress: native's progress callback.
        native_options / engine_options: options of native and of the first engine.

    Built by name (keywords only), as ``AutoSolver.parts()`` does.
    """

    name: str
    engines: tuple[str, ...]
    rival: str
    schedule: Schedule
    find_seed: int = 0
    fix_cells: bool = True
    rival_fix_cells: bool = True
    probe_clauses: bool = False
    record_steps: bool = False
    handoff_max_states: int | None = None
    progress: Callable[[int, int], None] | None = None
    native_options: Mapping[str, Any] = field(default_factory=dict)
    engine_options: Mapping[str, Any] = field(default_factory=dict)
    # What follows from the fields alone, computed at its first use (model_bounds,
    # engine_class, auto's memory a route): Parts are shared by the solvers of equal
    # options (AutoSolver.parts), so a fresh solver a puzzle does not pay for it again.
    known: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def first(self) -> str:
        """The first engine's spec (``cdcl``)."""
        return self.engines[0]

    @property
    def find_rival(self) -> str | None:
        """The rival's spec on the solo path when one solution is asked for: the first
        engine with ``seed=find_seed`` (its options besides), or ``None`` (``find_seed`` 0)."""
        return f"{self.first}{',' if ':' in self.first else ':'}seed={self.find_seed}" if self.find_seed else None

    # The engines to build.

    def native(self, observer: Any = None, **options: Any) -> Any:
        """Native with auto's options (and ``options``), told of its search by ``observer``
        (:class:`~nonolab.solvers.native.observer.SearchObserver`) when given.  With
        ``record_steps`` its search is reproducible: its first style alone
        (``restarts=false, deep_sweeps=1``), not two styles in time slices, so that the
        step log does not follow the machine's load (:mod:`.recorded`)."""
        extra = {} if observer is None else {"observer": observer}
        steady = {"restarts": False, "deep_sweeps": 1} if self.record_steps else {}
        chosen = {**steady, **self.native_options, **options}
        return get("native", record_steps=self.record_steps, progress=self.progress, **chosen, **extra)

    def engine(self, spec: str) -> Any:
        """The engine ``spec`` names, with the first engine's options when it is that one:
        a new one each call, copied from the first one built when it can be (auto.reuse)."""
        if self.find_seed and spec == self.find_rival:   # the first engine, its options, another seed
            return fresh(self.known, ("engine", spec),
                         lambda: build(self.first, **{**self.engine_options, "seed": self.find_seed}))
        return fresh(self.known, ("engine", spec),
                     lambda: build(spec, **(self.engine_options if spec == self.first else {})))

    def engine_class(self, spec: str) -> type:
        """The class :meth:`engine` builds for ``spec``, read from the registry (once)."""
        key = ("class", spec)
        if key not in self.known:
            self.known[key] = backend_class(parse_spec(spec)[0])
        return self.known[key]

    def fits(self, puzzle: Puzzle) -> bool:
        """Whether every engine can hold this puzzle's model (:meth:`model_bounds`): by the
        grid's size when that bounds the model within them all (a 25x25 grid's at most
        9,737 states), else by the model's exact size."""
        if "bound" not in self.known:
            self.known["bound"] = min((b for b in self.model_bounds() if b is not None), default=None)
        bound = self.known["bound"]
        return bound is None or model_states_at_most(puzzle) <= bound or model_states(puzzle) <= bound

    def model_bounds(self) -> list[int | None]:
        """The model sizes (automaton states) that may be handed over: ``handoff_max_states``
        and each engine's ``max_states``.  An engine is built only when its spec sets the
        bound: building cnf imports python-sat (40-60 ms), which a puzzle native settles
        must not pay."""
        bounds: list[int | None] = [self.handoff_max_states]
        for spec in self.engines:
            name, spec_options = parse_spec(spec)
            if "max_states" in spec_options or "max_states" in (self.engine_options if spec == self.first else {}):
                bounds.append(getattr(self.engine(spec), "max_states", None))
            else:
                bounds.extend(option.default for option in options_of(name) if option.name == "max_states")
        return bounds

    def hand_off_times(self) -> dict[str, float]:
        """When native hands over (its observer's ``hand_off_after`` and ``hand_off_by``):
        once its root is done and ``native_budget`` spent, or at ``handoff_by``."""
        budget = self.schedule.native_budget
        return {"hand_off_after": budget, "hand_off_by": max(self.schedule.handoff_by, budget)}

    def hand_over(self, spec: str, puzzle: Puzzle, remainder: Grid, given: Given, limits: Limits,
                  fix: bool | None = None, hold: list | None = None) -> tuple[SolveResult, dict[str, int]]:
        """Engine ``spec`` on the space ``remainder`` describes (with native's cells
        given when ``fix``, by default ``fix_cells``); an engine that takes ``hold``
        (lcg) leaves its memory there, to be freed after its answer is in.  Returns its
        result and what it was handed (counters)."""
        fix = self.fix_cells if fix is None else fix
        # The remainder includes the caller's given cells.
        handed = Given.from_grid(remainder) if fix else Given(given.cells)
        if self.probe_clauses and takes_clauses(spec):
            start = remainder if fix else Grid(puzzle.height, puzzle.width)
            native: Any = get("native")  # (implications: native's own API, beside the contract)
            handed = Given(handed.cells, distinct(native.implications(puzzle, start)))
        solver = self.engine(spec)
        if hold is not None and "hold" in getattr(type(solver), "PROGRAMMATIC", ()):
            solver.hold = hold
        result = solver.solve(puzzle, limits, handed)
        return result, {"handoff_fixed_cells": len(handed.cells), "handoff_clauses": len(handed.implications)}

    # The result.

    def native_answer(self, watch: Budget, first: SolveResult) -> SolveResult:
        """Native's own answer as auto's (its counters as ``native_*``)."""
        return first.relabelled(self.name, watch.elapsed(), self.counters("native", first, None, {}))

    def merged(self, puzzle: Puzzle, limits: Limits, watch: Budget, first: SolveResult, second: SolveResult,
               remainder: Grid, handed: dict[str, int], phase: str, engine: str | None = None) -> SolveResult:
        """Native's answer and an engine's answer on the remainder, as one.

        Every solution is real, so the union is; it is all of them when the engine's
        search of the remainder was exhausted (native had exhausted the rest before the
        hand-off, and kept what it found there) or when native exhausted everything.
        """
        merged = list(dict.fromkeys(first.solutions + second.solutions))
        cap = limits.max_solutions
        complete = (first.complete or second.complete) and (cap is None or len(merged) <= cap)
        solutions = merged[:cap] if cap is not None else merged
        steps: tuple = ()
        if self.record_steps:
            if first.complete or first.solutions:   # native's own steps lead to its first solution
                steps = first.steps
            else:
                root = tuple(s for s in first.steps if s.depth == 0)  # the native deductions, not its guesses
                steps = root + cdcl_step(engine or self.first, root, solutions, puzzle.width)
        counters = self.counters(phase, first, second, handed, engine)
        return finish(self.name, puzzle, limits, watch, solutions, complete, counters, steps, remainder)

    def counters(self, phase: str, first: SolveResult, second: SolveResult | None, handed: dict[str, int],
                 engine: str | None = None) -> dict[str, Any]:
        """Native's counters as ``native_*``; the answering engine's as ``cdcl_*`` (its
        ``conflicts`` as ``conflicts``, so that tables can show them beside the others')."""
        counters: dict[str, Any] = {"phase": phase, "native_time": round(first.stats.wall_time, 6)}
        counters.update({f"native_{k}": v for k, v in first.stats.counters.items()})
        if second is not None:
            engine = engine or self.first
            counters.update({f"cdcl_{k}": v for k, v in second.stats.counters.items()})
            counters.update({"cdcl": engine, "cdcl_time": round(second.stats.wall_time, 6), **handed,
                             "native_solutions": len(first.solutions), "cdcl_solutions": len(second.solutions)})
            if "conflicts" in second.stats.counters:
                counters["conflicts"] = second.stats.counters["conflicts"]
        return counters

    def stopped(self, watch: Budget, counters: Mapping[str, Any]) -> SolveResult:
        """No part answered: stopped by the caller's limit (timeout, or interrupted)."""
        return SolveResult(watch.stopped_status(), (), False, Stats(self.name, watch.elapsed(), dict(counters)))


def declares(spec: str, option: str) -> bool:
    """Whether the backend a spec names declares ``option``.

    >>> declares("lcg", "seed"), declares("native", "seed")
    (True, False)
    """
    return any(declared.name == option for declared in options_of(parse_spec(spec)[0]))


def takes_clauses(spec: str) -> bool:
    """Whether the engine a spec names takes implications (``probe_clauses``) besides cells."""
    return Capability.IMPLICATIONS in capabilities_of(parse_spec(spec)[0])


# Parts by the options they were read from (AutoSolver.parts): the library and the CLI
# build a solver a puzzle, and what follows from the options alone is the same for each.
_SHARED: dict[Any, Parts] = {}
_SHARED_MOST = 64   # distinct option sets kept (a sweep of options builds many)


def shared(key: Any, make: Callable[[], Parts]) -> Parts:
    """The :class:`Parts` read from the options ``key`` stands for: made by ``make`` the
    first time, the same object for every later solver of equal options (``None``, or a
    ``key`` that cannot be hashed: a fresh one each time).

    >>> a = shared(("doc", 1), lambda: Parts(name="auto", engines=("lcg",), rival="none", schedule=None))
    >>> a is shared(("doc", 1), lambda: None), a is shared(("doc", 2), lambda: a)
    (True, True)
    """
    try:
        found = _SHARED.get(key) if key is not None else None
    except TypeError:   # an option's value that cannot be hashed
        return make()
    if found is None:
        found = make()
        if key is not None:
            if len(_SHARED) >= _SHARED_MOST:
                _SHARED.clear()
            _SHARED[key] = found
    return found
