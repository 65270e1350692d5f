"""The backend registry: one line per backend, imported only when first used.

``names()`` lists the registered backends, ``get(name, **options)`` builds one.
A backend may declare *variants* (option values that make a different solver, such
as the native engine's line strategies, in its class attribute ``VARIANTS``);
``specs()`` lists every backend and variant as a spec such as
``native:line=overlap``, and ``get_spec(spec)`` builds one.  The
default is ``auto`` (the native engine, then CP-SAT on what it leaves); callers should
name the backend they need rather than rely on the default, which may change.

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

__all__ = ["DEFAULT", "ROLES", "Limits", "SolveResult", "Solver", "Stats", "Status", "get", "get_spec", "names",
           "parse_spec", "role", "specs", "variants"]

# name -> (module, class, the package a user must install for it, role)
# Roles: "solver" (an independent complete solver), "strategy" (composes solvers),
# "baseline" (a strategy from the literature kept for the benchmarks: slow beyond small
# grids, so the harness runs it only when asked).
_REGISTRY: dict[str, tuple[str, str, str | None, str]] = {
    "native": ("nonolab.solvers.native", "NativeSolver", None, "solver"),
    "auto": ("nonolab.solvers.auto", "AutoSolver", "ortools", "strategy"),
    "backtrack": ("nonolab.solvers.backtrack", "BacktrackSolver", None, "baseline"),
    "cpsat": ("nonolab.solvers.cpsat", "CpSatSolver", "ortools", "solver"),
    "cnf": ("nonolab.solvers.cnf", "CnfSolver", "python-sat", "solver"),
    "dlx": ("nonolab.solvers.dlx", "DlxSolver", None, "baseline"),
    "lcg": ("nonolab.solvers.lcg", "LcgSolver", None, "solver"),
}
ROLES = ("solver", "strategy", "baseline")

DEFAULT = "auto"


def names(roles: tuple[str, ...] = ROLES) -> list[str]:
    """Registered backend names with one of ``roles``, the default first.

    >>> names(("baseline",))
    ['backtrack', 'dlx']
    """
    chosen = sorted(n for n, entry in _REGISTRY.items() if entry[3] in roles)
    return [DEFAULT] + [n for n in chosen if n != DEFAULT] if DEFAULT in chosen else chosen


def role(name: str) -> str:
    """The role of backend ``name``: ``solver``, ``strategy`` or ``baseline``.

    >>> role("auto"), role("cnf")
    ('strategy', 'solver')
    """
    try:
        return _REGISTRY[name][3]
    except KeyError:
        raise UnknownBackend(f"unknown backend {name!r} (known: {', '.join(names())})") from None


def get(name: str = DEFAULT, **options: Any) -> Solver:
    """Build the backend ``name`` with its options.

    Raises:
        UnknownBackend: no backend has this name.
        BackendUnavailable: its library is not installed or fails to import.
    """
    try:
        module_name, class_name, package, _role = _REGISTRY[name]
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


def _class(name: str) -> type:
    module_name, class_name, package, _role = _REGISTRY[name]
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except ImportError as exc:
        hint = f"; install it with: pip install {package}" if package else ""
        raise BackendUnavailable(f"backend {name!r} cannot be loaded ({exc}){hint}") from exc


def variants(name: str) -> list[str]:
    """The specs of backend ``name``'s declared variants (none if it cannot load).

    >>> variants("native")[0]
    'native:line=chain-range'
    """
    role(name)  # unknown names fail here
    try:
        declared = getattr(_class(name), "VARIANTS", {})
    except BackendUnavailable:
        return []
    return [f"{name}:{key}={value}" for key, values in declared.items() for value in values]


def specs(roles: tuple[str, ...] = ROLES) -> list[str]:
    """Every backend of ``roles`` (as in :func:`names`) followed by its variants."""
    return [spec for name in names(roles) for spec in [name, *variants(name)]]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"native:line=overlap,probing=none"`` -> ``("native", {"line": "overlap", "probing": "none"})``.

    Values that read as integers, numbers or true/false become those.

    Raises:
        UnknownBackend: the backend is unknown, or an option is not KEY=VALUE.
    """
    name, _, rest = spec.strip().partition(":")
    role(name)
    options: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise UnknownBackend(f"backend spec {spec!r}: {pair!r} is not KEY=VALUE")
        options[key.strip()] = option_value(raw.strip())
    return name, options


def option_value(raw: str) -> Any:
    """A backend option's value as typed in a spec or ``-O KEY=VALUE``.

    >>> [option_value(v) for v in ("2", "0.5", "yes", "off", "none", "cnf")]
    [2, 0.5, True, False, None, 'cnf']
    """
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def get_spec(spec: str, **options: Any) -> Solver:
    """Build the backend a spec names (see :func:`parse_spec`); ``options`` add to the spec's.

    >>> get_spec("native:line=enumerate").line.name
    'enumerate'
    """
    name, spec_options = parse_spec(spec)
    return get(name, **{**spec_options, **options})
