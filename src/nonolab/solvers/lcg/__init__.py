"""The lcg backend: a compiled learning engine whose propagators are the line solver.

CDCL (conflict-driven clause learning) over one Boolean per cell, in C++
(``engine.cpp``, built into ``nonolab.solvers.lcg._lcg`` when the package is
installed): each row and column is a propagator running the complete line DP (the
DP of ``solvers/_cext/line.hpp``, which native shares) on its partial assignment; every cell
it forces is explained, when conflict analysis asks, by a minimised set of the line's
cells, so learned clauses speak of cells only.  Watched learned clauses, first-UIP
learning, VSIDS with target phases (the values of the longest conflict-free trail
since the last restart), Luby restarts and clause deletion by LBD do the rest, after
root probing.  The first decisions follow phase hints: belief propagation between the
rows and the columns (each line's exact weighted count of its arrangements) guesses
every open cell, and the decisions take those guesses for the first conflicts, then
the target phases; after a solution, its values (a search for a second solution
starts around the first).  Counting is exact: each solution is blocked by a clause on its decisions and
the search goes on until the formula is unsatisfiable.

Colour puzzles use one Boolean per (cell, value) and the complete colour line DP as
propagator (``colour.cpp``, ``colour_line.hpp``), with the same explanations, search
and counting; up to 31 colours used by the clues (a larger palette is searched over those, see
:mod:`~nonolab.solvers.lcg.palette`).

The engine runs in slices (``slice_seconds``, the GIL released inside), so the
deadline and ``limits.cancel`` are checked between slices; a cancel that says when it
is set (:class:`~nonolab.solvers.stopping.Alarm`: ``auto``'s race) interrupts the
slice itself; ``conflict_limit`` bounds the work of the whole call (:mod:`.slices`).

>>> from nonolab.core import Puzzle
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> result = LcgSolver().solve(p, Limits(max_solutions=None))
>>> result.status.value, result.count, result.complete
('solved', 2, True)
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, accept, finish
from nonolab.solvers.lcg.interleave import Interleaved, rescue_schedule, schedule
from nonolab.solvers.lcg.palette import MAX_COLOURS, engine_colours
from nonolab.solvers.lcg.rescue import RESCUES, ProofFiles, first_turn, rescues
from nonolab.solvers.lcg.slices import Slicing, root_grid, search
from nonolab.solvers.options import Option, settle
from nonolab.solvers.stopping import when_set

__all__ = ["LcgSolver", "engine_module", "MAX_COLOURS"]

_MINIMISE = {"none": 0, "basic": 1, "recursive": 2}
# The order in which an explanation drops cells: by position only ("positions"), the
# cells of the highest level first ("two-bands"), or level by level ("levels").
_EXPLAIN = {"levels": 0, "positions": 1, "two-bands": 2}
# Luby restarts (unit 100 conflicts), or glucose-style (on the learned clauses' LBD).
_RESTARTS = {"luby": 0, "glucose": 1}
# The value a decision gives its cell: the target phase (the cell's value on the longest
# conflict-free trail since the last restart) or the saved phase (its last value).
_PHASES = {"target": True, "saved": False}
# With mode switching (policy.hpp), the mode that comes first.
_FIRST_MODE = {"focused": 2, "stable": 1}
# What a shake resets (shake.cpp): the engine's ShakeReset.
_SHAKE_RESET = {"both": 0, "activities": 1, "phases": 2}


def engine_module() -> Any:
    """The compiled engine, ``nonolab.solvers.lcg._lcg``.

    Raises:
        BackendUnavailable: the extension was not built (installing the package builds
            it; a source checkout needs ``pip install -e .``).
    """
    try:
        _lcg = importlib.import_module("nonolab.solvers.lcg._lcg")   # (compiled: mypy cannot read it)
    except ImportError as exc:
        raise BackendUnavailable(
            f"backend 'lcg' needs its compiled engine ({exc}); reinstall nonolab with a C++ compiler "
            f"present: pip install .") from exc
    return _lcg


class LcgSolver:
    """CDCL with the complete line solver as propagator, with exact counting.

    Args:
        minimise: learned clause minimisation: ``"recursive"`` (default; generates
            the line reasons it needs), ``"basic"`` (only reasons already at hand)
            or ``"none"``.
        explain: the order in which an explanation drops a line's cells (greedily,
            each drop checked with the DP): ``"levels"`` (default: the latest
            decision level first, so the older cells stay), ``"two-bands"`` (the
            latest level, then the others) or ``"positions"`` (right to left only;
            the cheapest).
        restarts: ``"luby"`` (default; unit 100 conflicts) or ``"glucose"``
            (restart when recent learned clauses have a high LBD).
        phases: the value a decision tries first: ``"target"`` (default; the cell's
            value on the longest trail without conflict since the last restart) or
            ``"saved"`` (its last value: phase saving).
        probing: before the search, probe each open cell with each value at a level
            of its own (a failed probe is a conflict, learned from), within a budget
            of line solves proportional to the grid (default on).
        hint_rounds: rounds of belief propagation that give each open cell a first
            phase (0: none, every decision starts from the empty value); fewer when
            the messages settle.  Black-and-white lines of at most 127 cells.
        hint_conflicts: for this many conflicts decisions take the hinted phases, then
            the target phases; 0: the hints are only the first phases.
        hint_after: the search goes this many conflicts without hints before it
            computes them (then restarts and takes them; 0, the default: before the
            first decision).  An easy puzzle solved sooner never pays for them.
        hint_min_open: the hints run only when root probing leaves more than this per
            cent of the cells open (default 40; 0: always, 100: never): a grid probing
            mostly solved is searched without them (its search is short and the rounds
            were most of its time; on the hard grids measured 45-100 % stay open).
        follow_conflicts: with the hints, after each solution, for this many conflicts
            decisions take the solution's values (0, the default: never; the target
            phases already hold the solution, the longest trail without a conflict, and
            measured on taai2011 and the survey following it won nothing).
        modes: 0 (the default): one policy throughout (``restarts``, ``phases``).  N > 0:
            mode switching in one search (``policy.cpp``, as CaDiCaL and Kissat): a stable
            mode (Luby restarts, VSIDS decay 0.95, the target phases) and a focused mode
            (glucose restarts, ``focused_decay``, the saved phases) take turns, ``first_mode``
            for N conflicts, each later turn twice as long as the one before; the clauses,
            activities and phases are the one search's.  ``restarts`` is then unused.
        first_mode: with ``modes``, ``"focused"`` (the default) or ``"stable"``.
        focused_decay: with ``modes``, the VSIDS decay in the focused mode.
        focused_phases: with ``modes``, the focused mode's decisions take the ``"saved"``
            phases (the default, as CaDiCaL's) or the ``"target"`` ones (as the stable mode).
        vivify: 0 (the default): never.  N > 0: every N conflicts the search restarts and vivifies
            learned clauses at the root (``vivify.cpp``): for each (lowest LBD first, each once)
            the negations of its literals are decided one by one with full propagation; a
            conflict, or a literal of the clause implied true, shortens it to the decisions
            involved.  Proofs stay valid (the shorter clause is added before the old one is
            deleted).
        vivify_effort: with ``vivify``, a round's line runs at most, in per cent of the
            search's since the previous round (at least 1000).
        vivify_probe: with ``vivify``, each round starts with root probing again, within the
            probing budget (a failed probe is a conflict, learned from).
        rephase: 0 (the default): never.  N > 0: after N conflicts, then 2N, 3N... more, the
            saved (and target) phases are reset, in turn to the best phases (the longest
            trail without conflict since the last such reset), the original ones (the hints),
            the best again, and the saved ones flipped.
        interleave: 0 (the default): one search.  N > 0 (black and white, without a proof):
            two searches in one thread (``interleave.py``): first one without phase hints
            for N conflicts (an easy puzzle ends there, never paying for the hints), then
            the default search in an engine of its own, the two in turns whose budgets of
            conflicts double, until one finds the first solution or exhausts the puzzle; that
            one goes on alone (it alone counts, so counts and "unique" stay exact).  Two
            engines: twice the declared memory.
        interleave_ratio: with ``interleave``, the default search's budget over the other's
            in each round.
        rescue: 0 (the default): one search.  N > 0: the default search runs alone for N
            conflicts (a puzzle it finds sooner is searched exactly as without the option);
            then the searches ``rescue_with`` names join it in the same thread (``rescue.py``),
            each in an engine of its own, in turns of N/16 conflicts each, doubling every
            round, until one finds the first solution or exhausts the puzzle; that one goes on
            alone (so counts, "unique" and a proof are one search's).  One engine's memory
            more for each rescue search.
        rescue_with: with ``rescue``, the searches that join: ``"stable"`` (the default;
            the stable mode first, ``modes=1000,first_mode=stable``), ``"binaries"``
            (``probe_binaries``), ``"hints"`` (the hints for the whole search), ``"nohints"``
            (no hints), or two of these joined by ``+`` (three searches in turn).
        seed: 0 (the default): the search as it always was.  Another number: every var
            starts with a random activity below one VSIDS raise (``heap.hpp``; SplitMix64
            from the seed), so the vars no conflict has raised yet are decided in another
            order: another search path to the same answers, the same for the same seed
            (lcg stays reproducible).  For measuring the search's luck
            (``benchmarks/log/2026-11-27-luck-12.md``).
        shake: 0 (the default): never.  N > 0: until the first solution, after N conflicts
            and then on the Luby sequence's multiples of N (N, N, 2N, N, N, 2N, 4N...), the
            search starts again from a new random start (``shake.cpp``): the VSIDS activities
            random (from ``seed``'s stream), the phases back to the hints (taken for
            ``hint_conflicts`` again), the learned clauses kept.  Against the heavy tail of the
            conflicts over seeds.
        shake_after: with ``shake``, the schedule starts after this many conflicts (the first
            shake at ``shake_after`` + N, then N, 2N... more as above; 0, the default: at once).  A
            puzzle solved within ``shake_after`` conflicts is searched exactly as without shakes.
        shake_reset: with ``shake``, what a shake resets: ``"both"`` (the default; as above),
            ``"activities"`` (random activities, the phases go on as they were) or ``"phases"``
            (the phases back to the hints, the activities the search built kept).
        shake_churn: with ``shake``, 0 (the default): every shake the schedule says.  P in
            1..100: a shake only when the search churns: over the last five windows of 1,000
            conflicts, the saved phases that changed within a window were on average at least P %
            of the vars (``shake.cpp``); a search that keeps its phases (15-Dom: 8-13 %; the
            tournament's tail: 22-41 %) is not shaken.
        lookahead: 0 (the default): VSIDS alone.  N > 0: below ``lookahead_levels``, decide the
            one of the N most active open cells whose two values force the most (``lookahead.cpp``).
        conflict_limit: None (the default): no limit.  N: the call stops after N conflicts in
            all (every slice and every engine of one solve or count: ``slices.py``), as at its
            deadline: ``timeout``, with the solutions found (a work limit, the same on any
            machine; native's ``node_limit``).
        slice_seconds: the longest stretch the engine searches before Python looks at
            the clock and the cancel event again.
        alarm: ``(seconds, call)``: ``call(root)`` once, between slices, when the search has
            spent ``seconds`` of CPU time in the calling thread since the solve began (CPU,
            not wall: under load a second of wall time is a fraction of a second of search),
            with the root level's cells (a ``Grid``: every solution not yet found agrees with
            it); ``auto`` starts its rival there.  What the call returns is the next alarm.
        hold: a list the search's engine is appended to when the solve ends, so that
            its memory is freed when the caller drops the list, not on the way out of
            :meth:`solve` (freeing a large clause database and line cache takes
            milliseconds: 2.8 ms after webpbn-29723's 100 ms search; ``auto`` frees it
            after its answer is in).  Freeing releases the GIL.
        found: a list each solution is appended to as it is found and checked, so that
            another thread can see the first one come (``auto``'s count rival, auto.relay).

    Raises:
        BackendUnavailable: the compiled engine is missing.
        InvalidArgument: an option its declaration (``OPTIONS``) refuses.

    >>> from nonolab.core import Puzzle
    >>> LcgSolver().solve(Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))).unique
    True
    """

    name = "lcg"
    # REPRODUCIBLE: the engine is deterministic and only pauses between slices (a slice
    # ends on the clock, but the search resumes where it stopped).
    # REMAINDER: a stopped search reports its root level's cells (black and white).
    # PROOF: the engine logs its learned and deleted clauses as DRAT over the cells (proof.hpp).
    # The memory its search holds a cell (cells, trail, reasons, watches, line cache:
    # 119-122 bytes measured on 5000x5000 grids): held to the memory budget by ``accept``.
    BYTES_PER_CELL = 125
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.COLOUR,
                              Capability.REPRODUCIBLE, Capability.REMAINDER, Capability.PROOF})
    OPTIONS = (
        Option("minimise", "choice", "recursive", "learned clause minimisation", choices=tuple(_MINIMISE)),
        Option("explain", "choice", "levels", "the order in which an explanation drops a line's cells",
               choices=tuple(_EXPLAIN)),
        Option("restarts", "choice", "luby", "restart policy", choices=tuple(_RESTARTS)),
        Option("phases", "choice", "target", "the value a decision tries first", choices=tuple(_PHASES)),
        Option("probing", "bool", True, "root probing before the search (20 line solves per cell at most)"),
        Option("conflict_limit", "int", None, "stop after this many conflicts in all, every search of the "
               "call counted (reported as timeout)", minimum=1, optional=True, spends="conflicts"),
        Option("slice_seconds", "float", 0.03, "longest engine slice between looks at the clock and the cancel",
               minimum=0.001),
        Option("hint_rounds", "int", 50, "rounds of belief propagation giving each open cell its first phase "
               "(0: no hints)", minimum=0, maximum=10_000),
        Option("hint_conflicts", "int", 10_000, "conflicts during which decisions take the hinted phases; "
               "0: the hints are only the first phases", minimum=0),
        Option("hint_after", "int", 0, "conflicts the search has without hints before it computes them "
               "(0: before the first decision)", minimum=0),
        Option("hint_min_open", "int", 40, "the hints run only when more than this per cent of the cells are "
               "open after root probing (0: always, 100: never)", minimum=0, maximum=100),
        Option("interleave", "int", 0, "conflicts of a search without hints before the default search "
               "starts beside it, the two in doubling turns until the first solution (0: one search)", minimum=0),
        Option("interleave_ratio", "int", 4, "with interleave, the default search's conflicts over the other's "
               "in each round", minimum=1, maximum=1000, needs="interleave"),
        Option("rescue", "int", 0, "conflicts the default search runs alone before the rescue searches "
               "(rescue_with) join it, in doubling turns until the first solution (0: never)", minimum=0),
        Option("rescue_with", "choice", "stable", "with rescue, the searches that join: the default search with "
               "the stable mode first (modes=1000), root probing's binary clauses, hints throughout, no hints; "
               "two joined by +", choices=RESCUES, needs="rescue"),
        Option("modes", "int", 0, "mode switching in one search: the first mode's conflicts, each later mode "
               "twice as long (stable: Luby restarts, target phases; focused: glucose restarts, faster decay, "
               "saved phases; 0: off)", minimum=0, maximum=100_000_000),
        Option("first_mode", "choice", "focused", "with modes, the mode that comes first",
               choices=tuple(_FIRST_MODE), needs="modes"),
        Option("focused_decay", "float", 0.85, "with modes, the VSIDS decay in the focused mode (stable: 0.95)",
               minimum=0.5, maximum=0.99, needs="modes"),
        Option("focused_phases", "choice", "saved", "with modes, the phases the focused mode's decisions take",
               choices=tuple(_PHASES), needs="modes"),
        Option("rephase", "int", 0, "conflicts before the first reset of the saved phases (best, original, best, "
               "flipped; then 2x, 3x... apart; 0: never)", minimum=0, maximum=100_000_000),
        Option("vivify", "int", 0, "conflicts between rounds of learned-clause vivification, each after a restart "
               "(0: never)", minimum=0, maximum=100_000_000),
        Option("vivify_effort", "int", 10, "with vivify, the line runs a round may spend, in % of the search's "
               "since the last round", minimum=1, maximum=1000, needs="vivify"),
        Option("vivify_probe", "bool", False, "with vivify, each round starts with root probing again (the "
               "learned clauses may make more probes fail)", needs="vivify"),
        Option("seed", "int", 0, "0: the usual search; another number: a random first VSIDS order of the vars "
               "from that seed (another search path, the same answers)", minimum=0, maximum=2**63 - 1),
        Option("shake", "int", 0, "before the first solution, restart from a new random start (random "
               "activities, the hints' phases; the clauses kept) on a Luby schedule of this many conflicts "
               "(0: never)", minimum=0, maximum=100_000_000),
        Option("shake_after", "int", 0, "with shake, conflicts before its schedule starts (the first shake "
               "after this many plus shake; a search that ends sooner is the one without shakes)", minimum=0,
               maximum=100_000_000, needs="shake"),
        Option("shake_reset", "choice", "both", "with shake, what a shake resets: the activities and the phases, "
               "the activities alone, the phases alone", choices=tuple(_SHAKE_RESET), needs="shake"),
        Option("shake_churn", "int", 0, "with shake, shake only a search that churns: the saved phases a "
               "1,000-conflict window changed at least this % of the vars, the mean of five (0: every shake)",
               minimum=0, maximum=100, needs="shake"),
        Option("shake_churn_window", "int", 1000, "with shake_churn, the window's length in conflicts",
               minimum=1, maximum=100_000_000, needs="shake_churn", experimental=True),
        Option("lookahead", "int", 0, "near the root, decide the one of this many most active open cells whose "
               "two values force the most cells, each tried (a failed one is learned; 0: VSIDS alone)",
               minimum=0, maximum=10_000),
        Option("lookahead_levels", "int", 1, "with lookahead, the decision levels it chooses at (1: the root's)",
               minimum=1, maximum=10_000, needs="lookahead"),
        Option("probe_binaries", "bool", False, "root probing keeps what each probe implied as binary clauses "
               "(written to a proof too)", experimental=True),
        Option("follow_conflicts", "int", 0, "with the hints, conflicts after a solution during which "
               "decisions take its values (0: never)", minimum=0, experimental=True),
    )
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    minimise: str
    explain: str
    restarts: str
    phases: str
    probing: bool
    conflict_limit: int | None
    slice_seconds: float
    hint_rounds: int
    hint_conflicts: int
    follow_conflicts: int
    hint_after: int
    hint_min_open: int
    probe_binaries: bool
    interleave: int
    interleave_ratio: int
    rescue: int
    rescue_with: str
    modes: int
    first_mode: str
    focused_decay: float
    focused_phases: str
    rephase: int
    vivify: int
    vivify_effort: int
    vivify_probe: bool
    seed: int
    shake: int
    shake_after: int
    shake_reset: str
    shake_churn: int
    shake_churn_window: int
    lookahead: int
    lookahead_levels: int
    PROGRAMMATIC = ("hold", "alarm", "found")
    VARIANTS = {"minimise": ("basic",), "explain": ("positions",), "restarts": ("glucose",), "phases": ("saved",),
                "probing": ("off",), "hint_rounds": ("0",), "hint_conflicts": ("0",), "follow_conflicts": ("1000",),
                "probe_binaries": ("on",), "hint_after": ("3",), "hint_min_open": ("100",),
                "interleave": ("3",), "rescue": ("3",), "modes": ("5",), "rephase": ("20",),
                "vivify": ("2",), "seed": ("7",), "shake": ("3",), "lookahead": ("4",)}

    def __init__(self, *, hold: list | None = None, alarm: tuple[float, Any] | None = None,
                 found: list | None = None, **options: Any):
        self.hold, self.alarm, self.found = hold, alarm, found
        settle(self, options)
        if self.interleave and self.rescue:
            raise InvalidArgument("backend 'lcg': options interleave and rescue are two schedules of several "
                                  "searches; set one of them")
        self._engine = engine_module()

    def memory_per_cell(self, puzzle: Puzzle) -> int:
        """The memory this solver declares a cell of ``puzzle`` costs (held to the budget by
        ``accept``): one engine's, twice that with ``interleave`` on a black-and-white puzzle
        (two engines at once; colour runs one), one more engine's for each ``rescue`` search.
        An option: so declared per instance.

        >>> p = Puzzle(rows=((1,),), columns=((1,),))
        >>> LcgSolver().memory_per_cell(p), LcgSolver(interleave=50).memory_per_cell(p)
        (125, 250)
        """
        if self.rescue:
            return self.BYTES_PER_CELL * (1 + len(rescues(self.rescue_with)))
        return self.BYTES_PER_CELL * (2 if self.interleave and not puzzle.is_colour else 1)

    def prove(self, puzzle: Puzzle, limits: Limits = Limits(), proof: Any = None) -> SolveResult:
        """:meth:`solve` (without given cells) writing a DRAT proof of the search to ``proof``
        (a path): for a complete answer, the proof that the puzzle's regular CNF plus a clause
        excluding each solution found has no model (see ``proof.hpp`` for why its lines are
        valid).  The counters say how many proof lines and bytes were written.

        Raises:
            InvalidArgument: a colour puzzle (the CNF export is black and white).
            OSError: the proof file cannot be written.

        >>> import os, tempfile
        >>> from nonolab.core import Puzzle
        >>> path = os.path.join(tempfile.mkdtemp(), "proof.drat")
        >>> LcgSolver().prove(Puzzle(rows=((2,), (1,)), columns=((2,), (1,))), proof=path).unique
        True
        >>> open(path).read().splitlines()[-1]
        '0'
        """
        if puzzle.is_colour:
            raise InvalidArgument("lcg: proofs are written for black-and-white puzzles only (the CNF they "
                                  "refer to has no colour encoding)")
        if proof is None:
            raise InvalidArgument("lcg: prove needs the path of the proof file")
        return self.solve(puzzle, limits, None, proof=os.fspath(proof))

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None, *,
              proof: str | None = None) -> SolveResult:
        """Find up to ``limits.max_solutions`` solutions, counting exactly when it can.

        Args:
            puzzle: the puzzle.
            limits: solution count, wall-clock bound and cancel event.
            given: its cells are fixed before the search; the solutions (and the
                count) are those that extend them.

        Returns:
            SOLVED (``complete`` once the search space is exhausted), UNSAT, TIMEOUT at
            the time limit, INTERRUPTED once ``limits.cancel`` is set; the last two keep
            the solutions found so far.

        Raises:
            InvalidArgument: a given cell outside the grid or not a value of the puzzle.
            TooLarge: a colour puzzle whose clues use more than 31 colours.
        """
        watch = Budget.of(limits)
        given = accept(self, puzzle, given)
        w, colour = puzzle.width, puzzle.is_colour
        held = engine_colours(puzzle, given.cells.values())   # (the puzzle itself unless its palette is too large)
        fixed = held.fixed(given.cells, w) if colour else [(r * w + c, bool(v)) for (r, c), v in given.cells.items()]
        searches = self._searches(colour, proof is not None)
        proof_files = ProofFiles(proof) if proof is not None else None

        def build(search: int) -> Any:
            engine = self._build(held.puzzle, fixed, searches[search])
            if proof_files is not None:
                engine.start_proof(proof_files.path(search))
            return engine

        engine = self._interleaved(build, len(searches)) if len(searches) > 1 else build(0)
        found: list[Solution] = [] if self.found is None else self.found
        # auto's race stops a loser inside its slice (an extension built before
        # Engine.interrupt is stopped between slices only).
        interrupt = getattr(engine, "interrupt", None)
        unsubscribe = when_set(limits.cancel, interrupt) if interrupt is not None else (lambda: None)
        try:
            complete, slices = search(engine, puzzle, held, limits, watch, found,
                                      Slicing(self.name, self.slice_seconds, self.alarm, self.conflict_limit))
        except BaseException:
            if proof_files is not None:
                proof_files.close(None)   # no temporary proof left behind
            raise
        finally:
            unsubscribe()
        engines = engine.built() if isinstance(engine, Interleaved) else [engine]
        counters: dict[str, Any] = engine.stats()
        if proof_files is not None:
            ends = [each.end_proof() for each in engines]
            winner = engine.winner if isinstance(engine, Interleaved) else 0
            proof_files.close(winner)
            counters["proof_lines"], counters["proof_bytes"] = ends[winner or 0]
        counters["learned_clauses"] = counters.pop("learned")
        explanations = counters["explanations"]
        counters["mean_explanation"] = round(counters["explained_literals"] / explanations, 3) if explanations else 0.0
        counters.update(solutions=len(set(found)), slices=slices)
        if self.hold is not None:
            self.hold.extend(engines)
        root = None if complete or colour else root_grid(engine, puzzle)
        return finish(self.name, puzzle, limits, watch, found, complete, counters, checked=True, remainder=root)

    def _searches(self, colour: bool, proof: bool) -> tuple[dict[str, Any], ...]:
        """The options each search changes from this solver's: one search (no change), or
        interleave's two (without hints, then the default), or the default and its rescues."""
        if self.interleave and not colour and not proof and self.hint_rounds:
            return {"hint_rounds": 0}, {}
        if self.rescue:
            return ({},) + rescues(self.rescue_with)
        return ({},)

    def _interleaved(self, build: Any, searches: int) -> Interleaved:
        """The searches' turns: interleave's or the rescue's schedule."""
        if self.interleave:
            return Interleaved(build, schedule(self.interleave, self.interleave_ratio))
        names = ("default", "rescue") + tuple(f"rescue{n}" for n in range(2, searches))
        return Interleaved(build, rescue_schedule(self.rescue, first_turn(self.rescue), searches - 1), names, "rescue")

    def _build(self, puzzle: Puzzle, fixed: list, changes: dict[str, Any]) -> Any:
        """A new engine for ``puzzle`` with this solver's options, ``changes`` applied."""
        def option(name: str) -> Any:
            return changes.get(name, getattr(self, name))

        w, h = puzzle.width, puzzle.height
        options = (_MINIMISE[self.minimise], _EXPLAIN[self.explain], _RESTARTS[self.restarts],
                   _probe_budget(puzzle) if self.probing else 0)
        modes = option("modes")
        policy = {"modes": _FIRST_MODE[option("first_mode")] if modes else 0, "mode_conflicts": max(modes, 1),
                  "focused_decay": self.focused_decay, "focused_target": _PHASES[self.focused_phases],
                  "rephase": self.rephase, "target_phases": _PHASES[self.phases],
                  "probe_binaries": option("probe_binaries"), "vivify": self.vivify,
                  "vivify_effort": self.vivify_effort, "vivify_probe": self.vivify_probe,
                  "seed": self.seed, "shake": self.shake, "shake_after": self.shake_after,
                  "shake_reset": _SHAKE_RESET[self.shake_reset], "shake_churn": self.shake_churn,
                  "shake_churn_window": self.shake_churn_window,
                  "lookahead": self.lookahead, "lookahead_levels": self.lookahead_levels}
        if puzzle.is_colour:
            return self._engine.Engine(w, h, puzzle.rows, puzzle.columns, fixed, *options, colours=puzzle.colours,
                                       row_colours=puzzle.row_colours, column_colours=puzzle.column_colours, **policy)
        return self._engine.Engine(w, h, puzzle.rows, puzzle.columns, fixed, *options,
                                   hint_rounds=option("hint_rounds"), hint_conflicts=option("hint_conflicts"),
                                   follow_conflicts=self.follow_conflicts, hint_after=self.hint_after,
                                   hint_min_open=self.hint_min_open, **policy)


def _probe_budget(puzzle: Puzzle) -> int:
    """Line solves root probing may spend: 20 per cell (it took at most 18 on the
    survey's hard eight, a few per cent of their search), plus a floor for small grids."""
    return 20 * puzzle.width * puzzle.height + 10_000
