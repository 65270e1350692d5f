"""nonolab: solve nonograms and prove things about them.

>>> import nonolab
>>> p = nonolab.loads("2x2:1/1/1/1", fmt="tatham")
>>> nonolab.check(p).verdict.value
'multiple'
>>> r = nonolab.solve(nonolab.Puzzle(rows=((2,), (1,)), columns=((2,), (1,))))
>>> print(r.solution)
##
#.

The pieces: :class:`Puzzle` (immutable clues), formats (:func:`load`, :func:`loads`,
:func:`dump`, :func:`dumps`), backends (:func:`backends`, :func:`solve`), and the
questions (:func:`check`, :func:`count`, :func:`ambiguity_report`: why it is not
unique, :func:`report`: everything a designer asks in one call, :func:`repair`: the
fewest cell flips that make a puzzle unique, :func:`explain`: the steps that solve it,
with its verdict, :func:`grade`: the weakest technique that solves it, :func:`generate`:
seeded puzzles, proven unique on request, :func:`bench`: solvers side by side, as the SAT
competitions measure them), every answer's one word by :func:`outcome_of`,
:func:`check_many` (many puzzles, microseconds apart), :func:`census` (every picture of a
small size: how many are unique, line-solvable, of each grade), :func:`crosscheck` (run several backends,
check every answer and whether they agree) and :func:`violations` (how one picture breaks
the clues: the independent checker every answer passes through).  Every call takes the
puzzle first, then the backend, then the limits.

Cells are ``(row, column)``, 0-based, in Python and JSON; people (the command line, the
workbench) count from 1, and a :class:`Cell` prints itself that way.
"""

from __future__ import annotations

from typing import Any

from nonolab.core import EMPTY, FILLED, UNKNOWN, Cell, Grid, Puzzle, Solution, clues_of
from nonolab.core import violations
from nonolab.errors import (BackendUnavailable, Contradiction, InvalidPuzzle, NonolabError,
                            ParseError, UnknownBackend, UnknownFormat)
from nonolab.harness.uniqueness import CheckResult, CountResult, Verdict, outcome_of
from nonolab.solvers import DEFAULT, Limits, SolveResult, Status
from nonolab.solvers import get as backend
from nonolab.solvers import get_spec as _build
from nonolab.solvers import names as backends

__version__ = "0.1.0"

__all__ = [
    "EMPTY", "FILLED", "UNKNOWN", "AmbiguityReport", "Cell", "Grade", "GradeResult", "generate", "grade", "bench", "BackendUnavailable", "CensusResult", "CheckResult", "Contradiction", "CountResult", "CrossCheck",
    "Grid", "InvalidPuzzle", "Limits", "NonolabError", "ParseError", "Puzzle", "RepairResult", "Report",
    "Solution", "SolveResult",
    "Status", "UnknownBackend", "UnknownFormat", "Verdict", "ambiguity_report", "backend", "backends", "census", "check", "check_many",
    "clues_of",
    "count", "crosscheck", "dump", "dumps", "explain", "Explanation", "load", "load_all", "loads", "loads_all",
    "outcome_of", "repair", "report", "solve", "violations",
]


_FORMAT_FUNCTIONS = frozenset({"dump", "dumps", "load", "load_all", "loads", "loads_all"})
# Loaded on first use too: every command line imports this package, and these two
# questions' modules were a quarter of `nonolab --help`'s imports.
_LAZY = {"AmbiguityReport": ("nonolab.harness.ambiguity", "AmbiguityReport"),
         "ambiguity_report": ("nonolab.harness.ambiguity", "ambiguity_report"),
         "CrossCheck": ("nonolab.harness.crosscheck", "CrossCheck"),
         "crosscheck": ("nonolab.harness.crosscheck", "crosscheck"),
         "RepairResult": ("nonolab.harness.repair", "RepairResult"),
         "repair": ("nonolab.harness.repair", "repair"),
         "Report": ("nonolab.harness.report", "Report"),
         "report": ("nonolab.harness.report", "report"),
         "Explanation": ("nonolab.harness.explanation", "Explanation"),
         "explain": ("nonolab.harness.explanation", "explain"),
         "CensusResult": ("nonolab.exhaustive.run", "CensusResult"),
         "census": ("nonolab.exhaustive.run", "census"),
         "Grade": ("nonolab.harness.classify", "Grade"),
         "GradeResult": ("nonolab.harness.classify", "GradeResult"),
         "grade": ("nonolab.harness.classify", "grade"),
         "generate": ("nonolab.generate", None),
         "bench": ("nonolab.bench", None)}


def __getattr__(name: str) -> Any:
    # The readers and writers load on first use, so `import nonolab` stays small.
    if name in _FORMAT_FUNCTIONS:
        from nonolab import formats
        return getattr(formats, name)
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        found = importlib.import_module(module)
        return found if attribute is None else getattr(found, attribute)
    raise AttributeError(f"module 'nonolab' has no attribute {name!r}")


def solve(puzzle: Puzzle, backend: str = DEFAULT, max_solutions: int | None = 1,
          time_limit: float | None = None, **options: Any) -> SolveResult:
    """Solve ``puzzle`` with a backend; up to ``max_solutions`` verified solutions.

    Args:
        puzzle: the puzzle.
        backend: a name from :func:`backends`, or a spec such as ``native:line=overlap``.
        max_solutions: stop after this many (default 1, the first solution: it says
            nothing of uniqueness unless ``complete``; :func:`check` counts to 2;
            ``None``: find all).
        time_limit: wall-clock seconds.
        **options: passed to the backend (e.g. ``probing="contradiction"`` for native
            and auto, ``cdcl="cnf"`` for auto).
    """
    return _build(backend, **options).solve(puzzle, Limits(max_solutions, time_limit))


def check(puzzle: Puzzle, backend: str = DEFAULT, time_limit: float | None = None,
          **options: Any) -> CheckResult:
    """Is the solution unique?  See :func:`nonolab.harness.uniqueness.check`."""
    from nonolab.harness.uniqueness import check as _check
    return _check(puzzle, _build(backend, **options), time_limit)


def check_many(puzzles: Any, backend: str = "native", time_limit: float | None = None,
               errors: str = "raise", **options: Any) -> Any:
    """Is each solution unique?  An iterator of :class:`CheckResult`, one per puzzle of the
    iterable ``puzzles``, in order; ``time_limit`` per puzzle.  The default backend,
    native, answers many small puzzles per call into its compiled engine (microseconds
    between puzzles, where one :func:`check` a puzzle costs tens of them).  ``errors="yield"``
    puts a puzzle's library error in its place instead of raising it.  See
    :func:`nonolab.harness.uniqueness.check_many`.

    >>> [c.verdict.value for c in check_many([Puzzle(rows=((1,),), columns=((1,),)),
    ...                                        Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))])]
    ['unique', 'multiple']
    """
    from nonolab.harness.uniqueness import check_many as _check_many
    return _check_many(puzzles, _build(backend, **options), time_limit, errors=errors)


def count(puzzle: Puzzle, backend: str = DEFAULT, limit: int | None = None,
          time_limit: float | None = None, **options: Any) -> CountResult:
    """How many solutions, exactly up to ``limit``?  See :func:`nonolab.harness.uniqueness.count`."""
    from nonolab.harness.uniqueness import count as _count
    return _count(puzzle, _build(backend, **options), limit, time_limit)
