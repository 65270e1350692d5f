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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker reads; at run time each name loads on first use (_HOME)
    from nonolab.api import check, check_many, count, solve
    from nonolab.core import EMPTY, FILLED, UNKNOWN, Cell, Grid, Puzzle, Solution, clues_of, violations
    from nonolab.errors import (BackendUnavailable, Contradiction, InvalidPuzzle, NonolabError,
                                ParseError, UnknownBackend, UnknownFormat)
    from nonolab.exhaustive.run import CensusResult, census
    from nonolab.formats import dump, dumps, load, load_all, loads, loads_all
    from nonolab.harness.ambiguity import AmbiguityReport, ambiguity_report
    from nonolab.harness.classify import Grade, GradeResult, grade
    from nonolab.harness.crosscheck import CrossCheck, crosscheck
    from nonolab.harness.explanation import Explanation, explain
    from nonolab.harness.repair import RepairResult, repair
    from nonolab.harness.report import Report, report
    from nonolab.harness.uniqueness import CheckResult, CountResult, Verdict, outcome_of
    from nonolab.solvers import DEFAULT, Limits, SolveResult, Status
    from nonolab.solvers import get as backend
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

#: Where each public name lives: (module, attribute; None for the module itself).  Nothing
#: is imported with the package: the command line imports it first, and must install its
#: Ctrl-C handler before the solvers and their libraries load (a signal during that load
#: ended in a traceback); a notebook pays for what it uses.
_HOME: dict[str, tuple[str, str | None]] = {
    **{name: ("nonolab.api", name) for name in ("check", "check_many", "count", "solve")},
    **{name: ("nonolab.core", name) for name in ("EMPTY", "FILLED", "UNKNOWN", "Cell", "Grid", "Puzzle",
                                                 "Solution", "clues_of", "violations")},
    **{name: ("nonolab.errors", name) for name in ("BackendUnavailable", "Contradiction", "InvalidPuzzle",
                                                   "NonolabError", "ParseError", "UnknownBackend",
                                                   "UnknownFormat")},
    **{name: ("nonolab.formats", name) for name in ("dump", "dumps", "load", "load_all", "loads", "loads_all")},
    **{name: ("nonolab.harness.uniqueness", name) for name in ("CheckResult", "CountResult", "Verdict",
                                                               "outcome_of")},
    **{name: ("nonolab.solvers", name) for name in ("DEFAULT", "Limits", "SolveResult", "Status")},
    "backend": ("nonolab.solvers", "get"),
    "backends": ("nonolab.solvers", "names"),
    **{name: ("nonolab.harness.ambiguity", name) for name in ("AmbiguityReport", "ambiguity_report")},
    **{name: ("nonolab.harness.crosscheck", name) for name in ("CrossCheck", "crosscheck")},
    **{name: ("nonolab.harness.repair", name) for name in ("RepairResult", "repair")},
    **{name: ("nonolab.harness.report", name) for name in ("Report", "report")},
    **{name: ("nonolab.harness.explanation", name) for name in ("Explanation", "explain")},
    **{name: ("nonolab.exhaustive.run", name) for name in ("CensusResult", "census")},
    **{name: ("nonolab.harness.classify", name) for name in ("Grade", "GradeResult", "grade")},
    "generate": ("nonolab.generate", None),
    "bench": ("nonolab.bench", None),
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'nonolab' has no attribute {name!r}")
    module, attribute = _HOME[name]
    found = importlib.import_module(module)
    value = found if attribute is None else getattr(found, attribute)
    globals()[name] = value    # once: later lookups do not come back here
    return value


def __dir__() -> list[str]:
    # What a notebook's completion offers: the public names, not this module's own imports
    # (Any, TYPE_CHECKING, importlib) nor the subpackages a lookup has loaded.
    return sorted(__all__)
