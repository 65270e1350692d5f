"""The one switch between compiled and plain Python for the native engine.

Every hot function of the engine is written once, as plain loops over numpy arrays,
and decorated with :func:`jit`.  With numba installed it is compiled on first use
(and cached on disk, so later processes load it in milliseconds); with
``NUMBA_DISABLE_JIT=1`` numba runs the very same functions as Python, which is how
the tests cross-check the compiled engine against its source.

Numba checks a cached function against its own source file only: a kernel that
calls a kernel of another file (search calls probe, probe calls propagate, ...)
would keep running the old callee after that file changed.  So the cache lives in a
folder named after a digest of every source file of the engine: any edit anywhere
in the engine starts a fresh cache, and a stale kernel is never loaded.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable, Iterable, TypeVar

F = TypeVar("F", bound=Callable)

try:  # numba is a dependency; the fallback only keeps the package importable without it
    from numba import njit as _njit
    from numba.core import config as _numba_config
except ImportError:  # pragma: no cover
    _njit = None

ENGINE_DIR = Path(__file__).resolve().parent


def engine_digest(sources: Iterable[Path]) -> str:
    """A short digest of the names and contents of ``sources`` (order does not matter).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "a.py").write_text("x = 1")
    5
    >>> before = engine_digest(folder.glob("*.py"))
    >>> (folder / "a.py").write_text("x = 2")
    5
    >>> before == engine_digest(folder.glob("*.py"))
    False
    """
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in sources):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Where the compiled engine is cached: a folder per version of the engine's sources.

    Inside ``NUMBA_CACHE_DIR`` when the user set one, else in the engine's own
    ``__pycache__``.  (Numba falls back to its user-wide cache if that is not writable.)
    """
    base = getattr(_numba_config, "CACHE_DIR", "") if _njit is not None else ""
    root = Path(base) if base else ENGINE_DIR / "__pycache__"
    return root / f"nonolab-engine-{engine_digest(ENGINE_DIR.glob('*.py'))}"


_CACHE_DIR = str(cache_dir()) if _njit is not None else ""


def jit(func: F) -> F:
    """Compile ``func`` in nopython mode with an on-disk cache, if numba is there."""
    if _njit is None:  # pragma: no cover
        return func
    # Numba picks the cache folder when the decorator runs; point it at the engine's
    # folder for this one decoration and leave the user's setting as it was.
    saved = _numba_config.CACHE_DIR
    _numba_config.CACHE_DIR = _CACHE_DIR
    try:
        return _njit(cache=True, nogil=True)(func)
    finally:
        _numba_config.CACHE_DIR = saved
