"""The cnf backend's proofs: python-sat's proof logging (``with_proof=True``) on the regular encoding.

The search is the backend's own (:func:`.solver._enumerate`: solve, block the picture
found with a clause over its cells, solve again) in one incremental SAT solver that
logs every clause it learns and deletes, as DRAT.  A complete search ends with the
empty clause, so the log is a proof that the encoding plus the blocking clause of each
solution found, in the order found, has no model: exactly the formula of
:attr:`~nonolab.solvers.base.Capability.PROOF`.

Which python-sat solvers log proofs is asked of python-sat (a solver that cannot raises
``NotImplementedError`` when built with ``with_proof``), once per solver: on python-sat
1.9 the CaDiCaL versions (1.0.3, 1.5.3, 1.9.5, 3.0.0), the Glucose versions and Lingeling
do; MiniSat and its relatives do not.  (Before python-sat 1.9.dev16 CaDiCaL's proofs
could arrive truncated; the package requires a later version.)
"""

from __future__ import annotations

import os
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument, LimitReached
from nonolab.solvers.base import Capability, Limits, SolveResult, Budget, accept, capabilities, finish

__all__ = ["prove"]

def prove(backend: Any, puzzle: Puzzle, limits: Limits, proof: Any) -> SolveResult:
    """``backend.solve(puzzle, limits)`` with its SAT solver's proof log written to ``proof``.

    Raises:
        InvalidArgument: a colour puzzle, or no proof path.
        BackendUnavailable: the backend's SAT solver does not log proofs.
        OSError: the proof cannot be written.
    """
    from nonolab.solvers.cnf.calls import Limited, load_clauses
    from nonolab.solvers.cnf.encode import cells_as_assumptions, encode
    from nonolab.solvers.cnf.sat import _black_and_white, _enumerate, _pysat_solvers, _stoppable, checking, result_of

    if Capability.PROOF not in capabilities(backend):
        raise BackendUnavailable(f"cnf: solver {backend.solver!r} writes no proofs; use cadical195 or glucose4")
    if puzzle.is_colour:
        raise InvalidArgument("cnf: proofs are written for black-and-white puzzles only (the CNF they refer "
                              "to has no colour encoding)")
    if proof is None:
        raise InvalidArgument("cnf: prove needs the path of the proof file")
    watch = Budget.of(limits)
    given = accept(backend, puzzle, None)  # the puzzle's own givens: unit clauses, as the DIMACS export has them
    mode = _stoppable(backend.solver, limits)
    counters: dict[str, Any] = {"solver": backend.solver}
    try:
        enc = encode(puzzle, watch.expired)
    except LimitReached:
        return finish(backend.name, puzzle, limits, watch, (), False, counters)
    found: list[Solution] = []
    complete, timed_out = False, True
    sat_stats: dict[str, Any] = {}
    with _pysat_solvers().Solver(name=backend.solver, with_proof=True) as sat:
        units = [[lit] for lit in cells_as_assumptions(given.cells, puzzle.width, puzzle.height)]
        if load_clauses(sat, enc.clauses + units, watch):
            run = Limited(sat, mode, watch)
            try:
                found, complete, timed_out = _enumerate(sat, run, [], checking(_black_and_white(enc.num_cells, puzzle.width),
                                                                                  puzzle, backend.name), limits.max_solutions)
            finally:
                run.close()
        sat_stats = sat.accum_stats() or {}
        lines = (sat.get_proof() or []) if complete and not timed_out else []
    counters.update(_write(lines, os.fspath(proof)), variables=enc.num_vars, clauses=len(enc.clauses))
    return result_of(backend.name, puzzle, limits, found, complete, timed_out, watch, counters, sat_stats, checked=True)


def _write(lines: list[str], path: str) -> dict[str, int]:
    """The proof's lines into ``path``; how many lines and bytes."""
    size = 0
    with open(path, "w", encoding="ascii", newline="\n") as out:
        for line in lines:
            out.write(line)
            out.write("\n")
            size += len(line) + 1
    return {"proof_lines": len(lines), "proof_bytes": size}
