"""Kissat, the cnf backend's one-shot solver: its own class, each solve in a killable child.

python-sat's Kissat (``kissat404``) can be neither interrupted nor given a conflict
budget, and aborts the whole process on a clause added after ``solve()``.  So
:class:`KissatSolver` runs it in a child process (:mod:`.oneshot`), killed at the
deadline, on a cancel and on Ctrl-C, and counts by solving again with the solutions so
far blocked.  That leaves out what the incremental solvers of :class:`.solver.CnfSolver`
offer: colour (the colour encoding blocks solutions in one live solver) and an
incremental session (each question is a fresh solve).  ``CnfSolver(solver="kissat")`` builds
this class: the module registers it as the one-shot solver of its name.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> solver = CnfSolver(solver="kissat")
>>> type(solver).__name__, Capability.COLOUR in solver.CAPABILITIES
('KissatSolver', False)
"""

from __future__ import annotations

from typing import Any

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, accept
from nonolab.solvers.cnf.encode import cells_as_assumptions, implication_clauses
from nonolab.solvers.cnf.solver import ONE_SHOT, CnfSolver, result_of
from nonolab.solvers.size import memory_budget, refuse_beyond

__all__ = ["KissatSolver"]


class KissatSolver(CnfSolver):
    """The cnf backend with a one-shot solver (see the module notes); built by
    ``CnfSolver(solver=name)`` for a solver named in ``ONE_SHOT``."""

    CAPABILITIES = CnfSolver.CAPABILITIES - {Capability.COLOUR}

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """:meth:`CnfSolver.solve`, one whole solve per solution in a child process.

        Raises:
            InvalidArgument: a colour puzzle, or a given cell outside the grid or not 0/1.
            TooLarge: the child held more than the memory budget (it is killed).
        """
        from nonolab.solvers.cnf.oneshot import run_one_shot  # brings subprocess: only when Kissat runs

        watch = Budget.of(limits)
        if puzzle.is_colour:  # (its capabilities leave colour out)
            raise InvalidArgument(f"cnf: solver {self.solver} takes black-and-white puzzles only; "
                                  "colour puzzles need an incremental solver such as cadical195")
        given = accept(self, puzzle, given)
        refuse_beyond(self.name, puzzle, self.max_states)
        extra = ([[lit] for lit in cells_as_assumptions(given.cells, puzzle.width, puzzle.height)]
                 + implication_clauses(given.implications, puzzle.width))
        found, complete, stopped, counters = run_one_shot(self.solver, puzzle, extra, limits.max_solutions, watch,
                                                          memory_budget())   # (read here, as accept read it)
        counters = {"solver": self.solver, "clauses_added": len(extra), **counters}
        return result_of(self.name, puzzle, limits, found, complete, stopped, watch, counters, {})

    def session(self, puzzle: Puzzle) -> Any:
        """The generic session: a fresh solve per question (no incremental Kissat)."""
        from nonolab.solvers import OneShotSession

        return OneShotSession(self, puzzle)


ONE_SHOT["kissat404"] = KissatSolver
