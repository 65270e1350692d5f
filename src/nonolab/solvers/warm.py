"""Warming a backend up: its compiled code or library loaded once per process, before
timed work.

>>> from nonolab.solvers import get
>>> warm_up(get("native")); "native" in _WARM
True
"""

from __future__ import annotations

from typing import Callable

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Limits, Solver

_WARM: set[str] = set()


def warm_up(solver: "Solver | Callable[[], Solver]", name: str | None = None) -> None:
    """Run ``solver`` once on a 2x2 puzzle with two solutions, once per process and backend.

    That runs propagation, probing and search once, which is what loads a backend's
    compiled code or library (an extension's shared object: milliseconds; OR-tools: about
    half a second): timed work after it (a strategy's budget, a batch job's limit)
    measures the search, not the loading.  A backend that fails here fails on real work
    too, where its error is reported: nothing is raised here.  Given a callable that
    builds the solver and the backend's ``name``, nothing is built once it is warm (a
    strategy that warms its parts up on every call pays nothing for it then).
    """
    if name is not None and name in _WARM:
        return
    engine = solver() if callable(solver) else solver   # a solver is not callable: its builder is
    if engine.name in _WARM:
        return
    switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    try:
        engine.solve(switch, Limits(max_solutions=None, time_limit=10.0))
    except Exception:  # noqa: BLE001 -- see the docstring
        return
    _WARM.add(engine.name)
