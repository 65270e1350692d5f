"""The backend registry: one line per backend, imported only when first used.

``names()`` lists the registered backends, ``get(name, **options)`` builds one.  The
default backend is ``native``; callers should name the backend they need rather
than rely on the default, which may change.

>>> "native" in names()
True
>>> get("native").name
'native'
"""

from __future__ import annotations

import importlib
from typing import Any

from nonolab.errors import BackendUnavailable, UnknownBackend
from nonolab.solvers.base import Limits, SolveResult, Solver, Stats, Status

__all__ = ["DEFAULT", "Limits", "SolveResult", "Solver", "Stats", "Status", "get", "names"]

# name -> (module, class, the package a user must install for it)
_REGISTRY: dict[str, tuple[str, str, str | None]] = {
    "native": ("nonolab.solvers.native", "NativeSolver", None),
    "backtrack": ("nonolab.solvers.backtrack", "BacktrackSolver", None),
    "cpsat": ("nonolab.solvers.cpsat", "CpSatSolver", "ortools"),
    "cnf": ("nonolab.solvers.cnf", "CnfSolver", "python-sat"),
    "dlx": ("nonolab.solvers.dlx", "DlxSolver", None),
}

DEFAULT = "native"


def names() -> list[str]:
    """Registered backend names, the default first."""
    return [DEFAULT] + sorted(n for n in _REGISTRY if n != DEFAULT)


def get(name: str = DEFAULT, **options: Any) -> Solver:
    """Build the backend ``name`` with its options.

    Raises:
        UnknownBackend: no backend has this name.
        BackendUnavailable: its library is not installed or fails to import.
    """
    try:
        module_name, class_name, package = _REGISTRY[name]
    except KeyError:
        raise UnknownBackend(f"unknown backend {name!r} (known: {', '.join(names())})") from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        hint = f"; install it with: pip install {package}" if package else ""
        raise BackendUnavailable(f"backend {name!r} cannot be loaded ({exc}){hint}") from exc
    try:
        return getattr(module, class_name)(**options)
    except TypeError as exc:
        raise UnknownBackend(f"backend {name!r}: bad option ({exc})") from None
