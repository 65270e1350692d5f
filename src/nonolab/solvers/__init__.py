"""The backend registry: one line per backend, imported only when first used.

``names()`` lists the registered backends, ``build(spec, **options)`` builds one
(``get`` is the same for a plain name).
A backend may declare *variants* (option values that make a different solver, such
as the native engine's line strategies, in its class attribute ``VARIANTS``);
``specs()`` lists every backend and variant as a spec such as
``native:line=overlap``, which ``build`` takes as it takes a name.  The
default is ``auto`` (the native engine, then CP-SAT on what it leaves); callers should
name the backend they need rather than rely on the default, which may change.

>>> "native" in names()
True
>>> get("native").name
'native'
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Iterable, Iterator, Protocol, cast

from nonolab.core.puzzle import Puzzle

from nonolab.errors import BackendUnavailable, InvalidArgument, UnknownBackend
import nonolab.solvers.base as _base
from nonolab.solvers.base import (Budget, Capability, Given, Limits, SolveResult, Solver, Stats, Status, bytes_per_cell,
                                  capabilities)
from nonolab.solvers.options import Option, refuse_undeclared
from nonolab.solvers.session import OneShotSession, Session, open_session
from nonolab.solvers.steps import Step, Technique, replay

__all__ = ["DEFAULT", "PROVER", "ROLES", "Batching", "Budget", "Capability", "Proving", "Given", "Limits", "Option", "SolveResult", "Solver", "Stats", "Status",
           "OneShotSession", "Session", "Step", "Technique", "as_batching", "as_prover", "backend_class", "backends_with", "build", "bytes_per_cell", "capabilities_of",
           "declared_bytes_per_cell", "describe_option", "get", "line_strategies", "names", "open_session", "options_of",
           "parse_pairs", "parse_spec", "replay", "role", "solver_for", "specs", "variants"]

# name -> (module, class, the package a user must install for it, role)
# Roles: "solver" (an independent complete solver), "strategy" (composes solvers),
# "baseline" (a strategy from the literature kept for the benchmarks: slow beyond small
# grids, so the harness runs it only when asked), "counter" (an exact model counter: counts
# without listing every solution, so `crosscheck` runs it only when asked).
_REGISTRY: dict[str, tuple[str, str, str | None, str]] = {
    "native": ("nonolab.solvers.native", "NativeSolver", None, "solver"),
    "auto": ("nonolab.solvers.auto", "AutoSolver", "ortools", "strategy"),
    "backtrack": ("nonolab.solvers.backtrack", "BacktrackSolver", None, "baseline"),
    "cpsat": ("nonolab.solvers.cpsat", "CpSatSolver", "ortools", "solver"),
    "cnf": ("nonolab.solvers.cnf", "CnfSolver", "python-sat", "solver"),
    "dlx": ("nonolab.solvers.dlx", "DlxSolver", None, "baseline"),
    "lcg": ("nonolab.solvers.lcg", "LcgSolver", None, "solver"),
    "sharpsat": ("nonolab.solvers.cnf.sharpsat", "SharpSatSolver", "pyganak", "counter"),
}
ROLES = ("solver", "strategy", "baseline", "counter")

DEFAULT = "auto"
# The engine that proves what a backend without Capability.PROOF answered (nonolab.certify):
# the fastest of those that declare it on the corpus (benchmarks/log/2026-11-26-certify.md).
PROVER = "lcg"


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
    """Build the backend ``name`` (or a spec such as ``native:line=overlap``) with its options.

    Every option is checked against the backend's declarations first (see
    :mod:`nonolab.solvers.options`); values may be typed or strings as a user typed them.

    Raises:
        UnknownBackend: no backend has this name.
        InvalidArgument: an unknown option, or a value the option does not accept.
        BackendUnavailable: its library is not installed or fails to import.
    """
    return build(name, **options)


def build(spec: str = DEFAULT, pairs: Iterable[str] = (), **options: Any) -> Solver:
    """The one way a backend is built from what a user typed: a spec, ``-O`` pairs, options.

    ``spec`` is a backend name, optionally with options (``native:line=overlap,probing=none``);
    ``pairs`` are ``KEY=VALUE`` strings as given to ``-O``; ``options`` come from Python.
    Later sources win (spec, then pairs, then options).  Every value goes through the
    backend's declared options as its constructor takes them
    (:func:`~nonolab.solvers.options.settle`); text may set declared options only.

    >>> build("native:probing=none", ["line=overlap"]).line.name
    'overlap'
    >>> build("cpsat", ["workers=0"])
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: backend 'cpsat': option workers=0: expected an integer from 1 to 256
    """
    name, spec_options = parse_spec(spec)
    cls = _class(name)
    from_text = {**spec_options, **parse_pairs(pairs)}
    # Text sets declared options only: a programmatic one (a callable, a dict) is never text.
    refuse_undeclared(name, cls, [*from_text, *(key for key, value in options.items() if isinstance(value, str))])
    return cls(**{**from_text, **options})


def solver_for(backend: Any, caller: str) -> Solver:
    """The solver a question runs: ``backend`` built if it is a spec (:func:`build`), else the
    solver already built that it is.

    Raises:
        TypeError: ``backend`` is neither (``None``, a number): said by the question asked,
            not an ``AttributeError`` from inside it.

    >>> solver_for("native", "grade").name
    'native'
    >>> solver_for(None, "grade")
    Traceback (most recent call last):
    ...
    TypeError: grade: backend must be a spec such as 'native' (str) or a built solver, not NoneType
    """
    if isinstance(backend, str):
        return build(backend)
    if not callable(getattr(backend, "solve", None)) or not isinstance(getattr(backend, "name", None), str):
        raise TypeError(f"{caller}: backend must be a spec such as 'native' (str) or a built solver, "
                        f"not {type(backend).__name__}")
    return backend


def options_of(name: str) -> tuple[Option, ...]:
    """The declared user options of backend ``name`` (see :class:`~nonolab.solvers.options.Option`).

    >>> [o.name for o in options_of("cpsat")][:2]
    ['workers', 'presolve']
    """
    role(name)
    return tuple(getattr(_class(name), "OPTIONS", ()))


def backend_class(name: str) -> type:
    """The class :func:`build` makes backend ``name`` of, without building one (its
    declarations: ``PROGRAMMATIC``, ``OPTIONS``...).

    Raises:
        UnknownBackend / BackendUnavailable: as :func:`build`.

    >>> backend_class("lcg").__name__
    'LcgSolver'
    """
    role(name)
    return _class(name)


def capabilities_of(name: str) -> frozenset[Capability]:
    """The capabilities backend ``name`` declares (see :class:`~nonolab.solvers.base.Capability`),
    without building it; none when it cannot load.

    >>> Capability.SESSION in capabilities_of("cnf"), Capability.SESSION in capabilities_of("dlx")
    (True, False)
    """
    role(name)
    try:
        return capabilities(_class(name))
    except BackendUnavailable:
        return frozenset()


# The capabilities that add a method, as types: narrow a Solver by what it declares, never by a name or a
# signature (a backend need not subclass these; it declares the capability and has the method).
class Proving(Solver, Protocol):
    """A backend that declares ``Capability.PROOF``: narrow to it with :func:`as_prover`."""

    def prove(self, puzzle: Puzzle, limits: Limits = Limits(), proof: Any = None) -> SolveResult: ...


class Batching(Solver, Protocol):
    """A backend that declares ``Capability.BATCH``: narrow to it with :func:`as_batching`."""

    def solve_many(self, puzzles: Iterable[Puzzle], limits: Limits = Limits(),
                   rest: Callable[[Puzzle, Limits], SolveResult] | None = None) -> Iterator[Any]:
        """Each puzzle's SolveResult in order, or the NonolabError that stopped it in its place;
        ``rest(puzzle, limits)`` answers the puzzles the batch path leaves (default: ``solve``)."""


def as_prover(solver: Solver) -> Proving | None:
    """``solver`` as a :class:`Proving` backend if it declares ``Capability.PROOF`` (else None).

    >>> as_prover(get("lcg")) is not None, as_prover(get("dlx"))
    (True, None)
    """
    return cast(Proving, solver) if Capability.PROOF in capabilities(solver) else None


def as_batching(solver: Solver) -> Batching | None:
    """``solver`` as a :class:`Batching` backend if it declares ``Capability.BATCH`` (else None)."""
    return cast(Batching, solver) if Capability.BATCH in capabilities(solver) else None


def describe_option(option: Option) -> str:
    """One line for ``nonolab backends``: ``name=default``, what it accepts, what it does."""
    from nonolab.solvers.options import describe
    return describe(option)


def line_strategies() -> list[tuple[str, bool, str]]:
    """The native engine's line strategies as ``(name, complete, summary)``.

    >>> line_strategies()[0][:2]
    ('dp', True)
    """
    from nonolab.solvers.native.modes import STRATEGIES
    return [(s.name, s.complete, s.summary) for s in STRATEGIES.values()]


def backends_with(capability: Capability) -> list[str]:
    """The registered backends (as in :func:`names`) that declare ``capability`` and load.

    >>> "cpsat" in backends_with(Capability.COLOUR), "dlx" in backends_with(Capability.COLOUR)
    (True, False)
    """
    return [n for n in names() if capability in capabilities_of(n)]


_base.backends_with = backends_with


def parse_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``["workers=2", "presolve=off"]`` -> ``{"workers": "2", "presolve": "off"}`` (values
    stay text: the backend's declarations type them).

    One option given twice with two values is refused, never a silent choice of the last
    (as a key given twice in a puzzle file); the same value again is no conflict.

    >>> parse_pairs(["workers=2", "workers=3"])
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: backend option workers given twice, differently: 2, then 3

    Raises:
        InvalidArgument: a pair is not KEY=VALUE, or a key given twice with two values.
    """
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidArgument(f"backend option {pair!r} is not KEY=VALUE")
        key, raw = key.strip(), raw.strip()
        if out.get(key, raw) != raw:
            raise InvalidArgument(f"backend option {key} given twice, differently: {out[key]}, then {raw}")
        out[key] = raw
    return out


def _class(name: str) -> type:
    try:
        module_name, class_name, package, _role = _REGISTRY[name]
    except KeyError:
        raise UnknownBackend(f"unknown backend {name!r} (known: {', '.join(names())})") from None
    try:
        return getattr(importlib.import_module(module_name), class_name)
    except ImportError as exc:
        hint = f"; install it with: pip install {package}" if package else ""
        raise BackendUnavailable(f"backend {name!r} cannot be loaded ({exc}){hint}") from exc


def declared_bytes_per_cell(spec: str, puzzle: Puzzle) -> int:
    """The memory the backend ``spec`` names declares a cell of ``puzzle``
    (:func:`~nonolab.solvers.base.bytes_per_cell`), read from its class without building
    it (building cnf imports python-sat); 0 when it cannot load here.  A class whose
    cost follows its options declares it per instance (``memory_per_cell``: auto's
    engines, native's step log): that one is built from the spec, options and all.

    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> declared_bytes_per_cell("lcg", p) == bytes_per_cell(get("lcg"), p), declared_bytes_per_cell("dlx", p)
    (True, 0)
    >>> declared_bytes_per_cell("native:record_steps=true", p) == bytes_per_cell(get("native", record_steps=True), p)
    True
    """
    try:
        cls = _class(parse_spec(spec)[0])
        per_instance = callable(getattr(cls, "memory_per_cell", None))
        return bytes_per_cell(build(spec) if per_instance else cls, puzzle)
    except BackendUnavailable:
        return 0


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

    Values stay text: :func:`build` types and checks them against the backend's
    declared options.

    Raises:
        UnknownBackend: the backend is unknown.
        InvalidArgument: an option is not KEY=VALUE.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a backend spec is a str such as 'native' or 'native:line=overlap', not {type(spec).__name__}")
    name, _, rest = spec.strip().partition(":")
    role(name)
    try:
        return name, parse_pairs(filter(None, (p.strip() for p in rest.split(","))))
    except InvalidArgument as err:
        raise InvalidArgument(f"backend spec {spec!r}: {err}") from None
