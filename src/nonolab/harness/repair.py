"""Repair a picture: the fewest cell changes that make its puzzle unique.

A designer fixes an ambiguous puzzle by changing the picture, not by adding givens
(webpbn allows none).  :func:`repair` looks for a smallest set ``F`` of changes
``(cell, new value)`` of the designer's picture ``P`` (the goal, else the first
solution) whose result ``P^F`` is the only solution of its own clues; each suggestion is
proven by an exact count to 2.  A new value is any other value of the palette (a colour
or the background): black and white is the case of one alternative per cell, a flip.
Details and the argument: docs/algorithms.md, "The questions".

**Deltas.**  A set of changes ``D`` (another solution's values where it differs)
*refutes* ``F`` when writing ``D`` over ``P^F`` gives another picture with ``P^F``'s
clues (only the lines meeting ``D`` need comparing).  Every solution found, of the
puzzle or of a candidate, gives one.

**Search** (exact, breadth first by the number of flips).  If ``D`` refutes ``F`` and
the cells added to ``F`` lie on no line meeting ``D``, ``D`` still refutes the larger
set (those lines are unchanged).  So every unique ``G`` containing ``F`` changes a cell
on a line meeting ``D``: the children of ``F`` are ``F`` plus one change of such a cell.  Starting
from the empty set, level ``k`` reaches every unique set of ``k`` flips; a set is
sent to the backend only when no known delta refutes it.  When level ``k`` finds one,
no smaller set exists (``minimal``), provided the earlier levels were searched whole.

**Greedy** (when no set of ``max_flips`` flips exists, or the exact levels would not
finish within their share of the time or of sets).  Count a few solutions of the
current picture (each a delta); flip the cell, on the newest refuting delta's lines,
after which the fewest known deltas refute (ties: line logic decides the most), a few
times when the ambiguities lie on other lines; repeat until the count says unique; drop
every flip the others do not need.  Proven unique, not proven the fewest (``minimal``
false; ``lower_bound``: the flips the exact levels proved necessary).

>>> from nonolab.core import Puzzle, Solution
>>> goal = Solution.from_rows(["#.", ".#"])
>>> r = repair(Puzzle.from_solution(goal))
>>> r.status, r.minimal, r.best.describe(), r.best.unique
('repaired', True, 'flip (1,1) to .', True)
>>> colour = repair(Puzzle.from_solution(Solution.from_values([[1, 0, 2], [0, 1, 2]])))
>>> colour.minimal, colour.best.describe(), colour.best.puzzle.is_colour
(True, 'flip (1,1) to white (.)', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from nonolab.core.grid import Solution, require_solution
from nonolab.core.puzzle import Puzzle, require_puzzle
from nonolab.core.violations import violations
from nonolab.core.words import counted
from nonolab.errors import InvalidArgument
from nonolab.harness._solutions import OutOfTime
from nonolab.harness.uniqueness import Verdict, check, said
from nonolab.solvers import build, role, solver_for
from nonolab.solvers.base import Budget, Solver
from nonolab.solvers.base import require_count, require_time_limit

__all__ = ["RepairResult", "Suggestion", "counter_of", "repair"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Suggestion:
    """One repair: change the cells ``flips`` (``(row, column, new value)``, 0-based; the
    value a colour index in colour, 0 the background) in the picture.

    Attributes:
        puzzle: the repaired puzzle, the repaired picture as its goal.
        unique: an exact count to 2 of ``puzzle`` found one solution.
        lines: each line whose clue changes, ``(kind, index, blocks before, blocks after)``,
            a block ``(length, colour)`` (colour 1 throughout in black and white).
    """

    flips: tuple[tuple[int, int, int], ...]
    puzzle: Puzzle
    unique: bool
    lines: tuple[tuple[str, int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], ...] = ()

    def describe(self) -> str:
        """``flip (3,4) to # and (5,1) to .`` (1-based, as ``check --why`` names cells); in
        colour each colour by its name and the character the pictures beside draw it with
        (:meth:`~nonolab.core.puzzle.Puzzle.value_label`): ``flip (1,2) to red (r)``."""
        name = self.puzzle.value_label
        return "flip " + " and ".join(f"({r + 1},{c + 1}) to {name(v)}" for r, c, v in self.flips)

    def as_dict(self) -> dict[str, Any]:
        return {"flips": [list(f) for f in self.flips], "unique": self.unique,
                "picture": self.puzzle.goal.to_text().splitlines() if self.puzzle.goal else None,
                "lines": [{"kind": k, "index": i, "before": [n for n, _ in b], "after": [n for n, _ in a],
                           "before_colours": [c for _, c in b], "after_colours": [c for _, c in a]}
                          for k, i, b, a in self.lines]}


@dataclass(frozen=True)
class RepairResult:
    """What :func:`repair` found.

    Attributes:
        status: ``unique`` (nothing to repair), ``repaired``, ``not-found`` (no set
            within the limits), ``timeout`` (the time limit came first), or
            ``contradiction`` (no solution, hence no picture to repair).
        picture: the picture flipped (``None`` for a contradiction or a timeout before one).
        source: where it came from: ``goal``, ``first solution`` or ``given`` (``None``
            when there is no picture: a contradiction, or a timeout before the first solution).
        suggestions: repairs of the fewest flips found, each proven unique.
        minimal: no repair with fewer flips exists (every smaller set was ruled out).
        lower_bound: every repair flips at least this many cells (proven by the exact
            levels searched whole, or by deltas that share no line).
        method: ``exact`` (breadth first over all flip sets) or ``greedy``.
        stats: solver calls (``checks``), sets ruled out by a known delta (``refuted``),
            the deltas known, the sizes searched whole, wall time.
    """

    status: str
    picture: Solution | None
    source: str | None
    suggestions: tuple[Suggestion, ...] = ()
    minimal: bool = False
    method: str = "exact"
    lower_bound: int = 0
    stats: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        # The word of the puzzle the repair leaves (outcome_of, by ``verdict``), then what the
        # repair did: ``repaired`` and ``not-found`` are no verdicts and do not stand in for one.
        did = {"repaired": " after a repair", "not-found": ", no repair found"}.get(self.status, "")
        return (f"RepairResult({said(self)}{did}, {counted(len(self.suggestions), 'suggestion')}, "
                f"minimal={self.minimal})")

    @property
    def best(self) -> Suggestion | None:
        return self.suggestions[0] if self.suggestions else None

    @property
    def verdict(self) -> Verdict:
        """The outcome word of the puzzle the repair leaves: ``unique`` when it was unique
        or a repair was proven unique, ``multiple`` when none was found, ``contradiction``,
        or ``timeout`` when the limit (or a cancel) came first."""
        if self.status == "unique" or (self.best is not None and self.best.unique):
            return Verdict.UNIQUE
        return {"contradiction": Verdict.CONTRADICTION, "timeout": Verdict.TIMEOUT}.get(self.status, Verdict.MULTIPLE)

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "source": self.source, "minimal": self.minimal, "method": self.method,
                "lower_bound": self.lower_bound,
                "flips": len(self.best.flips) if self.best else None,
                "suggestions": [s.as_dict() for s in self.suggestions], "stats": dict(self.stats)}


def counter_of(solver: Solver) -> Solver:
    """The backend that counts a repair's candidates: ``native`` for a strategy (``auto``),
    which would pay its phases on each of hundreds of small counts; else ``solver`` itself.

    >>> from nonolab.solvers import get
    >>> counter_of(get("auto")).name, counter_of(get("cnf")).name
    ('native', 'cnf')
    """
    return build("native") if role(solver.name) == "strategy" else solver


def repair(puzzle: Puzzle, picture: Solution | None = None, backend: str | Solver = "native",
           max_flips: int = 3, time_limit: float | None = None, suggestions: int = 3, *,
           cancel: Any = None, source: str | None = None,
           keep: Iterable[tuple[int, int]] = ()) -> RepairResult:
    """The fewest cell changes of the designer's picture that make the puzzle unique.

    In colour a changed cell takes another colour of the palette or the background.

    Args:
        puzzle: the puzzle; its clues must be those of ``picture``.
        picture: the designer's picture (default: the goal, else the first solution).
        backend: the backend (a spec such as ``native`` or ``cnf``, or a built solver):
            its first solution is the picture when the puzzle has no goal (the one ``solve``
            prints and the designer's report shows), and it counts to 2 on each candidate
            if it is a solver (a strategy such as ``auto``: ``native`` counts them, see
            :func:`counter_of`); a colour puzzle needs one that declares colour.
        max_flips: the exact search tries sets of up to this many flips; beyond, the
            per-group repair (see the module notes) may use more.
        time_limit: wall seconds for the whole repair.
        suggestions: at most this many repairs of the fewest flips.
        cancel: a ``threading.Event``; once set, the repair stops (status ``timeout``).
        source: where ``picture`` came from, as :attr:`RepairResult.source` says it
            (default: ``given``); the designer's report passes the solution it shows
            as ``first solution``, so that the repair starts from the picture printed
            above it.
        keep: ``(row, column)`` cells (0-based) no repair changes: the designer locked
            them (the puzzle's givens are never changed either).  The fewest flips are then
            the fewest among the other cells.

    Raises:
        InvalidArgument: a bad limit, a picture that is not a solution of the puzzle, or a
            colour puzzle and a backend that does not declare colour.
    """
    puzzle = require_puzzle(puzzle, "repair")
    require_time_limit(time_limit, "repair")
    if picture is not None:
        require_solution(picture, "repair")
    require_count(max_flips, "repair", "max_flips")
    require_count(suggestions, "repair", "suggestions")
    asked = solver_for(backend, "repair")
    solver = counter_of(asked)
    watch = Budget(time_limit, cancel)
    if source is None:
        source = "given" if picture is not None else "goal" if puzzle.goal is not None else "first solution"
    picture = picture if picture is not None else puzzle.goal
    if picture is None and solver is not asked:
        # "The first solution" is the backend asked's, as everywhere else, not the first
        # of the backend that counts the candidates (another picture, another repair).
        first = check(puzzle, asked, watch.time_limit(), cancel=cancel)
        picture = first.witnesses[0] if first.witnesses else None   # none: the search says why
    if picture is not None and ((picture.height, picture.width) != (puzzle.height, puzzle.width)
                                or violations(puzzle, picture)):
        raise InvalidArgument("repair: the picture is not a solution of the puzzle")
    keep = [(int(r), int(c)) for r, c in keep]
    if any(not (0 <= r < puzzle.height and 0 <= c < puzzle.width) for r, c in keep):
        raise InvalidArgument(f"a cell to keep is outside the {puzzle.width}x{puzzle.height} grid")
    from nonolab.harness._repair_search import Search

    search = Search(puzzle, solver, watch, picture, keep)
    try:
        return search.run(max_flips, suggestions, source)
    except OutOfTime:
        return RepairResult("timeout", search.picture, source if search.picture is not None else None,
                            lower_bound=search.lower_bound(),
                            stats=search.stats())
