"""Several lcg searches in one thread, taking turns in slices of conflicts, until one of
them finds the first solution or exhausts the puzzle.

Two schedules use it:

* ``interleave`` (:func:`schedule`): search A has no phase hints (no belief propagation
  is ever computed for it) and runs first, for ``first`` conflicts: an easy puzzle ends
  there.  Then search B (the default search, built only now, in its own engine, so its
  run is today's bit for bit) gets ``ratio`` times as many, then A twice its first
  budget, B twice its, and so on (the budgets double), so a puzzle unlucky in one
  configuration is found by the other at most about (1 + 1/ratio) times later than that
  one alone would find it.
* ``rescue`` (:func:`rescue_schedule`): the default search runs alone for ``solo``
  conflicts, so every puzzle it finds sooner is searched exactly as without a rescue;
  only then are the rescue searches built (each in its own engine, with its own
  options), and they and the default take turns of ``turn`` conflicts each, the turns
  doubling after each round.  A puzzle the default finds after C > solo conflicts costs
  at most about C + k (C - solo) + one turn with k rescues; one a rescue finds after R
  costs about solo + (k + 1) R.

The slices are counted in conflicts, not seconds, so the interleaving is deterministic;
the clock and the cancel are still looked at every ``slice_seconds`` inside a slice.

Counting stays exact because only one engine ever counts: the engine that finds the
first solution (or proves there is none) goes on alone, and the others are dropped; every
solution it reports it found itself, blocked, and "unique" (or the count) comes from
its complete search alone.

>>> turns = schedule(50, 4)
>>> [next(turns) for _ in range(4)]
[(0, 50), (1, 200), (0, 100), (1, 400)]
>>> turns = rescue_schedule(1000, 100, 2)
>>> [next(turns) for _ in range(5)]
[(0, 1000), (1, 100), (2, 100), (0, 100), (1, 200)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Interleaved", "schedule", "rescue_schedule", "SEARCH_A", "SEARCH_B", "RUN_BUDGET", "RUN_SOLUTION",
           "RUN_EXHAUSTED"]

# interleave's searches: A without hints (first), B the default one.
SEARCH_A, SEARCH_B = 0, 1

# What Engine.run returns (here, the first module to read it; the solver imports them).
RUN_BUDGET, RUN_SOLUTION, RUN_EXHAUSTED = 0, 1, 2


def schedule(first: int, ratio: int) -> Iterator[tuple[int, int]]:
    """interleave's turns: (search, conflicts), A and B in turn, B ``ratio`` times A's, doubling."""
    budget = first
    while True:
        yield SEARCH_A, budget
        yield SEARCH_B, budget * ratio
        budget *= 2


def rescue_schedule(solo: int, turn: int, rescues: int) -> Iterator[tuple[int, int]]:
    """rescue's turns: the default search (0) alone for ``solo`` conflicts, then the
    rescue searches 1..``rescues`` and the default in turn, ``turn`` conflicts each,
    doubling after each round."""
    yield 0, solo
    budget = turn
    while True:
        for search in range(1, rescues + 1):
            yield search, budget
        yield 0, budget
        budget *= 2


@dataclass
class Interleaved:
    """The engines' turns until one of them has an answer.

    Args:
        build: ``build(search)`` -> a new engine for that search (each is built when its
            first turn comes: an easy puzzle never builds the later ones).
        turns: the schedule, (search, conflicts) pairs (:func:`schedule`,
            :func:`rescue_schedule`); the first search is built at once.
        names: each search's name, for the counters (``conflicts_<name>``).
        label: the counters' prefix for the turns and the winner.
    """

    build: Callable[[int], Any]
    turns: Iterator[tuple[int, int]]
    names: tuple[str, ...] = ("a", "b")
    label: str = "interleave"
    engines: list[Any] = field(default_factory=list)
    winner: int | None = None
    taken: int = 1
    _current: tuple[int, int] = (0, 0)   # (search, conflicts left in its turn)
    _last: int = 0                        # the search that ran last
    _interrupted: bool = False

    def __post_init__(self) -> None:
        self.engines = [None] * len(self.names)
        self._current = next(self.turns)
        self._last = self._current[0]
        self.engines[self._last] = self.build(self._last)

    @property
    def engine(self) -> Any:
        """The winner once there is one, else the engine that ran last."""
        return self.engines[self._last if self.winner is None else self.winner]

    def _turn(self) -> tuple[int, int]:
        if self.winner is not None:
            return self.winner, 0
        search, left = self._current
        if left <= 0:
            search, left = self._current = next(self.turns)
            self.taken += 1
        if self.engines[search] is None:
            engine = self.engines[search] = self.build(search)
            if self._interrupted:
                engine.interrupt()
        return search, left

    def run(self, seconds: float, conflicts: int = 0) -> int:
        """One slice of at most ``seconds`` (and of the current turn's conflicts, and of
        ``conflicts`` when positive: what the call's conflict limit leaves): what
        Engine.run returns.  A solution or an exhausted search makes its engine the winner,
        which then runs alone (on the clock and ``conflicts`` only)."""
        search, left = self._turn()
        engine = self.engines[search]
        self._last = search
        if self.winner is not None:
            return engine.run(seconds, conflicts)
        before = engine.stats()["conflicts"]
        outcome = engine.run(seconds, min(left, conflicts) if conflicts > 0 else left)
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
        """Engine.interrupt on every search built (and on the others when they are built)."""
        self._interrupted = True
        for engine in self.engines:
            if engine is not None:
                engine.interrupt()

    def built(self) -> list[Any]:
        """The engines built so far, in the order of the searches."""
        return [engine for engine in self.engines if engine is not None]

    def stats(self) -> dict[str, int]:
        """All engines' counters summed (the work done), with each search's conflicts
        (``conflicts_<name>``), the turns taken (``<label>_turns``) and the winner
        (``<label>_winner``: the search's index, -1 none yet)."""
        total: dict[str, int] = {}
        for engine in self.built():
            for key, value in engine.stats().items():
                total[key] = total.get(key, 0) + value
        for name, engine in zip(self.names, self.engines):
            total[f"conflicts_{name}"] = engine.stats()["conflicts"] if engine is not None else 0
        total[f"{self.label}_turns"] = self.taken
        total[f"{self.label}_winner"] = -1 if self.winner is None else self.winner
        return total
