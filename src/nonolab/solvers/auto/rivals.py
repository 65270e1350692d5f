"""The engine that races lcg in ``auto`` when none is named.

Measured (benchmarks/RESULTS.md, "auto's rival measured again"): Kissat
(``cnf:solver=kissat404``) runs in a child process of its own, so it never holds the
GIL that lcg's slices and native's steps take between their compiled stretches.
CaDiCaL, called by python-sat in a thread, holds the GIL for a whole slice of
conflicts: lcg beside it took 2-4x longer (Sierp 6.7 s against 1.7 s beside CP-SAT).
CP-SAT is the rival where python-sat has no Kissat (before 1.9).
"""

from __future__ import annotations

from nonolab.errors import BackendUnavailable
from nonolab.solvers import get_spec

__all__ = ["DEFAULT_RIVALS", "default_rival"]

# Best first: the first that can be built here is the default rival beside lcg.
DEFAULT_RIVALS = ("cnf:solver=kissat404", "cpsat")


def default_rival() -> str:
    """The first engine of :data:`DEFAULT_RIVALS` that can be built here; the last one
    if none can (its own error then says what is missing when auto builds it).

    >>> default_rival() in DEFAULT_RIVALS
    True
    """
    for spec in DEFAULT_RIVALS[:-1]:
        try:
            get_spec(spec)
        except BackendUnavailable:
            continue
        return spec
    return DEFAULT_RIVALS[-1]
