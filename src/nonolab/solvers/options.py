"""Backend options: declared once per backend, checked by one parser.

Every backend class lists the options a user may set in its class attribute
``OPTIONS`` (a tuple of :class:`Option`): the declaration is the only place an
option's default, kind, range and choices are written.  :meth:`Option.parse` turns a
value as a user typed it (``"2"``, ``"off"``, ``"none"``) or as Python passed it
(``2``, ``False``, ``None``) into the checked value, or raises
:class:`~nonolab.errors.InvalidArgument` naming the backend, the option, the value
and what is accepted.  A backend's constructor takes its declared options as
keywords (``**options``) and hands them to :func:`settle`, which sets each as an
attribute of the same name (the given value parsed, else the declared default); the
registry (:func:`nonolab.solvers.build`) passes what a user typed straight through,
and ``nonolab backends`` and the CLI's choices print the same declarations.

Options only Python can pass (callables such as ``progress``) are listed in the
class attribute ``PROGRAMMATIC`` instead, as keyword-only parameters of the
constructor: accepted from Python, refused in a spec or ``-O``.

>>> workers = Option("workers", "int", 1, "search workers", minimum=1)
>>> workers.parse("3", "cpsat")
3
>>> workers.parse("0", "cpsat")
Traceback (most recent call last):
...
nonolab.errors.InvalidArgument: backend 'cpsat': option workers=0: expected an integer >= 1
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from nonolab.errors import InvalidArgument

__all__ = ["INT_LIMIT", "KINDS", "Option", "declared", "describe", "max_states_option", "refuse_undeclared", "settle"]

KINDS = ("int", "float", "bool", "choice")

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_NONE = ("none", "null")

#: The largest integer an engine takes (C++'s ``int64_t``).  An ``"int"`` option is bounded by it
#: besides its own range, so that a larger value is refused here in one line, not an
#: ``OverflowError`` out of an extension after the search was built.
INT_LIMIT = 2**63 - 1


@dataclass(frozen=True)
class Option:
    """One option of a backend.

    Args:
        name: the keyword of the backend's constructor.
        kind: ``"int"``, ``"float"``, ``"bool"`` or ``"choice"``.
        default: the constructor's default (shown by ``nonolab backends``).
        help: one line.
        choices: for ``"choice"``: the accepted names, or a function returning them
            (for lists known only once the backend's library is loaded).
        minimum, maximum: bounds of an ``"int"`` or ``"float"`` (inclusive).
        optional: ``None`` (typed ``none``) is accepted too, meaning "the library's
            own default" or "no limit".
        experimental: a knob kept for measurements, not a recommendation: its
            default is the measured best, and ``nonolab backends`` says so.
        spelling: for ``"choice"``: turns another spelling a user may type (an alias,
            such as cnf's ``m22``) into one of the choices, or raises
            :class:`~nonolab.errors.InvalidArgument`.
        needs: the option that must be on (not 0, false or none) for this one to change
            anything (lcg's ``first_mode`` needs ``modes``): :func:`settle` refuses this one
            set to another value than its default while that one is off, and the
            differential wall runs it together with that one.
        spends: a work limit's counter (``"nodes"``, ``"conflicts"``: a key of the backend's
            counters): the option bounds that counter over a whole call, and a harness that
            makes several calls (``grade``) holds them together to it by this declaration.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] | Callable[[], Iterable[str]] | None = None
    minimum: float | None = None
    maximum: float | None = None
    optional: bool = False
    experimental: bool = False
    spelling: Callable[[str], str] | None = None
    needs: str | None = None
    spends: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Option {self.name}: kind must be one of {KINDS}, not {self.kind!r}")
        if (self.kind == "choice") != (self.choices is not None):
            raise ValueError(f"Option {self.name}: choices are given exactly for kind 'choice'")

    def allowed(self) -> tuple[str, ...]:
        """The accepted names of a ``"choice"`` option (empty for other kinds)."""
        if self.choices is None:
            return ()
        return tuple(self.choices() if callable(self.choices) else self.choices)

    def expected(self) -> str:
        """What is accepted, in words: ``an integer >= 1``, ``one of dp, overlap``."""
        if self.kind == "bool":
            text = "true or false"
        elif self.kind == "choice":
            text = "one of " + ", ".join(self.allowed())
        else:
            text = "an integer" if self.kind == "int" else "a number"
            if self.minimum is not None and self.maximum is not None:
                text += f" from {_show(self.minimum)} to {_show(self.maximum)}"
            elif self.minimum is not None:
                text += f" >= {_show(self.minimum)}"
            elif self.maximum is not None:
                text += f" <= {_show(self.maximum)}"
        unset = self.optional and "none" not in self.allowed()  # else "none" is a choice
        return text + (" (or none)" if unset else "")

    def parse(self, value: Any, backend: str) -> Any:
        """The checked value of ``value`` (a string as typed, or a Python value).

        Raises:
            InvalidArgument: the value is not of the option's kind, out of its range,
                or not among its choices; the message says what is accepted.
        """
        if isinstance(value, Enum):  # e.g. native's Probing.FULL: its name as typed
            value = value.value
        text = value.strip() if isinstance(value, str) else None
        if value is None or (text is not None and text.lower() in _NONE and self.kind != "choice"):
            if self.optional:
                return None
            raise self._bad(value, backend)
        if self.kind == "bool":
            return self._bool(value, text, backend)
        if self.kind == "choice":
            if text is not None and text in self.allowed():
                return text
            if text is not None and self.spelling is not None:
                try:
                    spelt = self.spelling(text)
                except InvalidArgument:
                    raise self._bad(value, backend) from None
                if spelt in self.allowed():
                    return spelt
            if text is not None and text.lower() in _NONE and self.optional:
                return None
            raise self._bad(value, backend)
        number = self._number(value, text, backend)
        if ((self.minimum is not None and number < self.minimum)
                or (self.maximum is not None and number > self.maximum)):
            raise self._bad(value, backend)
        if self.kind == "int" and not -INT_LIMIT - 1 <= number <= INT_LIMIT:
            raise self._bad(value, backend, f", at most {INT_LIMIT} (the engines' 64-bit integers)")
        return number

    def _bool(self, value: Any, text: str | None, backend: str) -> bool:
        if isinstance(value, bool):
            return value
        if text is not None and text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise self._bad(value, backend)

    def _number(self, value: Any, text: str | None, backend: str) -> int | float:
        if isinstance(value, bool):
            raise self._bad(value, backend)
        try:
            if self.kind == "int":
                if isinstance(value, float) and value.is_integer():
                    return int(value)
                if text is None and not isinstance(value, int):
                    raise ValueError
                return int(text) if text is not None else int(value)
            number = float(text) if text is not None else float(value)
        except (TypeError, ValueError):
            raise self._bad(value, backend) from None
        if math.isnan(number) or math.isinf(number):
            raise self._bad(value, backend)
        return number

    def _bad(self, value: Any, backend: str, beyond: str = "") -> InvalidArgument:
        shown = value if isinstance(value, str) else repr(value)
        return InvalidArgument(f"backend {backend!r}: option {self.name}={shown}: expected {self.expected()}{beyond}")


def _show(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound)


def declared(cls: type) -> Mapping[str, Option]:
    """A backend class's user options by name (its ``OPTIONS``), read only."""
    found = _DECLARED.get(cls)
    if found is None:  # a class's OPTIONS never change, and every constructor asks
        found = _DECLARED[cls] = MappingProxyType({option.name: option for option in getattr(cls, "OPTIONS", ())})
    return found


_DECLARED: dict[type, Mapping[str, Option]] = {}


def refuse_undeclared(backend: str, cls: type, names: Iterable[str]) -> None:
    """Raise unless every name in ``names`` is a declared option of ``cls`` (what a spec
    or ``-O`` may set: never a programmatic one).

    Raises:
        InvalidArgument: an unknown option name, naming the declared ones.
    """
    options_of = declared(cls)
    for key in names:
        if key not in options_of:
            known = ", ".join(options_of) or "none"
            raise InvalidArgument(f"backend {backend!r}: unknown option {key!r} (options: {known})")


def settle(solver: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """Set every option ``solver``'s class declares as an attribute of the same name:
    the value in ``given`` checked by its declaration (:meth:`Option.parse`), else the
    declared default; returns them.  The one way a backend's constructor takes its options.

    >>> class Demo:
    ...     name = "demo"
    ...     OPTIONS = (Option("workers", "int", 1, "search workers", minimum=1),)
    ...     def __init__(self, **options):
    ...         settle(self, options)
    >>> Demo().workers, Demo(workers="3").workers
    (1, 3)
    >>> Demo(threads=2)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: backend 'demo': unknown option 'threads' (options: workers)
    >>> Demo(workers=0)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: backend 'demo': option workers=0: expected an integer >= 1

    Raises:
        InvalidArgument: an unknown option name, a bad value (see :meth:`Option.parse`),
            or an option set while the option it :attr:`~Option.needs` is off (it would
            change nothing: said, not ignored).
    """
    cls = type(solver)
    refuse_undeclared(cls.name, cls, given)
    options = declared(cls)
    values = {name: option.parse(given[name], cls.name) if name in given else option.default
              for name, option in options.items()}
    for name, option in options.items():
        if option.needs is not None and values[name] != option.default and not values[option.needs]:
            raise InvalidArgument(f"backend {cls.name!r}: option {name}={given[name]} changes nothing while "
                                  f"{option.needs} is off ({option.needs}={_show_value(values[option.needs])}): "
                                  f"set {option.needs} too")
    vars(solver).update(values)
    return values


def _show_value(value: Any) -> str:
    return "none" if value is None else "false" if value is False else str(value)


def max_states_option(default: int) -> Option:
    """The ``max_states`` option every model-building backend declares (the memory
    guard: see :func:`nonolab.solvers.size.refuse_beyond`)."""
    return Option("max_states", "int", default, "refuse puzzles whose model has more cells and line "
                  "states (the memory guard; none: no limit)", minimum=1, optional=True)


def describe(option: Option) -> str:
    """One line for ``nonolab backends``: name, what it accepts, default, help.

    >>> describe(Option("workers", "int", 1, "search workers", minimum=1))
    'workers=1  an integer >= 1; search workers'
    """
    if option.default is None:
        default = "unset" if option.kind == "choice" else "none"
    else:
        default = str(option.default).lower() if isinstance(option.default, bool) else option.default
    experimental = " (experimental)" * option.experimental
    return f"{option.name}={default}  {option.expected()}; {option.help}{experimental}"
