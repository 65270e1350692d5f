"""The contract every backend implements: ``Solver.solve(puzzle, limits) -> SolveResult``.

A backend translates the puzzle into its own terms, searches, and maps what it found
onto the fixed vocabulary here.  It never reports a solution it has not checked:
:func:`checked_solutions` is the one gate every solution passes through.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Iterator, Protocol

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.verify import verify
from nonolab.errors import LimitReached, NonolabError


class Status(str, Enum):
    """How a search ended.

    * ``SOLVED``: at least one solution was found (``complete`` says whether the
      search space was exhausted, i.e. whether the count is exact).
    * ``UNSAT``: the search space was exhausted and there is no solution.
    * ``TIMEOUT``: a time or node limit ended the search first; the solutions found
      so far are kept, and nothing is claimed about the rest.
    """

    SOLVED = "solved"
    UNSAT = "unsat"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Limits:
    """Bounds on one search.

    Args:
        max_solutions: stop after this many distinct solutions; ``None`` counts all.
            The default of 2 answers "solve it and tell me whether it is unique".
        time_limit: wall-clock seconds; ``None`` for no limit.
    """

    max_solutions: int | None = 2
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.max_solutions is not None and self.max_solutions < 1:
            raise ValueError("Limits: max_solutions must be at least 1 (or None for all)")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError("Limits: time_limit must be positive (or None)")

    def deadline(self, start: float) -> float | None:
        return None if self.time_limit is None else start + self.time_limit


@dataclass
class Stats:
    """What a backend did: its name, wall time and counters of its own.

    Counters are backend specific (``line_solves``, ``cache_hits``, ``probes``,
    ``nodes``, ``max_depth`` for the native solver; ``conflicts``, ``branches`` for
    CDCL backends) and are kept in ``counters`` so the harness can print any of them.
    """

    backend: str
    wall_time: float = 0.0
    counters: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "wall_time": round(self.wall_time, 6), **self.counters}


@dataclass(frozen=True)
class SolveResult:
    """The answer of one backend on one puzzle.

    Attributes:
        status: see :class:`Status`.
        solutions: distinct solutions, every one verified against the clues.
        complete: the search space was exhausted, so ``len(solutions)`` is exact.
        stats: wall time and counters.
        steps: the step log, when the backend was asked to record one.
    """

    status: Status
    solutions: tuple[Solution, ...]
    complete: bool
    stats: Stats
    steps: tuple[Any, ...] = ()

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def unique(self) -> bool:
        """Exactly one solution, proven by an exhausted search (never on a limit)."""
        return self.complete and len(self.solutions) == 1

    @property
    def solution(self) -> Solution | None:
        return self.solutions[0] if self.solutions else None


class Solver(Protocol):
    """A backend.  ``name`` is its registry key."""

    name: str

    def solve(self, puzzle: Puzzle, limits: Limits = Limits()) -> SolveResult: ...


class WrongAnswer(NonolabError):
    """A backend returned a picture that does not satisfy the clues: a solver bug."""


def checked_solutions(puzzle: Puzzle, solutions: Iterable[Solution], backend: str) -> tuple[Solution, ...]:
    """Verify and deduplicate solutions, keeping their order; raise on any wrong one."""
    seen: dict[Solution, None] = {}
    for sol in solutions:
        problems = verify(puzzle, sol)
        if problems:
            raise WrongAnswer(f"backend {backend!r} returned a wrong solution: {problems[0]}")
        seen.setdefault(sol, None)
    return tuple(seen)


class Stopwatch:
    """Wall time since creation, and whether a deadline has passed."""

    __slots__ = ("start", "deadline")

    def __init__(self, time_limit: float | None):
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline


def collect(backend: str, puzzle: Puzzle, limits: Limits, watch: Stopwatch,
            pictures: Iterator[Solution], counters: dict[str, Any]) -> SolveResult:
    """The result of a search that yields its solutions one at a time (the generic count).

    Takes solutions from ``pictures`` until it is exhausted (the count is exact),
    ``limits.max_solutions`` is reached, or it raises :class:`LimitReached` (its
    deadline passed: TIMEOUT, with the solutions found so far).  The iterator is
    closed in every case, so a generator can record its counters in ``finally``.

    >>> from nonolab.core.puzzle import Puzzle
    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> r = collect("demo", p, Limits(), Stopwatch(None), iter([Solution.from_rows(["#"])]), {})
    >>> r.status.value, r.count, r.complete, r.stats.counters
    ('solved', 1, True, {'solutions': 1})
    """
    found: list[Solution] = []
    finished = False
    try:
        for picture in pictures:
            found.append(picture)
            if limits.max_solutions is not None and len(found) >= limits.max_solutions:
                break
        else:
            finished = True
    except LimitReached:
        pass
    finally:
        close = getattr(pictures, "close", None)
        if close is not None:
            close()
    solutions = checked_solutions(puzzle, found, backend)
    if finished:
        status = Status.SOLVED if solutions else Status.UNSAT
    elif limits.max_solutions is not None and len(solutions) >= limits.max_solutions:
        status = Status.SOLVED      # stopped at max_solutions
    else:
        status = Status.TIMEOUT
    counters["solutions"] = len(solutions)
    return SolveResult(status, solutions, finished, Stats(backend, watch.elapsed(), counters))
