"""The contract every backend implements: ``Solver.solve(puzzle, limits) -> SolveResult``.

A backend translates the puzzle into its own terms, searches, and maps what it found
onto the fixed vocabulary here.  It never reports a solution it has not checked:
:func:`checked_solutions` is the one gate every solution passes through.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol

from nonolab.core.grid import EMPTY, FILLED, Grid, Solution
from nonolab.core.lazy import BuiltOnFirstRead
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument, LimitReached, Unsupported, WrongAnswer
from nonolab.solvers.size import bytes_per_cell   # (its home; named here, where backends look)
# What a backend declares lives in its own module; the contract names it here as ever.
from nonolab.solvers.capability import Capability, capabilities


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
        cancel: an object with ``is_set()`` (a ``threading.Event``): once set, the backend
            stops within about 0.2 s, in any phase, and reports ``INTERRUPTED`` with what it
            found (how Ctrl-C stops a search, and a race its loser).
    """

    max_solutions: int | None = 2
    time_limit: float | None = None
    cancel: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.max_solutions is not None and self.max_solutions < 1:
            raise InvalidArgument("Limits: max_solutions must be at least 1 (or None for all)")
        if self.time_limit is not None and not self.time_limit > 0:   # nan too
            raise InvalidArgument("Limits: time_limit must be positive (or None)")


@dataclass
class Stats:
    """What a backend did: its name, wall time and counters of its own.

    Counters are backend specific (``line_solves``, ``probes``, ``nodes`` for the native
    solver; ``conflicts`` for CDCL backends), kept so the harness can print any of them.
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
        complete: the search space was exhausted, so ``count`` is exact.
        stats: wall time and counters.
        steps: the step log, when the backend was asked to record one.
        remainder: for a search stopped early, a partial :class:`~nonolab.core.grid.Grid`
            that every solution not in ``solutions`` satisfies: what the backend proved
            about the space it left open; ``None`` when the backend does not report it
            (:attr:`Capability.REMAINDER`).  A later solver may search only that space
            (``Given.from_grid``): the union stays exact.  A function that builds it runs
            on the first read.
        total: the exact count when it exceeds those listed (:attr:`Capability.MODEL_COUNT`).
    """

    status: Status
    solutions: tuple[Solution, ...]
    complete: bool
    stats: Stats
    steps: tuple[Any, ...] = ()
    remainder: Grid | None = BuiltOnFirstRead()  # type: ignore[assignment]
    total: int | None = None

    def __repr__(self) -> str:  # short: the solutions, counters and steps are attributes
        return (f"SolveResult({self.status.value}, {len(self.solutions)} solutions{', complete' * self.complete}; "
                f"backend {self.stats.backend}, {self.stats.wall_time:.3f} s)")

    @property
    def count(self) -> int:
        return len(self.solutions) if self.total is None else self.total

    @property
    def unique(self) -> bool:
        """Exactly one solution, proven by an exhausted search (never on a limit)."""
        return self.complete and self.count == 1

    @property
    def solution(self) -> Solution | None:
        return self.solutions[0] if self.solutions else None

    def relabelled(self, backend: str, wall_time: float, counters: Mapping[str, Any]) -> "SolveResult":
        """This answer as another solver's: the same status, solutions, completeness, steps,
        remainder (not built if it was not yet) and total, under ``backend`` with its
        ``wall_time`` and ``counters``.  How a strategy over backends (``auto``) reports the
        answer of the part that gave it.

        >>> r = SolveResult(Status.SOLVED, (), True, Stats("native", 0.5, {"nodes": 3}))
        >>> mine = r.relabelled("auto", 0.75, {"phase": "native"})
        >>> mine.stats.backend, mine.stats.counters, mine.complete
        ('auto', {'phase': 'native'}, True)
        """
        remainder = type(self).__dict__["remainder"].as_given(self)
        return SolveResult(self.status, self.solutions, self.complete, Stats(backend, wall_time, dict(counters)),
                           self.steps, remainder, self.total)

    def as_dict(self, solutions: bool = True) -> dict[str, Any]:
        """The result as plain data, the one shape every record uses (``nonolab/schemas``):
        backend, status, count, exact (``complete``), time, solutions (rows of ``#``
        and ``.``, unless ``solutions`` is false) and stats.

        >>> from nonolab.solvers import get
        >>> d = get("cpsat").solve(Puzzle(rows=((1,),), columns=((1,),))).as_dict()
        >>> d["status"], d["exact"], d["solutions"]
        ('solved', True, [['#']])
        """
        out: dict[str, Any] = {"backend": self.stats.backend, "status": self.status.value, "count": self.count,
                               "exact": self.complete, "time": round(self.stats.wall_time, 6)}
        if solutions:
            out["solutions"] = [s.to_text().splitlines() for s in self.solutions]
        out["stats"] = self.stats.as_dict()
        return out


class Solver(Protocol):
    """A backend.  ``name`` is its registry key; ``CAPABILITIES`` what it can do beyond
    this (see :class:`Capability`); ``OPTIONS`` its user options."""

    name: str

    @property  # read only: declared by the class, and an instance may narrow it (cnf with Kissat)
    def CAPABILITIES(self) -> frozenset[Capability]: ...

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: "Given | None" = None) -> SolveResult: ...


Cell = tuple[int, int]
#: ``((row, column, value), (row, column, value))``: if the first cell has its value,
#: the second has its value (0 empty, 1 filled; 0-based rows and columns).
Implication = tuple[tuple[int, int, int], tuple[int, int, int]]


@dataclass(frozen=True)
class Given:
    """What a caller imposes on a search, in the puzzle's own terms.

    Attributes:
        cells: ``{(row, column): value}`` (0-based; 0 empty, 1 filled, or in a colour
            puzzle the colour index, 0 the background): only solutions
            with these cells are wanted (needs :attr:`Capability.GIVEN_CELLS`).
        implications: binary constraints every wanted solution satisfies (needs
            :attr:`Capability.IMPLICATIONS`); see :data:`Implication`.
        hint: a picture to try first (a backend without :attr:`Capability.HINT`
            ignores it: it never changes the answer).

    Build one with :meth:`of` (which copies and freezes), then :meth:`check` it against
    a puzzle; backends receive checked values only.

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> Given.of({(0, 1): 1}).check(p).cells
    {(0, 1): 1}
    >>> Given.of({(2, 0): 1}).check(p)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: given cell (3,1) is outside the 2x2 puzzle (rows and columns count from 1)
    """

    cells: Mapping[Cell, int] = field(default_factory=dict)
    implications: tuple[Implication, ...] = ()
    hint: Solution | None = None

    @classmethod
    def of(cls, cells: Mapping[Cell, int] | None = None, implications: Iterable[Implication] = (),
           hint: Solution | None = None) -> "Given":
        return cls(dict(cells or {}), tuple(implications), hint)

    @classmethod
    def from_grid(cls, grid: Grid) -> "Given":
        """Every decided cell of a partial grid (such as a ``remainder``) as a given cell."""
        return cls({divmod(i, grid.width): int(state == FILLED) for i, state in enumerate(grid.cells)
                    if state in (EMPTY, FILLED)})

    def __bool__(self) -> bool:
        return bool(self.cells or self.implications or self.hint is not None)

    def with_cells(self, cells: Mapping[Cell, int]) -> "Given":
        """This given with more cells fixed (``cells`` win over this one's)."""
        return Given({**self.cells, **cells}, self.implications, self.hint)

    def check(self, puzzle: Puzzle) -> "Given":
        """This value, after checking every cell, value and hint against ``puzzle``.

        Raises:
            InvalidArgument: a cell outside the grid, a value other than 0/1 (other than a
                colour index of a colour puzzle), or a hint of another size.
        """
        top = puzzle.colours
        def cell(r: Any, c: Any, value: Any, what: str) -> None:
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in (r, c)):
                raise InvalidArgument(f"{what} ({r!r},{c!r}) is not a (row, column) pair of integers")
            # Messages count rows and columns from 1, as users and `check --why` do.
            if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
                raise InvalidArgument(f"{what} ({r + 1},{c + 1}) is outside the {puzzle.width}x{puzzle.height} "
                                      f"puzzle (rows and columns count from 1)")
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                expected = "0 (empty) or 1 (filled)" if top == 1 else f"a colour index 0..{top}"
                raise InvalidArgument(f"{what} ({r + 1},{c + 1}) has value {value!r}: expected {expected}")
        for key, value in self.cells.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise InvalidArgument(f"given cell {key!r} is not a (row, column) pair")
            cell(*key, value, "given cell")
        for pair in self.implications:
            if not (len(pair) == 2 and all(isinstance(side, tuple) and len(side) == 3 for side in pair)):
                raise InvalidArgument(f"implication {pair!r} is not ((row, column, value), (row, column, value))")
            for r, c, value in pair:
                cell(r, c, value, "implication cell")
        if self.hint is not None and not isinstance(self.hint, Solution):
            raise InvalidArgument(f"the hint must be a Solution, not {type(self.hint).__name__}")
        if self.hint is not None and (self.hint.height, self.hint.width) != (puzzle.height, puzzle.width):
            raise InvalidArgument(f"the hint is {self.hint.width}x{self.hint.height}, "
                                  f"the puzzle {puzzle.width}x{puzzle.height}")
        return self

    def within(self, puzzle: Puzzle) -> "Given":
        """This given with ``puzzle``'s own givens added: they are part of the puzzle, so
        every search honours them (:func:`accept` calls this for every backend).

        Raises:
            InvalidArgument: a cell of this given contradicts a cell the puzzle gives.

        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 0): 1})
        >>> Given.of({(1, 1): 1}).within(p).cells
        {(1, 1): 1, (0, 0): 1}
        """
        if not puzzle.givens:
            return self
        fixed = puzzle.given_cells
        for (r, c), value in self.cells.items():
            if fixed.get((r, c), value) != value:
                raise InvalidArgument(f"given cell ({r + 1},{c + 1}) = {value} contradicts the puzzle, which gives "
                                      f"it as {fixed[(r, c)]}")
        return Given({**self.cells, **fixed}, self.implications, self.hint)

    def refuse_beyond(self, backend: str, declared: frozenset[Capability]) -> None:
        """Raise :class:`~nonolab.errors.InvalidArgument` when this given asks for what a
        backend with ``declared`` capabilities cannot honour (a hint is only advice)."""
        if self.cells and Capability.GIVEN_CELLS not in declared:
            raise InvalidArgument(f"backend {backend!r} does not take given cells")
        if self.implications and Capability.IMPLICATIONS not in declared:
            raise InvalidArgument(f"backend {backend!r} does not take implications")


#: The registry's ``backends_with(capability) -> [names]``, set by :mod:`nonolab.solvers`
#: when it loads (always before any backend: they live inside it), so that :func:`accept`
#: can name the backends that take what another refuses without importing the registry.
backends_with: Callable[[Capability], list[str]] | None = None


def needs(puzzle: Puzzle) -> frozenset[Capability]:
    """What a backend must declare to take ``puzzle`` (colour, givens): :func:`accept` refuses it without."""
    colour = {Capability.COLOUR} if puzzle.is_colour else set()
    return frozenset(colour | ({Capability.GIVEN_CELLS} if puzzle.givens else set()))


def accept(backend: Any, puzzle: Puzzle, given: "Given | None") -> Given:
    """The checked given a backend searches under: the caller's (an empty one for
    ``None``) with the puzzle's own givens added (:meth:`Given.within`).

    Raises:
        TooLarge: the puzzle's cells times the memory ``backend`` declares a cell
            (:func:`bytes_per_cell`) exceed the memory budget (``NONOLAB_MAX_MEMORY``).
        Unsupported: the puzzle needs a capability ``backend`` does not declare
            (:func:`needs`: :attr:`Capability.COLOUR`, :attr:`Capability.GIVEN_CELLS`).
        InvalidArgument: the given does not fit the puzzle,
            contradicts its givens, or asks for a capability ``backend`` does not declare.
    """
    declared = capabilities(backend)
    cost = bytes_per_cell(backend, puzzle)
    if cost:   # the backend's declared memory a cell, against the one budget, before it allocates
        from nonolab.formats.limits import check_memory
        check_memory(f"backend {backend.name!r}", puzzle.width, puzzle.height, cost)
    missing = needs(puzzle) - declared
    for needed, what in ((Capability.COLOUR, "colour puzzles"), (Capability.GIVEN_CELLS, "puzzles with givens")):
        if needed in missing:
            takers = backends_with(needed) if backends_with is not None else []
            doing = ("solves black-and-white puzzles only" if needed is Capability.COLOUR
                     else "does not take given cells")
            raise Unsupported(f"backend {backend.name!r} {doing}; {what} need one of: "
                                  f"{', '.join(takers) or 'none installed'}")
    if given is None:
        return Given().within(puzzle)
    if not isinstance(given, Given):
        raise InvalidArgument(f"backend {backend.name!r}: given must be a Given, not {type(given).__name__}")
    given.refuse_beyond(backend.name, declared)
    return given.check(puzzle).within(puzzle)


def checked_solutions(puzzle: Puzzle, solutions: Iterable[Solution], backend: str) -> tuple[Solution, ...]:
    """Verify and deduplicate solutions, keeping their order; raise on any wrong one."""
    seen: dict[Solution, None] = {}
    for sol in solutions:
        problems = violations(puzzle, sol)
        if problems:
            raise WrongAnswer(f"backend {backend!r} returned a wrong solution: {problems[0]}")
        seen.setdefault(sol, None)
    return tuple(seen)


class Budget:
    """The time a piece of work has left, the one answer to "how long may this call take?".

    A deadline ``time_limit`` seconds after ``start`` (``time.perf_counter()``, by default
    now; ``None``: no deadline) and a cancel (an object with ``is_set()``, or ``None``).
    :meth:`left` is what is left of it (a ``share`` of it); :meth:`time_limit` and
    :meth:`limits` what to give one call, never below :data:`AT_ONCE` (a limit must be
    positive: a call given that much times out at once).  A backend takes one per
    ``solve`` call (``Budget.of(limits)``), started when the call starts.

    >>> import threading
    >>> spent, stop = Budget(0.0), threading.Event()
    >>> spent.left(), spent.expired(), spent.time_limit(), spent.limits(2).time_limit
    (0.0, True, 0.001, 0.001)
    >>> free = Budget(None, stop)
    >>> free.left(0.5), free.expired(), free.limits(None, cancel=None).cancel is stop
    (None, False, True)
    >>> stop.set(); free.cancelled(), free.expired(), free.stopped_status().value
    (True, True, 'interrupted')
    >>> 0 < Budget(60.0).left(0.25) <= 15.0
    True
    """

    __slots__ = ("start", "deadline", "cancel")
    #: The least time limit a call is given: a limit must be positive, and this much ends it at once.
    AT_ONCE = 1e-3

    def __init__(self, time_limit: float | None = None, cancel: Any = None, start: float | None = None):
        self.start = time.perf_counter() if start is None else start
        self.deadline = None if time_limit is None else self.start + time_limit
        self.cancel = cancel

    @classmethod
    def of(cls, limits: "Limits") -> "Budget":
        """The budget of a call given ``limits``, from now."""
        return cls(limits.time_limit, limits.cancel)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self, share: float = 1.0) -> float | None:
        """``share`` of the seconds until the deadline (0.0 once it has passed); ``None`` without one."""
        return None if self.deadline is None else max(self.deadline - time.perf_counter(), 0.0) * share

    def time_limit(self, share: float = 1.0) -> float | None:
        """The time limit for one call: :meth:`left` (``share`` of it), at least :data:`AT_ONCE`."""
        left = self.left(share)
        return None if left is None else max(left, self.AT_ONCE)

    def limits(self, max_solutions: int | None, share: float = 1.0, cancel: Any = None) -> "Limits":
        """:class:`Limits` for one search: ``max_solutions``, :meth:`time_limit` and this
        budget's cancel (``cancel`` instead, when given)."""
        return Limits(max_solutions, self.time_limit(share), self.cancel if cancel is None else cancel)

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.is_set()

    def expired(self) -> bool:
        """The cancel was set or the deadline has passed."""
        return self.cancelled() or (self.deadline is not None and time.perf_counter() >= self.deadline)

    def stopped_status(self) -> "Status":
        """How a search this budget stopped early ended: INTERRUPTED when the cancel was
        set, TIMEOUT otherwise (a deadline or a node limit)."""
        return Status.INTERRUPTED if self.cancelled() else Status.TIMEOUT


def left(limits: Limits, watch: Budget, cancel: Any = None) -> Limits:
    """``limits`` for a part of a search that starts now: what the whole call (``limits``,
    counted from ``watch.start``) has left, and ``cancel`` instead of the caller's when given.

    >>> left(Limits(2, 5.0), Budget(None)).time_limit <= 5.0
    True
    """
    return Budget(limits.time_limit, limits.cancel, watch.start).limits(limits.max_solutions, cancel=cancel)


def finish(backend: str, puzzle: Puzzle, limits: Limits, watch: "Budget", found: Iterable[Solution],
           exhausted: bool, counters: dict[str, Any] | None = None, steps: Iterable[Any] = (),
           remainder: Grid | Callable[[], Grid] | None = None, checked: bool = False) -> SolveResult:
    """The one place a search's outcome becomes a :class:`SolveResult`.

    Every solution is checked (:func:`checked_solutions`), unless ``checked`` says the
    backend already passed each one through it as it was found (to keep the cost of
    checking inside its clock); the status follows from what
    the search says of itself: ``exhausted`` (the whole space was searched: SOLVED or
    UNSAT, and the count is exact), else ``limits.max_solutions`` reached (SOLVED), else
    it stopped early (INTERRUPTED when the cancel was set, TIMEOUT otherwise).  The
    remainder is kept only for a search that did not exhaust its space.

    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> r = finish("demo", p, Limits(), Budget(None), [Solution.from_rows(["#"])], True)
    >>> r.status.value, r.count, r.complete
    ('solved', 1, True)
    >>> finish("demo", p, Limits(), Budget(None), [], False).status.value
    'timeout'
    """
    solutions = tuple(dict.fromkeys(found)) if checked else checked_solutions(puzzle, found, backend)
    if exhausted:
        status = Status.SOLVED if solutions else Status.UNSAT
    elif limits.max_solutions is not None and len(solutions) >= limits.max_solutions:
        status = Status.SOLVED
    else:
        status = watch.stopped_status()
    return SolveResult(status, solutions, exhausted, Stats(backend, watch.elapsed(), dict(counters or {})),
                       tuple(steps), None if exhausted else remainder)  # type: ignore[arg-type]  # built on first read


def collect(backend: str, puzzle: Puzzle, limits: Limits, watch: Budget,
            pictures: Iterator[Solution], counters: dict[str, Any]) -> SolveResult:
    """The result of a search that yields its solutions one at a time (the generic count).

    Takes solutions from ``pictures`` until it is exhausted (the count is exact),
    ``limits.max_solutions`` is reached, or it raises :class:`LimitReached` (its
    deadline passed: TIMEOUT, or its cancel was set: INTERRUPTED, with the solutions
    found so far).  The iterator is
    closed in every case, so a generator can record its counters in ``finally``.

    >>> from nonolab.core.puzzle import Puzzle
    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> r = collect("demo", p, Limits(), Budget(None), iter([Solution.from_rows(["#"])]), {})
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
    counters["solutions"] = len(set(found))
    return finish(backend, puzzle, limits, watch, found, finished, counters)


def available_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it): the
    default number of threads of a backend that declares a ``threads`` option, and what
    ``batch`` shares among its worker processes.

    >>> available_cores() >= 1
    True
    """
    import os
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (no affinity on this system)
        return max(1, os.cpu_count() or 1)
