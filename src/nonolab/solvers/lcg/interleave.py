"""Two lcg searches interleaved in one thread, in slices of conflicts, until one of them
finds the first solution or exhausts the puzzle.

Search A has no phase hints (no belief propagation is ever computed for it) and runs
first, for ``first`` conflicts: an easy puzzle ends there.  Then search B (the default
search, built only now, in its own engine, so its run is today's bit for bit) gets
``ratio`` times as many, then A twice its first budget, B twice its, and so on (the
budgets double), so a puzzle unlucky in one configuration is found by the other at
most about (1 + 1/ratio) times later than that one alone would find it.

The slices are counted in conflicts, not seconds, so the interleaving is deterministic;
the clock and the cancel are still looked at every ``slice_seconds`` inside a slice.

Counting stays exact because only one engine ever counts: the engine that finds the
first solution (or proves there is none) goes on alone, and the other is dropped; every
solution it reports it found itself, blocked, and "unique" (or the count) comes from
its complete search alone.

>>> turns = schedule(50, 4)
>>> [next(turns) for _ in range(4)]
[(0, 50), (1, 200), (0, 100), (1, 400)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Interleaved", "schedule", "SEARCH_A", "SEARCH_B", "RUN_BUDGET", "RUN_SOLUTION", "RUN_EXHAUSTED"]

# The searches: A without hints (first), B the default one.
SEARCH_A, SEARCH_B = 0, 1

# What Engine.run returns (here, the first module to read it; the solver imports them).
RUN_BUDGET, RUN_SOLUTION, RUN_EXHAUSTED = 0, 1, 2


def schedule(first: int, ratio: int) -> Iterator[tuple[int, int]]:
    """The turns: (search, conflicts), A and B in turn, B ``ratio`` times A's, doubling."""
    budget = first
    while True:
        yield SEARCH_A, budget
        yield SEARCH_B, budget * ratio
        budget *= 2


@dataclass
class Interleaved:
    """The two engines' turns until one of them has an answer.

    Args:
        build: ``build(search)`` -> a new engine for SEARCH_A or SEARCH_B (B is built when
            its first turn comes: an easy puzzle never builds it).
        first: A's first budget of conflicts.
        ratio: B's budget over A's in each round.
    """

    build: Callable[[int], Any]
    first: int
    ratio: int
    engines: list[Any] = field(default_factory=lambda: [None, None])
    winner: int | None = None
    turns: int = 0
    _schedule: Iterator[tuple[int, int]] | None = None
    _current: tuple[int, int] = (SEARCH_A, 0)   # (search, conflicts left in its turn)
    _last: int = SEARCH_A                         # the search that ran last
    _interrupted: bool = False

    def __post_init__(self) -> None:
        self._schedule = schedule(self.first, self.ratio)
        self.engines[SEARCH_A] = self.build(SEARCH_A)

    @property
    def engine(self) -> Any:
        """The winner once there is one, else the engine that ran last."""
        return self.engines[self._last if self.winner is None else self.winner]

    def _turn(self) -> tuple[int, int]:
        if self.winner is not None:
            return self.winner, 0
        search, left = self._current
        if left <= 0:
            assert self._schedule is not None
            search, left = self._current = next(self._schedule)
            self.turns += 1
        if self.engines[search] is None:
            engine = self.engines[search] = self.build(search)
            if self._interrupted:
                engine.interrupt()
        return search, left

    def run(self, seconds: float) -> int:
        """One slice of at most ``seconds`` (and of the current turn's conflicts): what
        Engine.run returns.  A solution or an exhausted search makes its engine the winner,
        which then runs alone (on the clock only)."""
        search, left = self._turn()
        engine = self.engines[search]
        self._last = search
        if self.winner is not None:
            return engine.run(seconds)
        before = engine.stats()["conflicts"]
        outcome = engine.run(seconds, left)
        self._current = (search, left - (engine.stats()["conflicts"] - before))
        if outcome != RUN_BUDGET:
            self.winner = search
        return outcome

    def solution(self) -> bytes:
        """The last solution (of the winner: only it finds solutions)."""
        return self.engine.solution()

    def root(self) -> bytes:
        """The root level of the engine that runs next (before the first solution, each
        engine's root holds only what every solution agrees with; after it, the winner's)."""
        return self.engine.root()

    def interrupt(self) -> None:
        """Engine.interrupt on both searches (and on B when it is built later)."""
        self._interrupted = True
        for engine in self.engines:
            if engine is not None:
                engine.interrupt()

    def stats(self) -> dict[str, int]:
        """Both engines' counters summed (the work done), with each search's conflicts
        (``conflicts_a``, ``conflicts_b``), the turns taken and the winner (0 A, 1 B, -1 none)."""
        total: dict[str, int] = {}
        for engine in self.engines:
            if engine is not None:
                for key, value in engine.stats().items():
                    total[key] = total.get(key, 0) + value
        a, b = (e.stats()["conflicts"] if e is not None else 0 for e in self.engines)
        total.update(conflicts_a=a, conflicts_b=b, interleave_turns=self.turns,
                     interleave_winner=-1 if self.winner is None else self.winner)
        return total
