"""How big a puzzle's model is, so a model-building backend can refuse a puzzle before
it builds anything (the memory guard behind every ``max_states`` option), and the memory
a backend declares a cell costs (:func:`bytes_per_cell`, held to the memory budget)."""

from __future__ import annotations

from typing import Any

from nonolab.core.puzzle import Puzzle
from nonolab.errors import TooLarge


def model_states(puzzle: Puzzle) -> int:
    """The size of a line-by-line model of ``puzzle``: its cells plus the states of every
    line's automaton.

    A line of ``n`` cells whose blocks fill at least ``M`` cells (their lengths, plus one
    gap between two blocks of the same colour: ``sum + k - 1`` in black and white) has
    slack ``S = n - M`` and ``(M + 1)(S + 1)`` reachable automaton states; CP-SAT's
    expanded automata, the CNF encoding and the exact-cover options all grow with this
    sum, and every model has a variable per cell (a blank 5000x5000 grid has no states
    but 25 million cells).  Computed from the clues in microseconds, so a
    model-building backend can refuse a puzzle before it builds anything.

    >>> model_states(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    20
    """
    total = puzzle.width * puzzle.height
    for clues, colours, n in ((puzzle.rows, puzzle.row_colours, puzzle.width),
                              (puzzle.columns, puzzle.column_colours, puzzle.height)):
        for i, clue in enumerate(clues):
            if clue:
                # Blocks of different colours may touch: counting a gap between every two
                # (the black-and-white rule) made M exceed n on such colour lines, the slack
                # negative and the whole size too small, even below zero, so max_states
                # let any such puzzle through.
                line = colours[i] if colours is not None else None
                gaps = len(clue) - 1 if line is None else sum(a == b for a, b in zip(line, line[1:]))
                filled = sum(clue) + gaps
                total += (filled + 1) * (n - filled + 1)
    return total


def model_states_at_most(puzzle: Puzzle) -> int:
    """An upper bound of :func:`model_states` from the grid's size alone, in constant time:
    a line of ``n`` cells has at most ``(n + 2)**2 // 4`` states (``(M + 1)(S + 1)`` with
    ``M + S = n`` is largest when the two are equal), whatever its clue.  A puzzle within a
    bound by this measure is within it by the exact one, without a pass over its clues
    (``auto`` asks on every solve whether a 25x25 grid fits a bound of millions).

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> model_states(p) <= model_states_at_most(p), model_states_at_most(p)
    (True, 20)
    """
    w, h = puzzle.width, puzzle.height
    return w * h + h * ((w + 2) ** 2 // 4) + w * ((h + 2) ** 2 // 4)


def refuse_beyond(backend: str, puzzle: Puzzle, max_states: int | None) -> None:
    """Raise :class:`~nonolab.errors.TooLarge` when ``puzzle``'s model is beyond ``max_states``.

    >>> refuse_beyond("cnf", Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nonolab.errors.TooLarge: backend 'cnf': the 2x2 puzzle needs a model of 20 cells and line states, beyond ...
    """
    if max_states is None:
        return
    states = model_states(puzzle)
    if states > max_states:
        raise TooLarge(f"backend {backend!r}: the {puzzle.width}x{puzzle.height} puzzle needs a model of "
                       f"{states:,} cells and line states, beyond its limit of {max_states:,} (-O max_states=N "
                       f"raises it); use the native backend (-b native), which builds no model")


def bytes_per_cell(backend: Any, puzzle: Puzzle) -> int:
    """The memory ``backend`` declares a cell of ``puzzle`` costs: its ``memory_per_cell(puzzle)`` (a strategy
    over engines: auto), else ``COLOUR_BYTES_PER_CELL`` for a colour puzzle, else ``BYTES_PER_CELL`` (0: none).

    ``backend`` is an instance or a class.  A class that declares ``memory_per_cell``
    answers per instance (the cost follows its options), so it is asked of the class
    built with its defaults: read off the class, the method would take the puzzle for
    ``self``.

    >>> class PerInstance:
    ...     def __init__(self, wide=False): self.wide = wide
    ...     def memory_per_cell(self, puzzle): return 9 if self.wide else 3
    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> bytes_per_cell(PerInstance, p), bytes_per_cell(PerInstance(wide=True), p)
    (3, 9)
    """
    if isinstance(backend, type) and callable(getattr(backend, "memory_per_cell", None)):
        backend = backend()
    of_puzzle = getattr(backend, "memory_per_cell", None)
    colour = getattr(backend, "COLOUR_BYTES_PER_CELL", None) if puzzle.is_colour else None
    return int(of_puzzle(puzzle)) if of_puzzle else colour or getattr(backend, "BYTES_PER_CELL", None) or 0


def fits_memory(puzzle: Puzzle, bytes_per_cell: int) -> bool:
    """Whether ``bytes_per_cell`` for each of ``puzzle``'s cells is within the active memory
    budget (the rule :func:`nonolab.formats.limits.check_memory` refuses by): for a part of
    a search that may be left out, such as native's LalaFrogKK slot.

    >>> fits_memory(Puzzle(rows=((1,),), columns=((1,),)), 17)
    True
    """
    from nonolab.formats.limits import check_memory

    try:
        check_memory("", puzzle.width, puzzle.height, bytes_per_cell)
    except TooLarge:
        return False
    return True


def memory_budget() -> int | None:
    """The memory budget in force, in bytes (``None``: none), read now: what a search that
    holds memory no plan declares (a child process: :mod:`nonolab.solvers.cnf.oneshot`) is
    held to as it runs (:func:`refuse_held`)."""
    from nonolab.formats.limits import memory_budget as in_force

    return in_force()


def refuse_held(what: str, held: int, budget: int | None) -> None:
    """Raise TooLarge if ``held`` bytes (``what`` holds them now) are beyond ``budget``.

    >>> refuse_held("a child", 10, None), refuse_held("a child", 10, 10)
    (None, None)
    """
    from nonolab.formats.limits import check_held

    check_held(what, held, budget)
