"""What a backend can do beyond ``solve(puzzle, limits)``: the :class:`Capability` it declares.

Part of the contract of :mod:`nonolab.solvers.base` (which names both), kept apart so
that the contract module stays small.

>>> Capability("colour") is Capability.COLOUR
True
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class Capability(str, Enum):
    """What a backend can do beyond ``solve(puzzle, limits)``, declared by its class in
    ``CAPABILITIES`` (a frozenset); callers and tests ask :func:`capabilities`, never a
    signature or a name.

    * ``EXACT_COUNT``: the search can be exhausted, so ``complete`` and ``unique`` may be
      claimed (every backend today; a heuristic backend would not declare it).
    * ``GIVEN_CELLS``: ``solve(..., given=Given(cells=...))`` restricts the search to
      the solutions that agree with the given cells.
    * ``IMPLICATIONS``: ``Given.implications`` are honoured (as constraints that every
      wanted solution satisfies); a backend without it refuses them.
    * ``HINT``: ``Given.hint``, a picture tried first, is used (others ignore it: it
      never changes the answer).
    * ``SESSION``: ``solver.session(puzzle)`` keeps work between calls with different
      given cells (see :func:`open_session`).
    * ``PROGRESS``: the backend takes a ``progress(decided, cells)`` callback.
    * ``STEPS``: the backend records a step log (``record_steps=True``).
    * ``REMAINDER``: a search stopped early reports ``SolveResult.remainder``.
    * ``COLOUR``: the backend solves colour puzzles (``puzzle.is_colour``); one without
      it refuses them in :func:`accept`.  Black and white needs no declaration.
    * ``REPRODUCIBLE``: the same puzzle, given, options and limits give the same solutions in
      the same order on every call, however the machine is loaded or the search cut into time
      slices, unless a time limit or cancel stops it (a deterministic search that only pauses
      between slices; not a race, search styles alternating in time slices, a conflict budget
      sized by the clock, or several workers).  The generator aims its repairs with one
      (see :mod:`nonolab.generate.criteria`).
    * ``PROOF``: ``prove(puzzle, limits, path)`` answers as ``solve`` and writes a DRAT proof to
      ``path``: for a complete answer, the empty clause from the regular CNF (``export --to dimacs``)
      plus a clause excluding each solution found (black and white; :mod:`nonolab.certify`).
    * ``MODEL_COUNT``: a model counter: a complete result's ``total`` is the count, its
      ``solutions`` only a few witnesses.
    * ``BATCH``: ``solver.solve_many(puzzles, limits)`` answers in order as ``solve`` would, cheaply;
      a puzzle that ``solve`` would raise a library error on is answered by that error (an
      instance, in its place), so one puzzle's error does not end the others.
    """

    EXACT_COUNT = "exact-count"
    GIVEN_CELLS = "given-cells"
    IMPLICATIONS = "implications"
    HINT = "hint"
    SESSION = "session"
    PROGRESS = "progress"
    STEPS = "steps"
    REMAINDER = "remainder"
    COLOUR = "colour"
    REPRODUCIBLE = "reproducible"
    PROOF = "proof"
    MODEL_COUNT = "model-count"
    BATCH = "batch"


def capabilities(solver: Any) -> frozenset[Capability]:
    """The capabilities ``solver`` (an instance or a class) declares; none if it declares none.

    >>> from nonolab.solvers import get
    >>> Capability.GIVEN_CELLS in capabilities(get("cpsat"))
    True
    >>> class Toy:
    ...     name = "toy"
    >>> capabilities(Toy())
    frozenset()
    """
    # An instance may narrow its class's declaration (cnf with Kissat: no colour, no proofs).
    return frozenset(getattr(solver, "CAPABILITIES", frozenset()))
