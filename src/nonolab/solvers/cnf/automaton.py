"""The automaton of one line's clue, cut down to the states that matter.

The pattern is ``1^L1 0 1^L2 0 ... 1^Lk`` (length ``M = sum(L) + k - 1``); state ``s``
counts the pattern symbols read so far.  From ``s`` the automaton *advances* on
``pattern[s]``, and a *free* state (0, right after a separating 0, or ``M``) may
also read an extra 0 and stay.  ``M`` accepts.  The language is exactly the lines
``0* 1^L1 0+ ... 0+ 1^Lk 0*``.

Kept at step ``i`` are the states reachable from 0 in ``i`` steps and able to reach
``M`` in the ``n - i`` steps left.  As state 0 and state ``M`` are both free, these
are exactly ``max(0, i - slack) <= s <= min(i, M)`` (``slack = n - M``): at most
``slack + 1`` per step, whatever the blocks.

>>> line = Line("row 0", (2,), (1, 2, 3))
>>> [list(line.states(i)) for i in range(4)]
[[0], [0, 1], [1, 2], [2]]
>>> list(line.edges(1))
[(0, 1, 1), (1, 1, 2)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterator

from nonolab.core.puzzle import Clue

__all__ = ["Line"]

@dataclass(frozen=True)
class Line:
    """One line: its clue, its cell variables and the automaton of the clue.

    ``pattern[s]`` is the symbol read when leaving state ``s`` by an advance; state
    ``M = len(pattern)`` accepts.  ``free`` are the states with a 0 self-loop.
    """

    tag: Hashable
    clue: Clue
    cells: tuple[int, ...]
    pattern: tuple[int, ...] = field(init=False)
    free: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        pattern: list[int] = []
        free = {0}
        for j, length in enumerate(self.clue):
            if j:
                pattern.append(0)
                free.add(len(pattern))  # after a separating 0, more 0s may follow
            pattern.extend([1] * length)
        free.add(len(pattern))
        object.__setattr__(self, "pattern", tuple(pattern))
        object.__setattr__(self, "free", frozenset(free))

    @property
    def n(self) -> int:
        return len(self.cells)

    @property
    def final(self) -> int:
        return len(self.pattern)

    @property
    def slack(self) -> int:
        return self.n - len(self.pattern)

    def states(self, i: int) -> range:
        """States reachable at step ``i`` from the start and co-reachable to the end."""
        return range(max(0, i - self.slack), min(i, self.final) + 1)

    def edges(self, i: int) -> Iterator[tuple[int, int, int]]:
        """``(state, value, next_state)`` for the transitions from step i to i + 1."""
        for s in self.states(i):
            if s < self.final:  # always lands in states(i + 1)
                yield s, self.pattern[s], s + 1
            if s in self.free and s >= i + 1 - self.slack:  # staying must leave time
                yield s, 0, s
