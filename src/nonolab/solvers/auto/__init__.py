"""The ``auto`` strategy: a portfolio of native propagation and two learning engines.

Most published puzzles fall to line logic and probing in milliseconds, where a CDCL
solver pays for building its model; a few (9-Dom, Sierp, Gettys, random grids near
the phase transition) defeat any search without learning, and no single learning
engine wins on all of them (lcg on the survey's hard eight, Kissat on the N-Dom
family and on half of the slowest random 25x25 grids; benchmarks/RESULTS.md).

Grids up to ``solo_side`` (127) cells a side, black and white, go to lcg alone, in
the caller's thread; after ``solo_budget`` seconds without an answer the rival joins
it on the other core (:mod:`nonolab.solvers.auto.solo`): with its phase hints lcg
settles the published puzzles, the tournament's 25x25 grids and the survey's hard
eight faster than a race, and racing costs twice the CPU on puzzles of milliseconds.
Larger grids, on the two cores (a step log, which native writes, takes a path decided by
work, not time, :mod:`nonolab.solvers.auto.recorded`):

* native propagates, probes and searches for ``native_budget`` seconds, in the
  caller's thread (:mod:`nonolab.solvers.auto.duel`); once its
  root's line propagation leaves cells open, lcg starts on the bare puzzle beside it
  (``early``; when, :mod:`nonolab.solvers.auto.early`: a line-solvable grid never
  starts it);
* once its root's probing is over and the budget spent (or at ``handoff_by`` seconds
  whatever the root's state), native stops and hands its ``remainder`` (every cell it proved for
  the space it did not exhaust: root propagation and probing, plus the branches it
  exhausted) to the ``rival`` engine, Kissat in a child process (why, and the
  fallback: :mod:`nonolab.solvers.auto.rivals`), with those cells fixed;
* the first part to answer wins; the others are told to stop (``Limits.cancel``) and
  left behind, not awaited.  Each part counts with blocking clauses on the cells and
  verifies its solutions; the union with what native found is exact when the
  winner's search was exhausted (native exhausted everything outside its remainder,
  and lcg searched the whole puzzle).

``rival="native"`` keeps the older strategy (one engine on the remainder while the
native search goes on), ``race=False`` one engine after the hand-off; any engine of
:data:`CDCL_BACKENDS` may take either part.  A model too large to hand over
(``handoff_max_states``, an engine's ``max_states``) stays with native alone.

Backends are reached through the registry only: ``auto`` is a strategy over
backends, not a backend of its own kind.

>>> from nonolab.core import Puzzle
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = AutoSolver().solve(p, Limits(max_solutions=None))
>>> result.count, result.complete
(2, True)
>>> AutoSolver().solve(Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))).stats.counters["phase"]  # small
'lcg alone'
>>> AutoSolver(solo_side=0).solve(Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))).stats.counters["phase"]
'native'
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable, Iterable, Iterator

from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.solvers import as_batching, options_of
from nonolab.solvers.base import (Capability, Given, Limits, SolveResult, Budget, accept, bytes_per_cell, left,
                                  one_by_one)
from nonolab.solvers.options import Option, settle
from nonolab.solvers.warm import warm_up
from nonolab.solvers.auto.parts import Parts, Schedule, declares, shared, takes_clauses as _takes_clauses
from nonolab.solvers.auto.colour import colour_engines, solve_colour
from nonolab.solvers.auto.carry_on import one_engine, race_native
from nonolab.solvers.auto.duel import duel
from nonolab.solvers.auto.recorded import recorded
from nonolab.solvers.auto.solo import solo, solo_fits
from nonolab.solvers.auto.rivals import default_rival
from nonolab.solvers.auto.reuse import options_key, remember, settled

# The engines that may take over (backend specs): the learning backends, and the newest CNF engines by name.
CDCL_BACKENDS = ("lcg", "cpsat", "cnf", "cnf:solver=cadical300", "cnf:solver=kissat404")
# What runs beside the first engine after the hand-off: another engine, native's own
# search carried on, or nothing.
RIVALS = CDCL_BACKENDS + ("native", "none")
# Hand over no model beyond this many automaton states (cpsat's own guard): past it a
# second model costs more memory than the race can win back (issue 13).
HANDOFF_MAX_STATES = 5_000_000
# The largest side of a grid that goes to the first engine alone (auto.solo): lcg's
# phase hints take lines of up to 127 cells.
SOLO_SIDE = 127
# One solution asked for (the tournament rule): the solo path's rival is the first engine with seed
# FIND_SEED (another draw of its luck; Kissat found first solutions slower than lcg), after SOLO_FIND_BUDGET
# CPU s: chosen on the tournament's conflict scans, checked on other sets (benchmarks/log/2026-11-28-race-21.md).
FIND_SEED = 2
SOLO_FIND_BUDGET = 0.3
# Native's nodes before the hand-off when steps are recorded (auto.recorded): enough for the
# small searches native's own steps explain (Hakank's t2: 3 nodes; Marley 35, Center 39 go
# over); its first style probes at every node, 10-25 ms a node on Gettys (99x59), so 32
# cost explain there 1.1 CPU s against 0.3 handing over at the root (1 node), and 1,000
# timed out (benchmarks/log/2026-11-27-steps-14.md).
NATIVE_NODES = 32


class AutoSolver:
    """lcg alone on grids up to ``solo_side``; on larger ones native first, and past
    ``native_budget`` seconds two engines race on the rest.

    Args:
        cdcl: the engine that takes over (a spec of :data:`CDCL_BACKENDS`); unset:
            lcg, or CP-SAT when lcg is the rival.
        rival: what races it on the other core after the hand-off: another engine
            (the two get the same remainder; the first to answer wins and the other is
            told to stop and not awaited), ``"native"`` (native's own search carries
            on) or ``"none"``; unset: Kissat beside lcg (:func:`.rivals.default_rival`),
            lcg beside any other engine (the pairs measured in benchmarks/RESULTS.md).
        native_budget: seconds the native solver may spend before the hand-off, once
            its root's propagation and probing are over (``0``: hand over as soon as
            they are).
        handoff_by: seconds by which native hands over even if its root's probing goes
            on (the upper bound of the budget).  Waiting for the root makes the
            hand-off the same on a loaded machine: the root's probing proves every cell
            the engines get (Gettys: 1,921 cells after 0.5 s of a loaded machine's
            time, 2,493 when the root ends at 2 s).
        probe_clauses: also pass probing's implications as binary clauses to the
            engines that take clauses (cpsat and cnf; lcg takes fixed cells only).
        fix_cells: pass the native solver's proven cells to the first engine
            (``False`` hands over the bare puzzle).
        rival_fix_cells: the same for the rival engine.  lcg learns more from its
            own probing of the bare puzzle on some puzzles (Thing, Marley: fewer
            conflicts) and from native's cells on others (Lion), so the two parts of a
            race may be given different starts.
        record_steps: keep the step log (native steps, then one ``cdcl`` step), on a path
            decided by work, so that the steps are the same on any machine: native's
            first search style for ``native_nodes`` nodes, then the first engine alone
            (:mod:`~nonolab.solvers.auto.recorded`; ``native_budget``, ``handoff_by``,
            the early engine and the rival then do not apply).
        native_nodes: with ``record_steps``, native's search nodes (its root the first)
            before the hand-off.
        progress: forwarded to the native solver (progress bars on huge grids).
        native_options / cdcl_options: options of native and of the first engine.
        probing: the native phase's probing (``full``, ``contradiction``, ``none``).
        line: the native phase's line strategy (``dp``, ``chain-range``, ``overlap``,
            ``enumerate``; see ``NativeSolver``).
        threads: the native phase's threads (native's ``threads``; a batch of N worker
            processes gives each its share of the cores through it).
        race: ``False``: the first engine alone after the hand-off (``rival`` unused).
        early: with a rival engine, start the first engine on the bare puzzle (its
            own probing) in a thread beside native's budget (when: ``early_open``,
            ``early_after``), not after the hand-off: an answer
            from it stops native, and a hand-off starts only the rival.  Native and
            lcg both settle most published puzzles in milliseconds; on the hard
            ones lcg then has the whole time instead of waiting for the budget.
        early_nice / native_nice / rival_nice: niceness for the early engine's thread
            while native's root runs, for native's thread once its root is over beside
            the early engine (native then runs in a thread of its own, not the caller's),
            and for the rival engine's threads (Linux schedules each
            thread with its own; 0, the defaults: unchanged).  On oversubscribed cores
            (a shared machine) a part so niced yields its core to the others; on free
            cores nothing changes.  All off by default: ``native_nice=10`` made the hard
            eight faster on a loaded machine (9-Dom 0.19 s against 0.36 s) but taai25
            slower (native's short searches lost to lcg: 46.5 s against 32.3 s on every
            tenth puzzle), and a niced engine starved beside other processes
            (benchmarks/RESULTS.md).
        rival_after: seconds from the start before the rival joins the race (never
            before the hand-off): the first engine has the cores alone until then (5:
            faster on a shared machine, benchmarks/RESULTS.md; not the default yet).
        early_open: the early engine starts as soon as native's root propagation is
            over if it left more than this share of the cells open (the survey's hard
            eight: 67-100 %; webpbn-10810 "center" 15 %, where native's search takes 38
            ms and lcg 2; the smooth grids of ``large`` at most 0.1 %); never during that propagation (a line-solvable grid ends
            there: building lcg's engine beside it doubled the time of 60x60 to 200x200
            grids).
        early_after: otherwise, seconds from native's start before the early engine
            starts (once the propagation is over).
        early_yield: seconds native pauses when the early engine starts (its answer, or
            its end, ends the pause sooner).  Two engines on two cores of a shared
            machine slow each other (lcg beside native and another process took 1.5-2x
            its time alone), so there it paid to let the engine run alone; on a quiet
            machine it cost the puzzles native settles faster, hence 0, the default
            (benchmarks/RESULTS.md, "When lcg starts").
        colour_rival_after: seconds a colour puzzle has the first engine that declares
            colour alone (lcg by default) before the next one (CP-SAT) races it; colour
            puzzles skip native's phase (:mod:`nonolab.solvers.auto.colour`).
        solo_side: black-and-white grids up to this many cells a side go to the first
            engine alone, in the caller's thread, with no native phase
            (:mod:`nonolab.solvers.auto.solo`); 0: never.
        solo_budget: seconds the first engine runs alone there before the rival joins it
            (given the cells its root level proved, with ``rival_fix_cells``).
        solo_find_budget: the same when one solution is asked for (CPU seconds), where the
            rival is the ``find_seed`` one.
        find_seed: when one solution is asked for, the solo path's rival is the first
            engine (its options) with ``seed`` set to this: a second draw of the search's
            luck (0: ``rival``; only for an engine that declares ``seed``).
        count_relay: a count's rival there is that one until lcg has a solution, then ``rival`` (on).
        relay_early: with ``count_relay``, that one joins after ``solo_find_budget`` while lcg has none (on).

    A puzzle whose model is beyond what an engine holds (its ``max_states``, see
    :func:`~nonolab.solvers.base.model_states`, and ``handoff_max_states``) is never
    handed over: native searches it alone (a 2000x2000 CP-SAT model takes gigabytes
    before it starts).
    """

    name = "auto"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.PROGRESS,
                              Capability.STEPS, Capability.REMAINDER, Capability.COLOUR, Capability.BATCH})
    OPTIONS = (
        Option("cdcl", "choice", None, "the engine that takes over (unset: lcg, or cpsat when lcg is the rival)",
               choices=CDCL_BACKENDS, optional=True),
        Option("rival", "choice", None, "what races it after the hand-off: an engine, native or none "
               "(unset: cnf:solver=kissat404 beside lcg, cpsat without python-sat; else lcg)", choices=RIVALS,
               optional=True),
        Option("native_budget", "float", 0.5, "seconds of native search before the hand-off (once its root "
               "probing is over)", minimum=0),
        Option("native_nodes", "int", NATIVE_NODES, "with record_steps: native's search nodes before the hand-off "
               "(work, not seconds: the steps are the same on any machine)", minimum=1),
        Option("handoff_by", "float", 5.0, "seconds by which native hands over, its root probing over or not",
               minimum=0),
        Option("race", "bool", True, "race the rival after the hand-off; the first to finish wins"),
        Option("probe_clauses", "bool", False, "also hand probing's implications over as clauses", experimental=True),
        Option("fix_cells", "bool", True, "hand over the cells native proved (off: the bare puzzle)"),
        Option("early", "bool", True, "start the first engine on the bare puzzle beside native's budget "
               "(when: early_open, early_after)"),
        Option("early_after", "float", 0.05, "seconds from native's start before the early engine starts, "
               "once native's root propagation is over (sooner: early_open)", minimum=0),
        Option("early_open", "float", 0.1, "start the early engine at the end of native's root propagation "
               "when it left more than this share of the cells open", minimum=0),
        Option("early_yield", "float", 0.0, "seconds native pauses when the early engine starts, so that the "
               "engine has the cores alone (an answer from it ends the pause)", minimum=0, experimental=True),
        Option("early_nice", "int", 0, "niceness of the early engine's thread while native's root runs "
               "(Linux; 0: unchanged): under contention native keeps its core", minimum=0, maximum=19,
               experimental=True),
        Option("native_nice", "int", 0, "niceness of native's thread beside the early engine once its root "
               "is over (Linux; 0: unchanged): under contention the engine keeps its core", minimum=0, maximum=19,
               experimental=True),
        Option("rival_nice", "int", 0, "niceness of the rival engine's threads (Linux; 0: none): under "
               "contention the first engine keeps its core", minimum=0, maximum=19, experimental=True),
        Option("rival_after", "float", 0.0, "seconds from the start before the rival engine joins (at the "
               "hand-off at the earliest)", minimum=0, experimental=True),
        Option("colour_rival_after", "float", 5.0, "seconds a colour puzzle has the first engine alone before "
               "the next engine that declares colour races it", minimum=0),
        Option("rival_fix_cells", "bool", True, "hand the rival engine the cells native proved (off: the bare puzzle)"),
        Option("probing", "choice", None, "the native phase's probing (unset: native's default)",
               choices=lambda: _native_choices("probing"), optional=True),
        Option("line", "choice", None, "the native phase's line strategy (unset: dp)",
               choices=lambda: _native_choices("line"), optional=True),
        Option("solo_side", "int", SOLO_SIDE, "grids up to this many cells a side go to the first engine alone, "
               "in the caller's thread (0: never; larger grids start with native)", minimum=0),
        Option("solo_budget", "float", 1.0, "CPU seconds of search the first engine has alone (solo_side) "
               "before the rival joins it", minimum=0),
        Option("solo_find_budget", "float", SOLO_FIND_BUDGET, "the same when one solution is asked for "
               "(the rival then is the first engine with find_seed)", minimum=0),
        Option("find_seed", "int", FIND_SEED, "when one solution is asked for (solo_side), the rival is the first "
               "engine again with this seed, another draw of its luck (0: the rival)", minimum=0, maximum=2**63 - 1),
        Option("count_relay", "bool", True, "in a count (solo_side): the find_seed rival until lcg has a solution"),
        Option("relay_early", "bool", True, "with count_relay, that rival joins after solo_find_budget while lcg has "
               "no solution (else solo_budget; Kissat never before solo_budget)"),
        Option("record_steps", "bool", False, "keep the step log (native steps, then one cdcl step)"),
        Option("batch_slice", "float", 0.005, "solve_many: seconds native's compiled batch entry gives a "
               "puzzle before auto's strategy takes it (0: every puzzle through the strategy)", minimum=0),
        Option("handoff_max_states", "int", HANDOFF_MAX_STATES,
               "hand over only models up to this many automaton states (none: any size)", minimum=1,
               optional=True),
        Option("threads", "int", None, "the native phase's threads for the root's line propagation of large "
               "grids (none: native's default, the cores available)", minimum=1, maximum=256, optional=True),
    )
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    cdcl: str
    rival: str
    native_budget: float
    native_nodes: int
    handoff_by: float
    race: bool
    probe_clauses: bool
    fix_cells: bool
    early: bool
    early_after: float
    early_open: float
    early_yield: float
    early_nice: int
    native_nice: int
    rival_nice: int
    rival_after: float
    colour_rival_after: float
    rival_fix_cells: bool
    probing: str | None
    line: str | None
    solo_side: int
    solo_budget: float
    solo_find_budget: float
    find_seed: int
    count_relay: bool
    relay_early: bool
    record_steps: bool
    batch_slice: float
    handoff_max_states: int | None
    threads: int | None
    PROGRAMMATIC = ("progress", "native_options", "cdcl_options")

    def __init__(self, *, progress: Callable[[int, int], None] | None = None,
                 native_options: dict[str, Any] | None = None, cdcl_options: dict[str, Any] | None = None,
                 **options: Any):
        # Options settled once per option set (a fresh solver a puzzle: auto.reuse); the
        # default rival is part of what they settle to.
        settled_by = None if progress is not None else options_key(type(self), options, native_options, cdcl_options)
        settled_by = settled_by and settled_by + (default_rival(),)
        if settled(self, settled_by):
            return
        settle(self, options)
        # The key of the parts shared by solvers of equal options (parts()): the options as
        # given (sorted by name; cheaper than the settled ones, and what they follow from).
        self._given: tuple | None = None if progress is not None else (
            type(self), tuple(sorted(options.items())), tuple(sorted((native_options or {}).items())),
            tuple(sorted((cdcl_options or {}).items())))
        # Unset, each side of the race is the measured partner of the other.
        if self.cdcl is None:
            self.cdcl = "cpsat" if self.rival == "lcg" else "lcg"
        if self.rival is None:
            self.rival = default_rival() if self.cdcl == "lcg" else "lcg"
        if self.race and self.rival == self.cdcl:
            raise InvalidArgument(f"backend 'auto': rival={self.rival} is the engine that takes over; "
                                  f"race two different engines")
        if not self.race:
            self.rival = "none"
        engines = [self.cdcl] + ([self.rival] if self.rival in CDCL_BACKENDS else [])
        if self.probe_clauses and not any(_takes_clauses(e) for e in engines):
            takers = [name for name in CDCL_BACKENDS if _takes_clauses(name)]
            raise InvalidArgument(f"backend 'auto': option probe_clauses=true needs an engine that takes clauses "
                                  f"({' or '.join(takers)}), not {' and '.join(engines)} (given cells only)")
        self.engines = tuple(engines)
        self._given = self._given and self._given + self.engines   # (the parts follow the engines too)
        self.early = self.early and self.rival in CDCL_BACKENDS
        self.progress = progress
        self.native_options = dict(native_options or {})
        self.native_options.update({key: value for key, value in (("probing", self.probing), ("line", self.line),
                                                                  ("threads", self.threads))
                                    if value is not None})
        self.cdcl_options = dict(cdcl_options or {})
        if self.race and self.find_seed and str(self.cdcl_options.get("seed")) == str(self.find_seed):
            raise InvalidArgument(f"backend 'auto': find_seed={self.find_seed} is the first engine's own seed")
        remember(settled_by, self)

    def parts(self) -> Parts:
        """What the strategies work with, read from this solver's options: the engines to
        build, the schedule, the result's assembly (:class:`~nonolab.solvers.auto.parts.Parts`).
        Read once, and shared by every solver of equal options (a fresh solver a puzzle,
        as the library and the CLI build them, finds them read: a puzzle of a millisecond
        must not pay for them on every solve); a solver given ``progress`` reads its own.

        >>> parts = AutoSolver(native_budget=0.25).parts()
        >>> parts.first, parts.schedule.native_budget, parts.hand_off_times()["hand_off_after"]
        ('lcg', 0.25, 0.25)
        """
        built = self.__dict__.get("_parts")
        if built is None:
            # (keyed by the options as given: what _read_parts reads is a function of them)
            built = self.__dict__["_parts"] = shared(self._given, self._read_parts)
        return built

    def _read_parts(self) -> Parts:
        # The schedule's fields are options of the same names.
        schedule = Schedule(**{field.name: getattr(self, field.name) for field in fields(Schedule)})
        return Parts(name=self.name, engines=self.engines, rival=self.rival, schedule=schedule,
                     find_seed=self.find_seed if self.race and declares(self.engines[0], "seed") else 0,
                     fix_cells=self.fix_cells, rival_fix_cells=self.rival_fix_cells,
                     probe_clauses=self.probe_clauses, record_steps=self.record_steps,
                     handoff_max_states=self.handoff_max_states, progress=self.progress,
                     native_options=self.native_options, engine_options=self.cdcl_options)

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Search ``puzzle`` within ``limits``; ``given`` as for the backends: only the
        solutions that agree with its cells are counted."""
        return self._solve_routed(puzzle, limits, given).keeping(limits.keep)   # (its parts keep what they merge)

    def _solve_routed(self, puzzle: Puzzle, limits: Limits, given: Given | None) -> SolveResult:
        watch = Budget.of(limits)
        given = accept(self, puzzle, given)   # (held to the memory of the route's members)
        parts = self.parts()
        route = self.route(puzzle)
        if route == "colour":
            return solve_colour(parts, puzzle, limits, watch, given, CDCL_BACKENDS)
        if route == "solo":
            return solo(parts, puzzle, limits, watch, given, parts.engine(parts.first))
        warm_up(parts.native, "native")  # loading the engine is not part of the native budget
        if route == "native":
            result = parts.native_answer(watch, parts.native().solve(puzzle, left(limits, watch), given))
            result.stats.counters["handoff"] = "refused: model too large for " + "+".join(self.engines)
            return result
        if route == "steps":
            return recorded(parts, puzzle, limits, watch, given)
        if route == "race native":
            return race_native(parts, puzzle, limits, watch, given)
        if route == "duel":
            return duel(parts, puzzle, limits, watch, given)
        return one_engine(parts, puzzle, limits, watch, given)

    def route(self, puzzle: Puzzle) -> str:
        """Which strategy :meth:`solve` takes on ``puzzle``: ``colour``, ``solo`` (the first
        engine alone, the rival later), ``native`` (its model too large to hand over),
        ``steps`` (a step log: native for ``native_nodes`` nodes, then the first engine
        alone, :mod:`~nonolab.solvers.auto.recorded`), ``race native``, ``duel`` (native,
        then two engines) or ``one engine``.

        >>> from nonolab.core import Puzzle
        >>> AutoSolver().route(Puzzle(rows=((1,),), columns=((1,),))), AutoSolver(solo_side=0).route(
        ...     Puzzle(rows=((1,),), columns=((1,),)))
        ('solo', 'duel')
        """
        last = self.__dict__.get("_routed")   # (solve asks twice: through accept's memory, then itself)
        if last is not None and last[0] is puzzle:
            return last[1]
        route = self._route(puzzle)
        self.__dict__["_routed"] = (puzzle, route)
        return route

    def _route(self, puzzle: Puzzle) -> str:
        parts = self.parts()
        if puzzle.is_colour:
            return "colour"
        if self.rival != "native" and max(puzzle.height, puzzle.width) <= self.solo_side:
            if solo_fits(parts, puzzle, parts.engine_class(parts.first)) and parts.fits(puzzle):
                return "solo"
        if not parts.fits(puzzle):
            return "native"
        if self.record_steps:   # one step log per puzzle: decided by work, not by the clock
            return "steps"
        if self.rival == "native":
            return "race native"
        return "duel" if len(self.engines) == 2 else "one engine"

    def memory_per_cell(self, puzzle: Puzzle) -> int:
        """The memory auto declares a cell of ``puzzle`` (what ``accept`` holds to the budget,
        through :func:`~nonolab.solvers.base.bytes_per_cell`): the sum of what the engines
        its :meth:`route` may run at once declare, native as auto builds it (its step log
        included), the others read from their classes.

        >>> from nonolab.core import Puzzle
        >>> from nonolab.solvers import bytes_per_cell, get
        >>> p = Puzzle(rows=((1,),), columns=((1,),))
        >>> AutoSolver(solo_side=0).memory_per_cell(p) == bytes_per_cell(get("native"), p) + bytes_per_cell(
        ...     get("lcg"), p)     # native, lcg beside it (the rival, Kissat, declares none)
        True
        """
        route = self.route(puzzle)
        known = self.parts().known   # who a route's members are follows from the options: found once each
        if ("members", route) not in known:
            known["members", route] = self._members(route)
        return sum(bytes_per_cell(member, puzzle) for member in known["members", route])   # (each read live)

    def _members(self, route: str) -> tuple[Any, ...]:
        """What :meth:`memory_per_cell` asks on ``route``: native as auto builds it, the
        engines built with their options where their cost follows them (lcg's
        ``interleave``, in ``cdcl_options`` too), else their classes (building cnf imports
        python-sat); an engine that cannot load here declares nothing."""
        parts = self.parts()
        with_native = route not in ("colour", "solo") or (route == "colour" and parts.record_steps)
        if route == "colour":
            specs = [] if parts.record_steps else colour_engines(parts, CDCL_BACKENDS)
        elif route in ("solo", "duel"):   # (the rival is an engine on these routes when there are two)
            specs = list(self.engines) + ([parts.find_rival] if route == "solo" and parts.find_rival else [])
        elif route in ("race native", "one engine", "steps"):
            specs = [parts.first]
        else:
            specs = []
        members: list[Any] = [parts.native()] if with_native else []
        for spec in specs:
            try:
                engine_class = parts.engine_class(spec)
            except BackendUnavailable:
                continue
            per_instance = callable(getattr(engine_class, "memory_per_cell", None))
            members.append(parts.engine(spec) if per_instance else engine_class)
        return tuple(members)

    def solve_many(self, puzzles: Iterable[Puzzle], limits: Limits = Limits(),
                   rest: Callable[[Puzzle, Limits], SolveResult] | None = None) -> Iterator[Any]:
        """Each puzzle's result, in order, as :meth:`solve` gives it (or the library error that
        stopped it, in its place).  Native's compiled batch entry has each puzzle first, for
        ``batch_slice`` seconds: it settles most small puzzles in microseconds, where one
        :meth:`solve` costs a millisecond; what it leaves, auto's strategy answers (or ``rest``).

        >>> from nonolab.core import Puzzle
        >>> [r.count for r in AutoSolver().solve_many([Puzzle(rows=((1,),), columns=((1,),))], Limits(2))]
        [1]
        """
        mine = rest or self.solve
        native = as_batching(self.parts().native()) if self.batch_slice > 0 else None
        if native is None:
            yield from one_by_one(mine, puzzles, limits)
            return
        native.batch_slice = self.batch_slice   # type: ignore[attr-defined]  # a declared option of native's
        for answer in native.solve_many(puzzles, limits, mine):
            if isinstance(answer, SolveResult) and answer.stats.backend != self.name:   # the batch entry's
                answer = answer.relabelled(self.name, answer.stats.wall_time,
                                           self.parts().counters("native batch", answer, None, {}))
            yield answer


def _native_choices(name: str) -> tuple[str, ...]:
    """The values native declares for its option ``name`` (auto passes them on)."""
    return next(option.allowed() for option in options_of("native") if option.name == name)
