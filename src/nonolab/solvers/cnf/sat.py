"""python-sat's solvers as the cnf backend uses them: which there are, how each is stopped
at a deadline, which log proofs, and the one loop that enumerates solutions with one.

Kept apart from :mod:`.solver` so that the backend's proofs (:mod:`.proving`), its model
counter (:mod:`.sharpsat`) and its one-shot solvers (:mod:`.kissat`) share the loop
without importing the backend class (and it them).
"""

from __future__ import annotations

import gc
import sys
from typing import Any, Callable, Mapping

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.solvers.base import Limits, SolveResult, Budget, checked_solutions, finish
from nonolab.solvers.cnf.calls import Limited

__all__ = ["ONE_SHOT", "checking", "logs_proofs", "result_of", "solver_names", "time_limit_mode"]

# The python-sat solvers that must run one solve per process, each with its class (a
# subclass of CnfSolver, which ``CnfSolver(solver=name)`` builds): filled in by the modules that
# define them when the package is imported (:mod:`.kissat`), so that this one names none.
ONE_SHOT: dict[str, type] = {}

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

    >>> solver_names()["g4"], solver_names()["kissat"]
    ('glucose4', 'kissat404')
    """
    names = _pysat_solvers().SolverNames
    out = {}
    for canonical, aliases in vars(names).items():
        if canonical.startswith("_"):
            continue
        for alias in (canonical, *aliases):
            out[alias] = canonical
    return out


def _canonical(name: str) -> str:
    known = solver_names()
    if name in known:
        return known[name]
    listed = ", ".join(sorted(set(known.values())))
    raise InvalidArgument(f"cnf: unknown SAT solver {name!r}; known: {listed}")


def time_limit_mode(name: str) -> str | None:
    """How solver ``name`` is stopped at a deadline: ``"interrupt"``, ``"budget"``,
    ``"kill"`` (a one-shot solver in a child process) or ``None``.

    Found by asking a throw-away instance (python-sat raises ``NotImplementedError``
    for what a solver lacks), once per solver.

    >>> time_limit_mode("minisat22"), time_limit_mode("cadical195"), time_limit_mode("kissat404")
    ('interrupt', 'budget', 'kill')
    """
    name = _canonical(name)
    if name in ONE_SHOT:
        return "kill"
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


def _stoppable(name: str, limits: Limits) -> str | None:
    mode = time_limit_mode(name)
    if limits.time_limit is not None and mode is None:
        raise BackendUnavailable(
            f"cnf: solver {name!r} cannot be interrupted, so it cannot honour "
            f"time_limit; use cadical195, glucose4 or minisat22")
    return mode


def _enumerate(sat: Any, run: Limited, assumptions: list[int], read: Callable[[Any], tuple[Solution, list[int]]],
               max_solutions: int | None, selector: int | None = None) -> tuple[list[Solution], bool, bool]:
    """Solutions under ``assumptions``, each blocked once found: ``(found, complete, timed_out)``.

    ``read(sat)`` turns the solver's model into the picture and the clause that blocks
    it (:func:`_black_and_white` or a colour encoding's reader).  With a ``selector`` the
    blocking clauses are guarded by it (and it is assumed), so that retiring the selector
    afterwards frees the solver of them.
    """
    found: list[Solution] = []
    complete = timed_out = False
    guard = [] if selector is None else [-selector]
    if selector is not None:
        assumptions = assumptions + [selector]
    while max_solutions is None or len(found) < max_solutions:
        answer = run(assumptions)
        if answer is None:
            timed_out = True
            break
        if not answer:
            complete = True
            break
        picture, block = read(sat)
        found.append(picture)
        sat.add_clause(guard + block)
    return found, complete, timed_out


def _black_and_white(n: int, width: int) -> Callable[[Any], tuple[Solution, list[int]]]:
    """The reader of a black-and-white encoding: cells are variables 1..n, so the model's
    first n literals are the picture, and their negation blocks it."""
    def read(sat: Any) -> tuple[Solution, list[int]]:
        cells = sat.get_model()[:n]
        assert [abs(lit) for lit in cells] == list(range(1, n + 1))
        return Solution.from_flat([lit > 0 for lit in cells], width), [-lit for lit in cells]
    return read


def _colour(enc: Any) -> Callable[[Any], tuple[Solution, list[int]]]:
    """The reader of a colour encoding: the picture from the one-hot cells, blocked by the
    negation of its cells' true values."""
    def read(sat: Any) -> tuple[Solution, list[int]]:
        picture = enc.picture(sat.get_model()[:enc.cell_literals])
        block = [-enc.cell_var(*divmod(i, enc.width), v) for i, v in enumerate(picture)]
        return Solution.from_bytes(picture, enc.width, colours=True), block
    return read


def checking(read: Callable[[Any], tuple[Solution, list[int]]], puzzle: Puzzle,
             backend: str) -> Callable[[Any], tuple[Solution, list[int]]]:
    """``read`` whose picture is checked against the clues as it is read: the check is
    then inside the search's clock (the SAT calls' time limit), not after it; give the
    result to :func:`result_of` with ``checked=True``."""
    def read_checked(sat: Any) -> tuple[Solution, list[int]]:
        picture, block = read(sat)
        checked_solutions(puzzle, (picture,), backend)
        return picture, block
    return read_checked


def result_of(backend: str, puzzle: Puzzle, limits: Limits, found: list[Solution], complete: bool,
              timed_out: bool, watch: Budget, counters: dict[str, Any],
              sat_stats: Mapping[str, int], checked: bool = False) -> SolveResult:
    """The search's end as a SolveResult, with python-sat's counters among its own
    (``checked``: every picture of ``found`` was read through :func:`checking`)."""
    for key in ("conflicts", "decisions", "propagations", "restarts"):
        if key in sat_stats:
            counters[key] = sat_stats[key]
    return finish(backend, puzzle, limits, watch, found, complete and not timed_out, counters, checked=checked)


_LOGS_PROOFS: dict[str, bool] = {}


def logs_proofs(name: str) -> bool:
    """Whether python-sat's solver ``name`` (a canonical name) writes DRAT proofs.

    >>> logs_proofs("cadical195"), logs_proofs("minisat22")
    (True, False)
    """
    if name not in _LOGS_PROOFS:
        able = False
        if name not in ONE_SHOT:  # a one-shot solver runs in a child process: no log comes back
            # A refused constructor leaves an object whose __del__ complains; say nothing of it.
            hook, sys.unraisablehook = sys.unraisablehook, lambda *_: None
            try:
                _pysat_solvers().Solver(name=name, with_proof=True).delete()
                able = True
            except NotImplementedError:
                pass
            finally:
                gc.collect()
                sys.unraisablehook = hook
        _LOGS_PROOFS[name] = able
    return _LOGS_PROOFS[name]
