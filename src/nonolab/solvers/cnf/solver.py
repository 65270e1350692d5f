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
lingeling supports neither, so a time limit with it is refused.  Kissat is never
used: it is not incremental (adding a blocking clause after ``solve()`` aborts the
whole process).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Mapping, Sequence

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, UnknownBackend
from nonolab.solvers.base import Limits, SolveResult, Stats, Status, Stopwatch, checked_solutions
from nonolab.solvers.cnf.encode import cells_as_assumptions, encode, implication_clauses

__all__ = ["CnfSolver", "solver_names", "time_limit_mode"]

# Not incremental: python-sat's Kissat aborts the process on add_clause after solve().
_EXCLUDED = "kissat404"

# How each solver can be stopped at a deadline, filled in on first use.
_LIMIT_MODES: dict[str, str | None] = {}


def _pysat_solvers() -> Any:
    try:
        import pysat.solvers
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise BackendUnavailable(
            f"backend 'cnf' needs python-sat ({exc}); install it with: pip install python-sat") from exc
    return pysat.solvers


def solver_names() -> dict[str, str]:
    """Every python-sat solver name and alias the backend accepts, mapped to its canonical name.

    >>> solver_names()["g4"], "kissat" in solver_names()
    ('glucose4', False)
    """
    names = _pysat_solvers().SolverNames
    out = {}
    for canonical, aliases in vars(names).items():
        if canonical.startswith("_") or canonical == _EXCLUDED:
            continue
        for alias in (canonical, *aliases):
            out[alias] = canonical
    return out


def _canonical(name: str) -> str:
    known = solver_names()
    if name in known:
        return known[name]
    listed = ", ".join(sorted(set(known.values())))
    if name in vars(_pysat_solvers().SolverNames).get(_EXCLUDED, ()) or name == _EXCLUDED:
        raise UnknownBackend(f"cnf: solver {name!r} is excluded (Kissat is not incremental, and "
                             f"blocking clauses after solve() abort the process); known: {listed}")
    raise UnknownBackend(f"cnf: unknown SAT solver {name!r}; known: {listed}")


def time_limit_mode(name: str) -> str | None:
    """How solver ``name`` is stopped at a deadline: ``"interrupt"``, ``"budget"`` or ``None``.

    Found by asking a throw-away instance (python-sat raises ``NotImplementedError``
    for what a solver lacks), once per solver.

    >>> time_limit_mode("minisat22"), time_limit_mode("cadical195")
    ('interrupt', 'budget')
    """
    name = _canonical(name)
    if name not in _LIMIT_MODES:
        mode = None
        with _pysat_solvers().Solver(name=name) as sat:
            try:
                sat.interrupt()
                sat.clear_interrupt()
                mode = "interrupt"
            except NotImplementedError:
                try:
                    sat.conf_budget(1)
                    mode = "budget"
                except NotImplementedError:
                    pass
        _LIMIT_MODES[name] = mode
    return _LIMIT_MODES[name]


class _Limited:
    """Calls ``solve`` on the SAT solver so that the stopwatch's deadline is honoured.

    Returns True/False as the solver does, or None when the deadline stopped it.
    """

    def __init__(self, sat: Any, mode: str | None, watch: Stopwatch):
        self.sat = sat
        limited = watch.deadline is not None or watch.cancel is not None
        self.mode = mode if limited else None
        self.watch = watch
        self.budget = 100  # conflicts per slice in "budget" mode, adapted as we go
        self.calls = 0
        self.finished = threading.Event()
        self.timer: threading.Thread | None = None
        if self.mode == "interrupt":
            self.timer = threading.Thread(target=self._interrupt_when_expired, daemon=True)
            self.timer.start()

    def _interrupt_when_expired(self) -> None:
        while not self.finished.is_set():
            if self.watch.expired():
                self.sat.interrupt()
                return
            self.finished.wait(0.01)

    def close(self) -> None:
        # The watcher must be finished before the solver is deleted, or a late
        # interrupt() would reach freed memory.
        if self.timer is not None:
            self.finished.set()
            self.timer.join()

    def __call__(self, assumptions: list[int]) -> bool | None:
        self.calls += 1
        if self.mode is None:
            return self.sat.solve(assumptions=assumptions)
        if self.watch.expired():
            return None
        if self.mode == "interrupt":
            return self.sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
        return self._sliced(assumptions)

    def _sliced(self, assumptions: list[int]) -> bool | None:
        while True:
            deadline = self.watch.deadline
            remaining = float("inf") if deadline is None else deadline - time.perf_counter()
            if remaining <= 0 or self.watch.cancelled():
                return None
            before = self.sat.accum_stats().get("conflicts", 0)
            start = time.perf_counter()
            self.sat.conf_budget(self.budget)  # CaDiCaL forgets the budget after each call
            result = self.sat.solve_limited(assumptions=assumptions)
            if result is not None:
                return result
            spent = max(time.perf_counter() - start, 1e-6)
            done = self.sat.accum_stats().get("conflicts", 0) - before
            # Slices of at most 50 ms (a quarter of what is left near the end) keep
            # the overshoot small; grow at most 2x per slice, shrink at once.
            target = min(0.05, max(remaining - spent, 0.0) / 4)  # (no deadline: 50 ms, to see a cancel)
            self.budget = max(50, min(2 * self.budget, int(done / spent * target)))


class CnfSolver:
    """Regular (DFA) CNF encoding solved by a python-sat solver, with exact counting.

    Args:
        solver: a python-sat solver name or alias (see :func:`solver_names`);
            CaDiCaL 1.9.5 by default, the best of those measured on nonograms.

    Raises:
        UnknownBackend: the name is not a python-sat solver, or is Kissat.
        BackendUnavailable: python-sat is missing, or lacks this solver.

    >>> from nonolab.core import Puzzle
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> result = CnfSolver().solve(p, Limits(max_solutions=None))
    >>> result.status.value, result.count, result.complete
    ('solved', 2, True)
    """

    name = "cnf"

    def __init__(self, solver: str = "cadical195"):
        self.solver = _canonical(solver)
        pysat_solvers = _pysat_solvers()
        try:
            pysat_solvers.Solver(name=self.solver).delete()
        except pysat_solvers.NoSuchSolverError as exc:
            raise BackendUnavailable(f"cnf: python-sat has no working solver {self.solver!r} here") from exc

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), *,
              fixed_cells: Mapping[tuple[int, int], int] | None = None,
              implications: Sequence[tuple[int, int, int, int]] = ()) -> SolveResult:
        """Find up to ``limits.max_solutions`` solutions, counting exactly when it can.

        Args:
            puzzle: the puzzle.
            limits: solution count and wall-clock bounds (encoding time included).
            fixed_cells: ``{(row, column): 0 or 1}`` added as unit clauses; the
                solutions (and the count) are then those that extend these cells.
                (Units, not assumptions: each call builds its own solver, and units
                let CaDiCaL simplify; assumptions made Sierp 2x slower, measured.)
            implications: rows ``(p, a, q, b)`` (cells row-major, states 1 empty /
                2 filled) added as clauses ``p != a or q == b``; they must hold in
                every solution wanted (e.g. ``NativeSolver.implications``).

        Returns:
            SOLVED with ``complete=True`` when the solver proved there is no further
            solution, UNSAT when it proved there is none, TIMEOUT (with the solutions
            found so far, ``complete=False``) when the time limit stopped it.

        Raises:
            BackendUnavailable: a time limit with a solver that cannot be stopped
                (lingeling).
            ValueError: a fixed cell outside the grid or not 0/1.
        """
        watch = Stopwatch.of(limits)
        mode = time_limit_mode(self.solver)
        if limits.time_limit is not None and mode is None:
            raise BackendUnavailable(
                f"cnf: solver {self.solver!r} cannot be interrupted, so it cannot honour "
                f"time_limit; use cadical195, glucose4 or minisat22")
        units = cells_as_assumptions(fixed_cells or {}, puzzle.width, puzzle.height)
        enc = encode(puzzle)
        extra = [[lit] for lit in units] + implication_clauses(implications, enc.num_cells)
        encode_time = watch.elapsed()
        n = enc.num_cells
        found: list[Solution] = []
        complete = timed_out = False
        with _pysat_solvers().Solver(name=self.solver, bootstrap_with=enc.clauses) as sat:
            sat.append_formula(extra)
            run = _Limited(sat, mode, watch)
            try:
                while limits.max_solutions is None or len(found) < limits.max_solutions:
                    answer = run([])
                    if answer is None:
                        timed_out = True
                        break
                    if not answer:
                        complete = True
                        break
                    cells = sat.get_model()[:n]
                    # Cells are variables 1..n, so the model's first n literals are the picture.
                    assert [abs(lit) for lit in cells] == list(range(1, n + 1))
                    found.append(Solution.from_flat([lit > 0 for lit in cells], puzzle.width))
                    sat.add_clause([-lit for lit in cells])
            finally:
                run.close()
            sat_stats = sat.accum_stats() or {}
        solutions = checked_solutions(puzzle, found, self.name)
        if timed_out:
            status = Status.TIMEOUT
        elif solutions:
            status = Status.SOLVED
        else:
            status = Status.UNSAT
        counters = {
            "solver": self.solver,
            "variables": enc.num_vars,
            "clauses": len(enc.clauses) + len(extra),
            "encode_time": round(encode_time, 6),
            "solve_time": round(watch.elapsed() - encode_time, 6),
            "solve_calls": run.calls,
        }
        for key in ("conflicts", "decisions", "propagations", "restarts"):
            if key in sat_stats:
                counters[key] = sat_stats[key]
        stats = Stats(self.name, watch.elapsed(), counters)
        return SolveResult(status, solutions, complete and not timed_out, stats)
