"""The contract every backend implements: ``Solver.solve(puzzle, limits) -> SolveResult``.

A backend translates the puzzle into its own terms, searches, and maps what it found
onto the fixed vocabulary here.  It never reports a solution it has not checked:
:func:`checked_solutions` is the one gate every solution passes through.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Iterator, Mapping, Protocol

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.verify import verify
from nonolab.errors import LimitReached, NonolabError, TooLarge


class Status(str, Enum):
    """How a search ended.

    * ``SOLVED``: at least one solution was found (``complete`` says whether the
      search space was exhausted, i.e. whether the count is exact).
    * ``UNSAT``: the search space was exhausted and there is no solution.
    * ``TIMEOUT``: a time or node limit ended the search first; the solutions found
      so far are kept, and nothing is claimed about the rest.
    * ``INTERRUPTED``: ``Limits.cancel`` was set (Ctrl-C, SIGTERM, or a caller
      stopping the search) before it ended; as for ``TIMEOUT``, the solutions found so
      far are kept and nothing is claimed about the rest.
    """

    SOLVED = "solved"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class Limits:
    """Bounds on one search.

    Args:
        max_solutions: stop after this many distinct solutions; ``None`` counts all.
            The default of 2 answers "solve it and tell me whether it is unique".
        time_limit: wall-clock seconds; ``None`` for no limit.
        cancel: an object with ``is_set()`` (a ``threading.Event``): once set, the
            backend stops within about 0.2 s, in any phase, and reports
            ``INTERRUPTED`` with what it found.  How Ctrl-C stops a search, and how a
            race between backends stops the loser.
    """

    max_solutions: int | None = 2
    time_limit: float | None = None
    cancel: Any = field(default=None, compare=False)

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
        remainder: for a search stopped early, a partial grid (one state mask per
            cell, row-major: 1 empty, 2 filled, 3 unknown) that every solution not in
            ``solutions`` satisfies: what the backend proved about the space it left
            open.  ``None`` when the backend does not report it.  A later solver may
            search only that space and add its solutions: the union stays exact.
    """

    status: Status
    solutions: tuple[Solution, ...]
    complete: bool
    stats: Stats
    steps: tuple[Any, ...] = ()
    remainder: bytes | None = None

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



Cell = tuple[int, int]


class Session(Protocol):
    """Repeated solves of one puzzle with different cells fixed (``fixed_cells``).

    ``solve`` follows :meth:`Solver.solve`'s contract.  A backend that can keep its
    work between calls (the CNF backend's incremental SAT solver) offers
    ``solver.session(puzzle)``; :func:`open_session` falls back to
    :class:`OneShotSession` for the others.
    """

    def solve(self, limits: Limits = Limits(), *,
              fixed_cells: Mapping[Cell, int] | None = None) -> SolveResult: ...

    def restrict(self, fixed_cells: Mapping[Cell, int]) -> None:
        """Fix these cells in every later solve (meant for cells known to hold in every
        solution, such as the backbone, so that later questions are cheaper)."""
        ...

    def close(self) -> None: ...


def accepts_fixed_cells(solver: Solver) -> bool:
    """Whether ``solver.solve`` takes ``fixed_cells`` (a declared capability, not a name).

    >>> class Plain:
    ...     name = "plain"
    ...     def solve(self, puzzle, limits=Limits()): ...
    >>> accepts_fixed_cells(Plain())
    False
    """
    try:
        return "fixed_cells" in inspect.signature(solver.solve).parameters
    except (TypeError, ValueError):
        return False


class OneShotSession:
    """The generic :class:`Session`: every call is a fresh ``solver.solve(puzzle, ...)``."""

    def __init__(self, solver: Solver, puzzle: Puzzle):
        self.solver = solver
        self.puzzle = puzzle
        self.name = solver.name
        self._always: dict[Cell, int] = {}

    def solve(self, limits: Limits = Limits(), *,
              fixed_cells: Mapping[Cell, int] | None = None) -> SolveResult:
        fixed = {**self._always, **(fixed_cells or {})} or None
        return self.solver.solve(self.puzzle, limits, fixed_cells=fixed)  # type: ignore[call-arg]

    def restrict(self, fixed_cells: Mapping[Cell, int]) -> None:
        self._always.update(fixed_cells)

    def close(self) -> None:
        pass

    def __enter__(self) -> "OneShotSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(solver: Solver, puzzle: Puzzle) -> Session:
    """The backend's own session if it has one, else :class:`OneShotSession`.

    Raises:
        TypeError: the backend does not accept ``fixed_cells``.

    >>> from nonolab.solvers import get
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> s = open_session(get("cpsat"), p)
    >>> s.solve(Limits(None), fixed_cells={(0, 1): 1}).count
    1
    >>> s.close()
    """
    if not accepts_fixed_cells(solver):
        raise TypeError(f"open_session: backend {solver.name!r} does not accept fixed_cells")
    own = getattr(solver, "session", None)
    if callable(own):
        return own(puzzle)
    return OneShotSession(solver, puzzle)

def model_states(puzzle: Puzzle) -> int:
    """The size of a line-by-line model of ``puzzle``: its cells plus the states of every
    line's automaton.

    A line of ``n`` cells whose clue has ``k`` blocks filling ``M = sum + k - 1`` cells
    has slack ``S = n - M`` and ``(M + 1)(S + 1)`` reachable automaton states; CP-SAT's
    expanded automata, the CNF encoding and the exact-cover options all grow with this
    sum, and every model has a variable per cell (a blank 5000x5000 grid has no states
    but 25 million cells).  Computed from the clues in microseconds, so a
    model-building backend can refuse a puzzle before it builds anything.

    >>> model_states(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    20
    """
    total = puzzle.width * puzzle.height
    for clues, n in ((puzzle.rows, puzzle.width), (puzzle.columns, puzzle.height)):
        for clue in clues:
            if clue:
                filled = sum(clue) + len(clue) - 1
                total += (filled + 1) * (n - filled + 1)
    return total


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
    """Wall time since creation, and whether a deadline has passed or a cancel was set."""

    __slots__ = ("start", "deadline", "cancel")

    def __init__(self, time_limit: float | None, cancel: Any = None):
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.cancel = cancel

    @classmethod
    def of(cls, limits: "Limits") -> "Stopwatch":
        return cls(limits.time_limit, limits.cancel)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def expired(self) -> bool:
        return self.cancelled() or (self.deadline is not None and time.perf_counter() >= self.deadline)

    def stopped_status(self) -> "Status":
        """How a search this watch stopped early ended: INTERRUPTED when the cancel was
        set, TIMEOUT otherwise (a deadline or a node limit)."""
        return Status.INTERRUPTED if self.cancelled() else Status.TIMEOUT


def collect(backend: str, puzzle: Puzzle, limits: Limits, watch: Stopwatch,
            pictures: Iterator[Solution], counters: dict[str, Any]) -> SolveResult:
    """The result of a search that yields its solutions one at a time (the generic count).

    Takes solutions from ``pictures`` until it is exhausted (the count is exact),
    ``limits.max_solutions`` is reached, or it raises :class:`LimitReached` (its
    deadline passed: TIMEOUT, or its cancel was set: INTERRUPTED, with the solutions
    found so far).  The iterator is
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
        status = watch.stopped_status()
    counters["solutions"] = len(solutions)
    return SolveResult(status, solutions, finished, Stats(backend, watch.elapsed(), counters))
