"""The CNF backend: the regular encoding of :mod:`.encode` solved by python-sat.

python-sat is imported inside the functions that need it, never at module import,
so ``import nonolab.solvers.cnf`` stays cheap.

Solutions are enumerated with blocking clauses over the cell variables only: the
state and transition variables are functionally determined by the cells, and in
any case blocking the cells is what makes the count a count of pictures.

Time limits.  The python-sat solvers do not all stop the same way (measured on
python-sat 1.9.dev17): the MiniSat family (minisat22, minisatep, glucose3/4/42,
gluecard3/4, minicard, maplesat, maplecm, maplechrono, mergesat3, ergo) supports
``interrupt()``, which a ``threading.Timer`` calls at the deadline; CaDiCaL (all
versions) raises ``NotImplementedError`` on ``interrupt()`` but honours a conflict
budget, so it is run in slices of conflicts with the clock checked between them;
lingeling supports neither, so a time limit with it is refused.  Kissat (``kissat404``)
can neither be stopped nor take a clause after ``solve()`` (that aborts the whole
process): it is a class of its own (:class:`.kissat.KissatSolver`, which
``CnfSolver(solver="kissat")`` builds), run in a child process, killed at the deadline or on a
cancel, counting by solving again from scratch with the solutions found so far blocked
(:mod:`.oneshot`: each further solution costs a whole solve).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument, LimitReached
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, accept, finish
from nonolab.solvers.size import refuse_beyond
from nonolab.solvers.options import Option, declared, max_states_option, settle
from nonolab.solvers.cnf.encode import cells_as_assumptions, encode, implication_clauses
from nonolab.solvers.cnf.calls import Limited, load_clauses, off_main_thread
from nonolab.solvers.cnf.sat import (ONE_SHOT, _black_and_white, _canonical, _colour, _enumerate, _pysat_solvers,
                                     _stoppable, checking, logs_proofs, result_of, solver_names, time_limit_mode)

__all__ = ["CnfSession", "CnfSolver", "solver_names", "time_limit_mode"]

# The memory guard (see size.model_states): the clauses grow about 6x the line states,
# and python-sat holds them as Python lists first.  Gettys (166,172 states, 1.0 million
# clauses) is solved in well under a gigabyte; a smooth 300x300 generated puzzle
# (12.9 million states, 65 million clauses) passed 3.3 GB while still encoding.
MAX_STATES = 2_000_000

class CnfSolver:
    """Regular (DFA) CNF encoding solved by a python-sat solver, with exact counting.

    Args:
        solver: a python-sat solver name or alias (see :func:`solver_names`);
            CaDiCaL 1.9.5 by default, the best of those measured on nonograms; a
            one-shot solver (``kissat404``) builds its own class (``ONE_SHOT``).

    Raises:
        InvalidArgument: the name is not a python-sat solver.
        BackendUnavailable: python-sat is missing, or lacks this solver.

    >>> from nonolab.core import Puzzle
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> result = CnfSolver().solve(p, Limits(max_solutions=None))
    >>> result.status.value, result.count, result.complete
    ('solved', 2, True)
    """

    name = "cnf"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.IMPLICATIONS,
                              Capability.SESSION, Capability.COLOUR, Capability.PROOF})
    OPTIONS = (
        Option("solver", "choice", "cadical195", "the python-sat solver (or one of its aliases: m22, kissat ...)",
               choices=lambda: sorted(set(solver_names().values())), spelling=_canonical),
        max_states_option(MAX_STATES),
    )
    # The declared options as settle() sets them: their types, for the checker (defaults and checks
    # live in OPTIONS only; tests/backends/test_options.py holds the two names to each other).
    solver: str
    max_states: int | None
    # Kissat runs another way (a killed child process, a solve per solution): the
    # contract suite runs it as a variant of its own.
    VARIANTS = {"solver": ("kissat404",)}

    def __new__(cls, **options: Any) -> "CnfSolver":
        # A one-shot solver is a class of its own (see ONE_SHOT).
        if cls is CnfSolver and "solver" in options:
            cls = ONE_SHOT.get(declared(cls)["solver"].parse(options["solver"], cls.name), cls)
        return super().__new__(cls)

    def __init__(self, **options: Any):
        settle(self, options)
        pysat_solvers = _pysat_solvers()
        try:
            pysat_solvers.Solver(name=self.solver).delete()
        except pysat_solvers.NoSuchSolverError as exc:
            raise BackendUnavailable(f"cnf: python-sat has no working solver {self.solver!r} here") from exc
        # No colour with one-shot Kissat (it aborts on a clause added after solve), no proofs without a log.
        self.CAPABILITIES = CnfSolver.CAPABILITIES - ({Capability.COLOUR} if self.solver in ONE_SHOT else set()) \
            - (set() if logs_proofs(self.solver) else {Capability.PROOF})

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Find up to ``limits.max_solutions`` solutions, counting exactly when it can.

        Args:
            puzzle: the puzzle.
            limits: solution count and wall-clock bounds (encoding time included).
            given: its cells are added as unit clauses, so the solutions (and the
                count) are those that extend them (units, not assumptions: each call
                builds its own solver, and units let CaDiCaL simplify; assumptions made
                Sierp 2x slower, measured); its implications as binary clauses.

        Returns:
            SOLVED with ``complete=True`` when the solver proved there is no further
            solution, UNSAT when it proved there is none, TIMEOUT (with the solutions
            found so far, ``complete=False``) when the time limit stopped it.

        Raises:
            BackendUnavailable: a time limit with a solver that cannot be stopped
                (lingeling).
            InvalidArgument: a given cell outside the grid or not 0/1.
        """
        watch = Budget.of(limits)
        given = accept(self, puzzle, given)
        mode = _stoppable(self.solver, limits)
        refuse_beyond(self.name, puzzle, self.max_states)
        if puzzle.is_colour:
            return self._solve_colour(puzzle, limits, given, mode, watch)
        units = cells_as_assumptions(given.cells, puzzle.width, puzzle.height)
        try:
            enc = encode(puzzle, watch.expired)
        except LimitReached:
            return finish(self.name, puzzle, limits, watch, (), False,
                          {"solver": self.solver, "encode_time": round(watch.elapsed(), 6)})
        extra = [[lit] for lit in units] + implication_clauses(given.implications, puzzle.width)
        return self._search(puzzle, limits, watch, mode, enc, extra, _black_and_white(enc.num_cells, puzzle.width))

    def prove(self, puzzle: Puzzle, limits: Limits = Limits(), proof: Any = None) -> SolveResult:
        """:meth:`solve` writing the SAT solver's DRAT proof to ``proof`` (see :mod:`.proving`)."""
        from nonolab.solvers.cnf.proving import prove
        return prove(self, puzzle, limits, proof)

    def _solve_colour(self, puzzle: Puzzle, limits: Limits, given: Given, mode: str | None,
                      watch: Budget) -> SolveResult:
        """:meth:`solve` for a colour puzzle (:mod:`.colour`'s one-hot encoding)."""
        from nonolab.solvers.cnf.colour import encode_colour

        try:
            enc = encode_colour(puzzle, watch.expired)
        except LimitReached:
            return finish(self.name, puzzle, limits, watch, (), False,
                          {"solver": self.solver, "encode_time": round(watch.elapsed(), 6)})
        extra = [[lit] for lit in enc.units(given.cells)] + enc.implication_clauses(given.implications)
        return self._search(puzzle, limits, watch, mode, enc, extra, _colour(enc))

    def _search(self, puzzle: Puzzle, limits: Limits, watch: Budget, mode: str | None, enc: Any,
                extra: list[list[int]], read: Callable[[Any], tuple[Solution, list[int]]]) -> SolveResult:
        """Load an encoding (black-and-white or colour) and ``extra`` clauses into a fresh
        SAT solver and enumerate, within ``watch``; the counters say where the time went."""
        encode_time = watch.elapsed()
        with _pysat_solvers().Solver(name=self.solver) as sat:
            found: list[Solution] = []
            complete, timed_out, calls = False, True, 0
            if load_clauses(sat, enc.clauses + extra, watch):
                run = Limited(sat, mode, watch)
                try:
                    found, complete, timed_out = _enumerate(sat, run, [], checking(read, puzzle, self.name),
                                                            limits.max_solutions)
                finally:
                    run.close()
                calls = run.calls
            sat_stats = sat.accum_stats() or {}
        return result_of(self.name, puzzle, limits, found, complete, timed_out, watch, {
            "solver": self.solver,
            "variables": enc.num_vars,
            "clauses": len(enc.clauses) + len(extra),
            "encode_time": round(encode_time, 6),
            "solve_time": round(watch.elapsed() - encode_time, 6),
            "solve_calls": calls,
        }, sat_stats, checked=True)

    def session(self, puzzle: Puzzle) -> Any:
        """Encode ``puzzle`` once into one incremental SAT solver, for many questions.

        See :class:`CnfSession`; close it (or use ``with``) when done.  A colour puzzle
        gets one too (its one-hot encoding, :mod:`.colour`).  A one-shot solver
        (:class:`.kissat.KissatSolver`) has no incremental session: it gets the generic
        one, a fresh solve per question (:class:`~nonolab.solvers.session.OneShotSession`).

        >>> from nonolab.core import Puzzle
        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
        >>> with CnfSolver().session(p) as s:
        ...     s.solve(Limits(None), Given.of({(0, 0): 1})).count, s.solve(Limits(None)).count
        (1, 2)
        """
        return CnfSession(self, puzzle)


class CnfSession:
    """One puzzle in one live SAT solver: repeated solves with different fixed cells.

    ``solve`` has the contract of :meth:`CnfSolver.solve` (same statuses, the same
    verified solutions, an exact count when ``complete``), but the encoding and what
    the SAT solver learnt are kept from one call to the next: a question that fixes a
    few cells costs a solve under assumptions, not a new encoding and a new solver.
    The blocking clauses of one call are guarded by a fresh selector literal, assumed
    during that call and retired after it, so no call sees another's.  ``restrict``
    fixes cells for good; ``implied`` says what unit propagation (line logic)
    decides from some fixed cells.

    The encoding is built by the first call that needs it, inside that call's clock
    (and stopped by its cancel): opening a session costs nothing.  A colour puzzle is
    encoded one-hot (:mod:`.colour`): a fixed cell is its value's variable, and
    ``implied`` lists the cells whose value propagation makes true.
    """

    def __init__(self, solver: CnfSolver, puzzle: Puzzle):
        refuse_beyond(solver.name, puzzle, solver.max_states)
        self.name = solver.name
        self.solver = solver.solver
        self.puzzle = puzzle
        self._mode = time_limit_mode(self.solver)
        self._enc: Any = None                   # the encoding, once built
        self._top = 0
        self._sat: Any = None                   # the SAT solver, once every clause is in
        self._closed = False
        self.encode_time = 0.0
        self.calls = 0
        self._units: list[list[int]] = []       # the restrict() cells, as unit clauses
        self._propagator: Any = None            # MiniSat, for implied(), made on first use

    def _built(self, watch: Budget) -> bool:
        """Encode and load the SAT solver unless done; False when ``watch`` stopped it first."""
        if self._closed:
            raise ValueError("CnfSession: the session is closed")
        if self._sat is not None:
            return True
        start = watch.elapsed()
        if self._enc is None:
            from nonolab.solvers.cnf.colour import encode_colour

            try:
                self._enc = (encode_colour if self.puzzle.is_colour else encode)(self.puzzle, watch.expired)
            except LimitReached:
                return False
            self._top = self._enc.num_vars
        sat = _pysat_solvers().Solver(name=self.solver)
        if not load_clauses(sat, self._enc.clauses + self._units, watch):
            sat.delete()
            return False
        self._sat = sat
        self.encode_time += watch.elapsed() - start
        return True

    def solve(self, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Up to ``limits.max_solutions`` solutions that extend ``given``'s cells (the
        session takes no implications: they would stay for good).

        Raises:
            BackendUnavailable: a time limit with a solver that cannot be stopped.
            InvalidArgument: a given cell outside the grid or not 0/1, or implications.
            ValueError: a closed session.
        """
        if self._closed:
            raise ValueError("CnfSession.solve: the session is closed")
        watch = Budget.of(limits)
        given = (given or Given()).check(self.puzzle).within(self.puzzle)
        if given.implications:
            raise InvalidArgument("a cnf session takes given cells only, not implications")
        mode = _stoppable(self.solver, limits)
        assumptions = self._literals(given.cells)
        if not self._built(watch):
            return result_of(self.name, self.puzzle, limits, [], False, True, watch,
                           {"solver": self.solver, "encode_time": round(watch.elapsed(), 6)}, {})
        sat = self._sat
        before = sat.accum_stats() or {}
        self._top += 1
        selector = self._top
        run = Limited(sat, mode, watch)
        try:
            read = checking(_colour(self._enc) if self.puzzle.is_colour
                            else _black_and_white(self._enc.num_cells, self.puzzle.width), self.puzzle, self.name)
            found, complete, timed_out = _enumerate(sat, run, assumptions, read, limits.max_solutions, selector)
        finally:
            run.close()
            if run.mode == "interrupt":
                sat.clear_interrupt()   # a late timer must not stop the next call
            sat.add_clause([-selector])  # retire this call's blocking clauses
        self.calls += run.calls
        after = sat.accum_stats() or {}
        spent = {key: after[key] - before.get(key, 0) for key in after}
        return result_of(self.name, self.puzzle, limits, found, complete, timed_out, watch, {
            "solver": self.solver,
            "variables": self._enc.num_vars,
            "clauses": len(self._enc.clauses),
            "encode_time": 0.0,
            "solve_time": round(watch.elapsed(), 6),
            "solve_calls": run.calls,
            "session_calls": self.calls,
        }, spent, checked=True)

    def restrict(self, fixed_cells: Mapping[tuple[int, int], int]) -> None:
        """Fix these cells for good, as unit clauses: every later call only sees the
        solutions that extend them.  For cells known to hold in every solution (a
        backbone) this changes no answer and makes later calls cheaper than passing
        the cells as assumptions each time.

        Raises:
            ValueError: a cell outside the grid or not 0/1, or a closed session.
        """
        if self._closed:
            raise ValueError("CnfSession.restrict: the session is closed")
        for lit in self._literals(fixed_cells):
            if self._sat is not None:  # else the build adds it with the others
                self._sat.add_clause([lit])
            self._units.append([lit])
            if self._propagator is not None:
                self._propagator.add_clause([lit])

    def implied(self, fixed_cells: Mapping[tuple[int, int], int] | None = None) -> dict[tuple[int, int], int] | None:
        """The cells unit propagation decides once ``fixed_cells`` are set, with their
        values; ``None`` when propagation meets a conflict.

        With this encoding unit propagation is the complete line solver run to a
        fixpoint, so these are the cells line logic alone deduces, the fixed ones
        included, beyond what it deduces from the clues and the :meth:`restrict`
        cells without them (those are not listed).  Propagation runs on a MiniSat
        companion of the session's solver, holding the same clauses: python-sat's
        ``propagate`` takes about 40 ms per call with CaDiCaL on a 60x60 puzzle and
        20 us with MiniSat (measured; same answers).

        >>> from nonolab.core import Puzzle
        >>> with CnfSolver().session(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))) as s:
        ...     sorted(s.implied({(0, 0): 1}).items())
        [((0, 0), 1), ((0, 1), 0), ((1, 0), 0), ((1, 1), 1)]
        """
        if self._closed:
            raise ValueError("CnfSession.implied: the session is closed")
        self._built(Budget(None))
        if self._propagator is None:
            self._propagator = _pysat_solvers().Solver(name="minisat22", bootstrap_with=self._enc.clauses)
            for unit in self._units:
                self._propagator.add_clause(unit)
        assumptions = self._literals(fixed_cells or {})
        ok, literals = off_main_thread(lambda: self._propagator.propagate(assumptions=assumptions),
                                       lambda: None)  # one propagation: milliseconds
        if not ok:
            return None
        n, w = self._enc.num_cells, self.puzzle.width
        if self.puzzle.is_colour:   # a cell is decided when one of its values is true
            k1 = self._enc.values
            return {divmod((lit - 1) // k1, w): (lit - 1) % k1 for lit in literals if 0 < lit <= n * k1}
        cells = [lit for lit in literals if -n <= lit <= n]      # cells are variables 1..n
        return {divmod(lit - 1, w) if lit > 0 else divmod(-lit - 1, w): int(lit > 0) for lit in cells}

    def _literals(self, cells: Mapping[tuple[int, int], int]) -> list[int]:
        """Fixed cells as literals: a black-and-white cell is its variable (negated for
        empty), a colour cell the variable of its value (the one-hot numbering of
        :class:`.colour.ColourEncoding`, known before the encoding is built).

        Raises:
            ValueError: a cell outside the grid, or a value the puzzle has not.
        """
        puzzle = self.puzzle
        if not puzzle.is_colour:
            return cells_as_assumptions(cells, puzzle.width, puzzle.height)
        Given.of(cells).check(puzzle)
        k1 = puzzle.colours + 1
        return [(r * puzzle.width + c) * k1 + v + 1 for (r, c), v in sorted(cells.items())]

    def close(self) -> None:
        self._closed = True
        if self._sat is not None:
            self._sat.delete()
            self._sat = None
        if self._propagator is not None:
            self._propagator.delete()
            self._propagator = None

    def __enter__(self) -> "CnfSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
