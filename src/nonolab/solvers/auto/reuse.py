"""Solvers of equal options settled once: what ``auto`` builds on every solve, copied.

The library and the CLI build a fresh solver a puzzle, and ``auto`` builds its first
engine afresh on every solve (it sets the engine's ``alarm`` and ``hold``).  Settling
options (27 of auto's, 23 of lcg's: each checked against its declaration) cost about
12 µs of an easy 25x25 puzzle's 600; the settled state is a function of the options
alone, so it is kept once per option set and copied into each new solver.

Copied only where a copy is exact: options told apart by their values' types and
``repr`` (``1``, ``True``, ``1.0`` and ``-0.0`` are four keys), all of them plain
values (``None``, bool, int, float, str: anything else, a callback or an observer, is
settled each time), and a state of plain values only (its dicts copied), so that no
two solvers share anything they could change.  A refusal is never kept: only a
solver that was built is.

>>> key = options_key(dict, {"a": 1}), options_key(dict, {"a": True}), options_key(dict, {"a": [1]})
>>> key[0] == key[1], key[2]
(False, None)
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Mapping

__all__ = ["options_key", "settled", "remember", "fresh"]

_PLAIN = (type(None), bool, int, float, str)
# A settled state may also hold these (lcg's compiled module; auto's class in its key).
_STATE = _PLAIN + (ModuleType, type)
_SETTLED: dict[Any, tuple[dict[str, Any], tuple[str, ...]]] = {}
_SETTLED_MOST = 64   # option sets kept (a sweep of options builds many)


def options_key(owner: Any, *groups: Mapping[str, Any] | None) -> tuple | None:
    """A key that tells ``owner``'s option sets ``groups`` apart exactly (each name with
    its value's type and ``repr``), or ``None`` when a value is not plain.

    >>> options_key(dict, {"b": 2.0, "a": "x"}, None)
    (<class 'dict'>, (('a', <class 'str'>, "'x'"), ('b', <class 'float'>, '2.0')), ())
    """
    key: list[Any] = [owner]
    for group in groups:
        items = []
        for name, value in sorted((group or {}).items()):
            if type(value) not in _PLAIN:
                return None
            items.append((name, type(value), repr(value)))
        key.append(tuple(items))
    return tuple(key)


def _plain_state(state: Mapping[str, Any]) -> bool:
    """Whether ``state`` holds plain values only: those, tuples of them, and at the top
    dicts of them (:func:`_copied` copies those)."""
    def plain(value: Any, depth: int = 0) -> bool:
        if type(value) is tuple:
            return depth < 4 and all(plain(item, depth + 1) for item in value)
        if type(value) is dict and depth == 0:
            return all(type(k) in _PLAIN and plain(v, 1) for k, v in value.items())
        return type(value) in _STATE
    return all(plain(value) for value in state.values())


def _kept(solver: Any) -> tuple[dict[str, Any], tuple[str, ...]] | None:
    """``solver``'s state to keep: a copy, and the names of its dicts (each solver given
    the state gets its own copy of those); ``None`` when the state is not plain (or not
    all in its ``__dict__``, or made by a ``__new__`` of its own)."""
    state = getattr(solver, "__dict__", None)
    if state is None or type(solver).__new__ is not object.__new__ or not _plain_state(state):
        return None
    dicts = tuple(name for name, value in state.items() if type(value) is dict)
    return {name: dict(value) if name in dicts else value for name, value in state.items()}, dicts


def _give(solver: Any, kept: tuple[dict[str, Any], tuple[str, ...]]) -> None:
    """Give ``solver`` the ``kept`` state, its dicts copied."""
    state = vars(solver)
    state.update(kept[0])
    for name in kept[1]:
        state[name] = dict(state[name])


def settled(solver: Any, key: tuple | None) -> bool:
    """Give ``solver`` the state kept for ``key`` (its dicts copied); False when none is kept.

    >>> class Demo: pass
    >>> demo = Demo(); demo.limits = {"n": 1}
    >>> remember(options_key(Demo, {}), demo)
    >>> other = Demo(); settled(other, options_key(Demo, {})), other.limits, other.limits is demo.limits
    (True, {'n': 1}, False)
    """
    kept = _SETTLED.get(key) if key is not None else None
    if kept is None:
        return False
    _give(solver, kept)
    return True


def remember(key: tuple | None, solver: Any) -> None:
    """Keep ``solver``'s state (just settled from the options ``key`` stands for) for the
    next solver of equal options, when it holds plain values only."""
    kept = _kept(solver) if key is not None else None
    if kept is None:
        return
    if len(_SETTLED) >= _SETTLED_MOST:
        _SETTLED.clear()
    _SETTLED[key] = kept


def fresh(known: dict[Any, Any], key: Any, build: Callable[[], Any]) -> Any:
    """A new solver as ``build()`` makes it: the first one built is kept in ``known`` (as
    it was built) and later ones are copies of it, when its state is plain (else each is
    built).

    >>> class Engine:
    ...     def __init__(self): self.alarm, self.hold = None, None
    >>> known = {}
    >>> a, b = fresh(known, "e", Engine), fresh(known, "e", Engine)
    >>> a is b, type(b) is Engine, vars(b)
    (False, True, {'alarm': None, 'hold': None})
    """
    kept = known.get(key)
    if kept is None:
        made = build()
        kept = known[key] = (type(made), _kept(made))
        if kept[1] is None:
            return made
    cls, state = kept
    if state is None:   # (not plain: built each time)
        return build()
    copy = object.__new__(cls)
    _give(copy, state)
    return copy
