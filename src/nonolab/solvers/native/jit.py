"""The one switch between compiled and plain Python for the native engine.

Every hot function of the engine is written once, as plain loops over numpy arrays,
and decorated with :func:`jit`.  With numba installed it is compiled on first use
(and cached on disk, so later processes load it in milliseconds); with
``NUMBA_DISABLE_JIT=1`` numba runs the very same functions as Python, which is how
the tests cross-check the compiled engine against its source.
"""

from __future__ import annotations

from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

try:  # numba is a dependency; the fallback only keeps the package importable without it
    from numba import njit as _njit
except ImportError:  # pragma: no cover
    _njit = None


def jit(func: F) -> F:
    """Compile ``func`` in nopython mode with an on-disk cache, if numba is there."""
    if _njit is None:  # pragma: no cover
        return func
    return _njit(cache=True, nogil=True)(func)
