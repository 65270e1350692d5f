"""What a search answers: its :class:`Status`, the :class:`Limits` it ran under, and the
:class:`SolveResult` with its :class:`Stats`: the plain data of the solver contract
(:mod:`nonolab.solvers.base`, which names them too); and the :class:`Verdict` words a
search's answer says on every surface (:func:`verdict_of`, :func:`search_outcome`: here,
beside the result, so that its own repr says the word the CLI says).

>>> from nonolab.solvers.result import Limits, Status
>>> Limits().max_solutions, Status.UNSAT.value
(2, 'unsat')
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from nonolab.core.grid import Grid, Solution
from nonolab.core.lazy import BuiltOnFirstRead
from nonolab.core.words import counted
from nonolab.errors import InvalidArgument


class Status(str, Enum):
    """How a search ended.

    * ``SOLVED``: at least one solution was found (``complete`` says whether the
      search space was exhausted, i.e. whether the count is exact).
    * ``UNSAT``: the search space was exhausted and there is no solution.
    * ``TIMEOUT``: a time, node or conflict limit ended the search first; the solutions found
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
        keep: keep the first ``keep`` solutions in the result and count the others
            (:attr:`SolveResult.total`), each still checked against the clues as it is
            found; ``None`` keeps them all.  What a count asks: the number, not every grid.
            A search that yields its solutions one at a time (:func:`~nonolab.solvers.base.collect`:
            backtrack, dlx) then holds no more than ``keep`` grids however many it counts.
    """

    max_solutions: int | None = 2
    time_limit: float | None = None
    cancel: Any = field(default=None, compare=False)
    keep: int | None = None

    def __post_init__(self) -> None:
        for name in ("max_solutions", "keep"):
            if getattr(self, name) is not None:
                require_count(getattr(self, name), "Limits", name, "(or None for all)")
        require_time_limit(self.time_limit, "Limits")


def require_time_limit(time_limit: Any, caller: str) -> None:
    """Refuse a time limit no call can keep: every entry point that takes one (``Limits``, and
    the questions that share one budget out, such as ``grade``, ``repair``, ``report``) says
    the same, so that ``time_limit=0`` is never an error in one and a silent ``timeout`` in another.

    Raises:
        TypeError: not a number of seconds (a string, a bool).
        InvalidArgument: zero, negative or nan.

    >>> require_time_limit(2.5, "grade"), require_time_limit(None, "grade")
    (None, None)
    >>> require_time_limit(0, "grade")
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: grade: time_limit must be positive (or None)
    """
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise TypeError(f"{caller}: time_limit must be a number of seconds (or None), not {type(time_limit).__name__}")
    if not float(time_limit) > 0:   # nan too
        raise InvalidArgument(f"{caller}: {{arg}} must be positive (or None)", argument="time_limit")


def require_count(value: Any, caller: str, argument: str, alternative: str = "") -> None:
    """Refuse a count that is not a whole number of at least 1 (``max_solutions``, ``keep``,
    ``max_flips``...), before any work: ``max_solutions=1.5`` found two solutions in one backend
    and was a ``TypeError`` from inside another, ``"2"`` a bare comparison error.

    Raises:
        TypeError: not a number (a string, a bool).
        InvalidArgument: a fraction, zero or negative.

    >>> require_count(3, "repair", "max_flips")
    >>> require_count(1.5, "Limits", "max_solutions", "(or None for all)")
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: Limits: max_solutions must be a whole number of at least 1 (or None for all), not 1.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{caller}: {argument} must be a whole number, not {type(value).__name__}")
    if not isinstance(value, numbers.Integral) or value < 1:
        tail = f" {alternative}" if alternative else ""
        raise InvalidArgument(f"{caller}: {{arg}} must be a whole number of at least 1{tail}, not {value!r}",
                              argument=argument)


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
            that every solution not in ``solutions`` satisfies: what the backend proved about
            the space it left open; ``None`` when the backend does not report it
            (:attr:`Capability.REMAINDER`).  A later solver may search only that space
            (``Given.from_grid``): the union stays exact.  A function that builds it runs on
            the first read.
        total: the count when it exceeds those listed: a model counter's exact count
            (:attr:`Capability.MODEL_COUNT`), or the solutions found and checked beyond the
            first :attr:`Limits.keep` (exact when ``complete``, else how many were found).
    """

    status: Status
    solutions: tuple[Solution, ...]
    complete: bool
    stats: Stats
    steps: tuple[Any, ...] = ()
    remainder: Grid | None = BuiltOnFirstRead()  # type: ignore[assignment]
    total: int | None = None

    def __repr__(self) -> str:  # short: the solutions, counters and steps are attributes
        # The word every surface says (search_outcome, as outcome_of), not the status.
        outcome = search_outcome(self)
        return (f"SolveResult({outcome.value if outcome is not None else NOT_ASKED}, "
                f"{counted(self.count, 'solution')}{', complete' * self.complete}; "
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

        >>> from nonolab.solvers.base import SolveResult, Stats, Status
        >>> r = SolveResult(Status.SOLVED, (), True, Stats("native", 0.5, {"nodes": 3}))
        >>> mine = r.relabelled("auto", 0.75, {"phase": "native"})
        >>> mine.stats.backend, mine.stats.counters, mine.complete
        ('auto', {'phase': 'native'}, True)
        """
        remainder = type(self).__dict__["remainder"].as_given(self)
        return SolveResult(self.status, self.solutions, self.complete, Stats(backend, wall_time, dict(counters)),
                           self.steps, remainder, self.total)

    def keeping(self, keep: int | None) -> "SolveResult":
        """This answer listing only its first ``keep`` solutions (:attr:`Limits.keep`; ``None``:
        all), its count unchanged (``total``).  How a strategy over backends (``auto``), whose
        parts keep every solution they merge, answers a caller that asked for a few.

        >>> from nonolab.core.grid import Solution
        >>> from nonolab.solvers.base import SolveResult, Stats, Status
        >>> two = (Solution.from_rows(["#.", ".#"]), Solution.from_rows([".#", "#."]))
        >>> r = SolveResult(Status.SOLVED, two, True, Stats("auto")).keeping(1)
        >>> len(r.solutions), r.count, r.total
        (1, 2, 2)
        """
        if keep is None or len(self.solutions) <= keep:
            return self
        remainder = type(self).__dict__["remainder"].as_given(self)
        return SolveResult(self.status, self.solutions[:keep], self.complete, self.stats, self.steps, remainder,
                           self.count)

    def as_dict(self, solutions: bool = True) -> dict[str, Any]:
        """The result as plain data, the one shape every record uses (``nonolab/schemas``):
        backend, status, count, exact (``complete``), time, solutions (rows of ``#``
        and ``.``, unless ``solutions`` is false) and stats.

        >>> from nonolab import Puzzle; from nonolab.solvers import get
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


class Verdict(str, Enum):
    """The outcome words, the only ones that reach a user from any surface (the CLI's text
    and JSON, the report, ``explain``, the pictures, the workbench, the notebook views):
    pbnsolve's four, plus ``interrupted`` for a cancel.  :func:`outcome_of` gives the word
    of any answer of the library.

    * ``unique``: an exhausted search found exactly one solution;
    * ``multiple``: two verified, distinct solutions were found (whatever stopped the
      search afterwards);
    * ``contradiction``: an exhausted search found none;
    * ``timeout``: a time (or node, or conflict) limit came first, with fewer than two solutions found;
    * ``interrupted``: the caller's cancel (Ctrl-C, SIGTERM, a job's cancel) came first.
    """

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    CONTRADICTION = "contradiction"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"


def verdict_of(result: SolveResult) -> Verdict:
    """The verdict of a search asked for (at least) two solutions: a count to 2.

    >>> from nonolab import Puzzle
    >>> from nonolab.solvers import get
    >>> verdict_of(get("native").solve(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))).value
    'multiple'
    """
    if result.count >= 2:
        return Verdict.MULTIPLE
    if result.complete:
        return Verdict.UNIQUE if result.count == 1 else Verdict.CONTRADICTION
    return Verdict.INTERRUPTED if result.status is Status.INTERRUPTED else Verdict.TIMEOUT


#: What a surface says where a search asked for fewer than two solutions leaves uniqueness open.
NOT_ASKED = "uniqueness not asked"


def search_outcome(result: SolveResult) -> Verdict | None:
    """The word of one search, as :func:`nonolab.outcome_of` gives it (which asks this):
    :func:`verdict_of`, or ``None`` when the search stopped at the solutions it was asked
    for, fewer than two (``solve -n 1``): uniqueness was not asked.

    >>> from nonolab import Puzzle
    >>> from nonolab.solvers import Limits, get
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> search_outcome(get("native").solve(p, Limits(2))).value, search_outcome(get("native").solve(p, Limits(1)))
    ('multiple', None)
    """
    stopped_by_its_cap = result.status is Status.SOLVED and not result.complete and result.count < 2
    return None if stopped_by_its_cap else verdict_of(result)
