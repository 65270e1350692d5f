"""A puzzle as a model for an external solver: the CNF backend's clauses as DIMACS."""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle


def dimacs(puzzle: Puzzle, max_states: int | None = None) -> str:
    """The CNF backend's encoding of ``puzzle`` as DIMACS text (cells are variables
    ``1..width*height``, row-major; the line automata's states follow).

    ``max_states`` bounds the model as the CNF backend's own guard does (default: its
    default), before a clause is built: the same puzzle the backend refuses to solve is
    refused here, not encoded into gigabytes of text.

    Raises:
        TooLarge: the model is beyond ``max_states`` cells and line states.

    >>> dimacs(Puzzle(rows=((1,),), columns=((1,),))).splitlines()[0].startswith("c ")
    True
    """
    from nonolab.errors import TooLarge
    from nonolab.solvers.cnf import MAX_STATES, model_states, to_dimacs

    limit = MAX_STATES if max_states is None else max_states
    states = model_states(puzzle)
    if states > limit:
        raise TooLarge(f"the {puzzle.width}x{puzzle.height} puzzle's CNF model has {states:,} cells and line "
                       f"states, beyond the limit of {limit:,} that the cnf backend also holds to "
                       f"(--max-states N raises it)")
    return to_dimacs(puzzle)
