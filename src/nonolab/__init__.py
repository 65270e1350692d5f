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
with its verdict), every answer's one word by :func:`outcome_of`, :func:`crosscheck` (run several backends,
check every answer and whether they agree) and :func:`violations` (how one picture breaks
the clues: the independent checker every answer passes through).  Every call takes the
puzzle first, then the backend, then the limits.
"""

from __future__ import annotations

from typing import Any

from nonolab.core import EMPTY, FILLED, UNKNOWN, Grid, Puzzle, Solution, clues_of
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
    "EMPTY", "FILLED", "UNKNOWN", "AmbiguityReport", "BackendUnavailable", "CheckResult", "Contradiction", "CountResult", "CrossCheck",
    "Grid", "InvalidPuzzle", "Limits", "NonolabError", "ParseError", "Puzzle", "RepairResult", "Report",
    "Solution", "SolveResult",
    "Status", "UnknownBackend", "UnknownFormat", "Verdict", "ambiguity_report", "backend", "backends", "check",
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
         "explain": ("nonolab.harness.explanation", "explain")}


def __getattr__(name: str) -> Any:
    # The readers and writers load on first use, so `import nonolab` stays small.
    if name in _FORMAT_FUNCTIONS:
        from nonolab import formats
        return getattr(formats, name)
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(module), attribute)
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


def count(puzzle: Puzzle, backend: str = DEFAULT, limit: int | None = None,
          time_limit: float | None = None, **options: Any) -> CountResult:
    """How many solutions, exactly up to ``limit``?  See :func:`nonolab.harness.uniqueness.count`."""
    from nonolab.harness.uniqueness import count as _count
    return _count(puzzle, _build(backend, **options), limit, time_limit)
