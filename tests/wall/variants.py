"""Every backend and every declared variant the wall runs, read from the registry.

Nothing here names a backend: the variants come from each backend's declared
``OPTIONS`` and its ``CAPABILITIES``.

* choice and bool options: every combination of their values when a backend has at
  most :data:`PRODUCT_CAP` of them (native's probing x line x restarts x
  step log; lcg's minimisation x explanation x restarts x phases x probing; every cnf
  solver), else each value on its own beside the defaults (auto's many options);
* int and float options with a declared minimum other than their default: the minimum,
  alone and with each bool option flipped (a zero budget, a node limit of 1, a line
  cap of 1, no cache, probing only at the root...).  Such a variant may refuse a puzzle
  (the memory guard at 1) but never answer wrong; it is ``bounded`` (it may stop: timeout)
  only when the option is a declared work limit (``spends``: native's ``node_limit``, lcg's
  ``conflict_limit``): a zero budget or a line cap of 1 changes the path, never the end;
* the backend's declared ``VARIANTS`` (``nonolab.solvers.variants``), each on its own: the
  values of int options the two rules above do not reach (lcg's ``hint_after=3``,
  ``interleave=3``), complete, so never bounded.

An option that changes nothing while another is off (its declared ``needs``: lcg's
``first_mode``, ``focused_decay`` and ``focused_phases`` need ``modes``) is run together with
that one, set to its first declared variant value (``modes=5``): alone it would run the
plain backend again under another name (and the backend refuses it).  With no such value
to set, the variant is left out.

Options in :data:`UNVARIED` are left at their defaults, each with its reason.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any

PRODUCT_CAP = 128
UNVARIED = {
    "log": "prints the library's search log; the answers are those of the same backend without it",
}


@dataclass(frozen=True)
class Variant:
    """One backend with some options set (``options`` empty: the backend as it comes),
    and the capabilities it declares (its class's; :func:`tests.wall.run.run` takes the
    built backend's, which an option may narrow)."""

    backend: str
    options: tuple[tuple[str, str], ...]
    capabilities: frozenset
    bounded: bool = False
    minimum: bool = False     # an option at its declared minimum: it may refuse every puzzle (max_states=1)

    @property
    def spec(self) -> str:
        """The spec that builds it, as a user would type it (``native:probing=none``)."""
        return self.backend + (":" + ",".join(f"{k}={v}" for k, v in self.options) if self.options else "")

    def build(self):
        from nonolab.solvers import build
        return build(self.spec)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _values(option) -> list[str]:
    """The values the wall tries for a choice or bool option, its default first."""
    if option.kind == "bool":
        return [_text(option.default), _text(not option.default)]
    values = list(option.allowed())
    default = _text(option.default) if option.default is not None else None
    if default in values:
        values.remove(default)
    return [default, *values]


def _minimum(option) -> str | None:
    if option.kind not in ("int", "float") or option.minimum is None or option.minimum == option.default:
        return None
    return _text(int(option.minimum) if option.kind == "int" else option.minimum)


def of_backend(name: str) -> list[Variant]:
    """The variants of one registered backend, the plain backend first."""
    from nonolab.solvers import capabilities_of, options_of, parse_spec, variants

    caps = capabilities_of(name)
    options = [o for o in options_of(name) if o.name not in UNVARIED]
    switched = [o for o in options if o.kind in ("choice", "bool")]
    choices = {o.name: _values(o) for o in switched}
    out: list[Variant] = []
    size = 1
    for values in choices.values():
        size *= len(values)
    if size <= PRODUCT_CAP:
        for combo in itertools.product(*choices.values()):
            pairs = tuple((k, v) for (k, default_and_rest), v in zip(choices.items(), combo)
                          if v is not None and v != default_and_rest[0])
            out.append(Variant(name, pairs, caps))
    else:
        out.append(Variant(name, (), caps))
        out += [Variant(name, ((k, v),), caps) for k, values in choices.items() for v in values[1:]]
    flips = [()] + [((o.name, _text(not o.default)),) for o in options if o.kind == "bool"]
    for option in options:
        least = _minimum(option)
        if least is not None:
            limit = option.spends is not None
            out += [Variant(name, ((option.name, least), *flip), caps, bounded=limit, minimum=True) for flip in flips]
    declared_values: dict[str, str] = {}
    for spec in variants(name):
        pairs = tuple(parse_spec(spec)[1].items())
        out.append(Variant(name, pairs, caps))
        for key, value in pairs:
            declared_values.setdefault(key, value)
    seen: dict[str, Variant] = {}
    for variant in out:
        combined = with_needed(variant, {o.name: o for o in options}, declared_values)
        if combined is not None:
            seen.setdefault(combined.spec, combined)
    return list(seen.values())


def with_needed(variant: Variant, options: dict, values: dict[str, str]) -> Variant | None:
    """``variant`` with every option that one of its options ``needs`` turned on (to
    ``values[needed]``, the first declared variant value), if it is off; ``None`` when a
    needed option has no value to turn it on with.

    >>> from nonolab.solvers import options_of
    >>> lcg = {o.name: o for o in options_of("lcg")}
    >>> with_needed(Variant("lcg", (("first_mode", "stable"),), frozenset()), lcg, {"modes": "5"}).spec
    'lcg:first_mode=stable,modes=5'
    """
    pairs = dict(variant.options)
    for key in list(pairs):
        option = options.get(key)
        needed = getattr(option, "needs", None)
        if needed is None or pairs[key] == _text(option.default):
            continue
        if needed in pairs and not _off(pairs[needed]):
            continue
        if needed not in values:
            return None
        pairs[needed] = values[needed]
    return dataclasses.replace(variant, options=tuple(pairs.items()))


def _off(value: str) -> bool:
    """An option's value as typed that turns it off: 0, false, none."""
    return value.strip().lower() in ("0", "0.0", "false", "off", "no", "none")


def every_variant() -> list[Variant]:
    """Every backend that loads, in the registry's order, each with all its variants."""
    from nonolab.errors import BackendUnavailable
    from nonolab.solvers import get, names

    out = []
    for name in names():
        try:
            get(name)
        except BackendUnavailable:
            continue
        out += of_backend(name)
    return out
