"""Many questions on one puzzle: sessions that solve it again and again under different givens."""

from __future__ import annotations

from typing import Mapping, Protocol

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Capability, Cell, Given, Limits, SolveResult, Solver, capabilities


class Session(Protocol):
    """Repeated solves of one puzzle under different givens.

    ``solve`` follows :meth:`Solver.solve`'s contract.  A backend that can keep its
    work between calls (the CNF backend's incremental SAT solver) declares
    :attr:`Capability.SESSION` and offers ``solver.session(puzzle)``;
    :func:`open_session` falls back to :class:`OneShotSession` for the others.
    """

    def solve(self, limits: Limits = Limits(), given: Given | None = None) -> SolveResult: ...

    def restrict(self, cells: Mapping[Cell, int]) -> None:
        """Fix these cells in every later solve (meant for cells known to hold in every
        solution, such as the backbone, so that later questions are cheaper)."""
        ...

    def close(self) -> None: ...


class OneShotSession:
    """The generic :class:`Session`: every call is a fresh ``solver.solve(puzzle, ...)``."""

    def __init__(self, solver: Solver, puzzle: Puzzle):
        self.solver = solver
        self.puzzle = puzzle
        self.name = solver.name
        self._always: dict[Cell, int] = {}

    def solve(self, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        return self.solver.solve(self.puzzle, limits, (given or Given()).with_cells(self._always))

    def restrict(self, cells: Mapping[Cell, int]) -> None:
        self._always.update(cells)

    def close(self) -> None:
        pass

    def __enter__(self) -> "OneShotSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(solver: Solver, puzzle: Puzzle) -> Session:
    """The backend's own session if it declares one, else :class:`OneShotSession`.

    Raises:
        InvalidArgument: the backend does not take given cells.

    >>> from nonolab.solvers import get
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> s = open_session(get("cpsat"), p)
    >>> s.solve(Limits(None), Given.of({(0, 1): 1})).count
    1
    >>> s.close()
    """
    declared = capabilities(solver)
    if Capability.GIVEN_CELLS not in declared:
        raise InvalidArgument(f"backend {solver.name!r} does not take given cells, so it cannot open a session")
    if Capability.SESSION in declared:
        return solver.session(puzzle)  # type: ignore[attr-defined]
    return OneShotSession(solver, puzzle)
