"""The engine that races lcg in ``auto`` when none is named.

Measured (benchmarks/RESULTS.md, "auto's rival measured again"): Kissat
(``cnf:solver=kissat404``) runs in a child process of its own, so it never holds the
GIL that lcg's slices and native's steps take between their compiled stretches.
CaDiCaL, called by python-sat in a thread, holds the GIL for a whole slice of
conflicts: lcg beside it took 2-4x longer (Sierp 6.7 s against 1.7 s beside CP-SAT).
CP-SAT is the rival where python-sat is not installed.
"""

from __future__ import annotations

import functools
import importlib.util

__all__ = ["DEFAULT_RIVALS", "default_rival"]

# Best first: Kissat where python-sat is installed, else CP-SAT (see default_rival).
DEFAULT_RIVALS = ("cnf:solver=kissat404", "cpsat")


@functools.lru_cache(maxsize=None)  # looking for python-sat costs 40 us: once a process
def default_rival() -> str:
    """Kissat when python-sat is installed, else CP-SAT (decided without importing
    python-sat: the import costs 40-60 ms, which a puzzle native settles must not pay).
    A python-sat without Kissat (an older release) fails the rival when it starts; lcg goes
    on alone (a part that fails leaves the race to the other; ``-O rival=cpsat`` there).

    >>> default_rival() in DEFAULT_RIVALS
    True
    """
    return DEFAULT_RIVALS[0] if importlib.util.find_spec("pysat") is not None else DEFAULT_RIVALS[1]
