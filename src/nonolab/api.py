"""The package's questions by backend name: :func:`solve`, :func:`check`, :func:`check_many`, :func:`count`.

``nonolab.solve(puzzle, "native")`` is ``nonolab.solvers.build("native").solve(puzzle, ...)``
with the limits spelt as arguments.  They live here, not in ``nonolab/__init__.py``,
so that importing the package stays free of the solvers until one is asked for (the
command line installs its Ctrl-C handler before it loads them).

>>> from nonolab.api import check
>>> from nonolab.core import Puzzle
>>> check(Puzzle(rows=((1,),), columns=((1,),))).verdict.value
'unique'
"""

from __future__ import annotations

from typing import Any

from nonolab.core import Puzzle
from nonolab.core.puzzle import require_puzzle
from nonolab.harness.uniqueness import CheckResult, CountResult
from nonolab.solvers import DEFAULT, Limits, SolveResult
from nonolab.solvers import build as _build

__all__ = ["check", "check_many", "count", "solve"]

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
    puzzle = require_puzzle(puzzle, "solve")
    return _build(backend, **options).solve(puzzle, Limits(max_solutions, time_limit))


def check(puzzle: Puzzle, backend: str = DEFAULT, time_limit: float | None = None,
          **options: Any) -> CheckResult:
    """Is the solution unique?  See :func:`nonolab.harness.uniqueness.check`."""
    puzzle = require_puzzle(puzzle, "check")
    from nonolab.harness.uniqueness import check as _check
    return _check(puzzle, _build(backend, **options), time_limit)


def check_many(puzzles: Any, backend: str = DEFAULT, time_limit: float | None = None,
               errors: str = "raise", **options: Any) -> Any:
    """Is each solution unique?  An iterator of :class:`CheckResult`, one per puzzle of the
    iterable ``puzzles``, in order; ``time_limit`` per puzzle.  The default backend is the
    one every entry point uses (:data:`nonolab.solvers.DEFAULT`, ``auto``); it declares
    ``Capability.BATCH``, as native does: many small puzzles go per call into native's
    compiled engine (microseconds between puzzles, where one :func:`check` a puzzle costs
    tens of them), and the few it leaves take auto's strategy.  ``errors="yield"``
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
    puzzle = require_puzzle(puzzle, "count")
    from nonolab.harness.uniqueness import count as _count
    return _count(puzzle, _build(backend, **options), limit, time_limit)
