"""The CNF backend: the regular (DFA) encoding with support clauses, solved by python-sat.

:mod:`.encode` builds the clauses (and DIMACS text) without any SAT library;
:mod:`.solver` runs a python-sat solver, imported only when a solve needs it, so
importing this package does not import python-sat.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers.base import Limits
>>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
>>> CnfSolver(solver="glucose4").solve(p, Limits(max_solutions=None)).count
2
"""

from __future__ import annotations

from nonolab.solvers.cnf.encode import (Encoding, cells_as_assumptions, encode, encode_line, line_size,
                                        to_dimacs)
from nonolab.solvers.cnf.solver import MAX_STATES, CnfSession, CnfSolver, solver_names, time_limit_mode
from nonolab.solvers.cnf.kissat import KissatSolver  # (after solver: it registers itself as a one-shot solver)
from nonolab.solvers.size import model_states

__all__ = ["CnfSession", "CnfSolver", "Encoding", "KissatSolver", "MAX_STATES", "cells_as_assumptions", "encode",
           "encode_line", "line_size", "model_states", "solver_names", "time_limit_mode", "to_dimacs"]
