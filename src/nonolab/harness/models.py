"""A puzzle as a model for an external solver: the CNF backend's clauses as DIMACS."""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle


def dimacs(puzzle: Puzzle) -> str:
    """The CNF backend's encoding of ``puzzle`` as DIMACS text (cells are variables
    ``1..width*height``, row-major; the line automata's states follow).

    >>> dimacs(Puzzle(rows=((1,),), columns=((1,),))).splitlines()[0].startswith("c ")
    True
    """
    from nonolab.solvers.cnf import to_dimacs
    return to_dimacs(puzzle)
