"""Random combinations of a backend's declared options, for the wall.

:mod:`tests.wall.variants` runs each option on its own beside the defaults (every
combination only for backends with few choice options): a defect that shows only when
two options meet (a shake in a rescue search, a seed beside vivification, a conflict
limit across an interleaved schedule) is out of its reach.  Here each variant sets a
random handful of a backend's declared options at once, read from the registry as
:mod:`~tests.wall.variants` reads them (nothing names a backend):

* a choice option: one of its other values; a bool option: the other value;
* an int or float option: its declared minimum, for an int the two values above it too
  (the least values that turn an option on: ``shake=1``, ``vivify=1``, ``rescue=1``, a
  conflict limit of 2...), and its declared variant values (``VARIANTS``).

An option that ``needs`` another is set with that one on (:func:`~tests.wall.variants.with_needed`).
A variant is ``bounded`` (it may stop) when one of its options is a declared work limit
(``spends``), as in :mod:`~tests.wall.variants`.  A
combination the backend refuses when it is built (lcg's ``interleave`` with ``rescue``)
is a typed refusal, counted by :func:`tests.wall.test_combinations` and never judged.
"""

from __future__ import annotations

import random

from tests.wall.variants import UNVARIED, Variant, _text, with_needed

#: How many options a combination sets at most (at least two).
MOST_SET = 5


def values(option, declared: tuple[str, ...] = ()) -> list[str]:
    """The values other than its default a combination may give ``option`` (as typed),
    and ``declared``: its values in the backend's ``VARIANTS``.

    >>> from nonolab.solvers import options_of
    >>> shake = next(o for o in options_of("lcg") if o.name == "shake")
    >>> values(shake, ("3",))
    ['1', '2', '3']
    """
    if option.kind == "bool":
        out = [_text(not option.default)]
    elif option.kind == "choice":
        out = [v for v in option.allowed() if v != _text(option.default)]
    else:
        out = []
        if option.minimum is not None:
            least = int(option.minimum) if option.kind == "int" else option.minimum
            steps = (least, least + 1, least + 2) if option.kind == "int" else (least,)
            out = [_text(v) for v in steps if option.maximum is None or v <= option.maximum]
        out += list(declared)
    return list(dict.fromkeys(v for v in out if not _is_default(option, v)))


def _is_default(option, value: str) -> bool:
    if option.default is None:
        return False
    if option.kind in ("int", "float"):
        return float(value) == float(option.default)
    return value == _text(option.default)


def combinations(name: str, count: int, seed: int) -> list[Variant]:
    """``count`` distinct random combinations of backend ``name``'s options (fewer when it
    has fewer), each setting two to :data:`MOST_SET` of them, the same for the same seed;
    each combination sets one option no earlier one set while there are such, so that every
    option is in one when ``count`` x :data:`MOST_SET` / 2 or so exceeds their number.

    >>> [v.spec for v in combinations("dlx", 3, 1)]
    []
    >>> len(combinations("lcg", 5, 1)), all(len(v.options) >= 2 for v in combinations("lcg", 5, 1))
    (5, True)
    """
    from nonolab.solvers import capabilities_of, options_of, parse_spec, variants

    options = {o.name: o for o in options_of(name) if o.name not in UNVARIED}
    declared: dict[str, list[str]] = {}
    for spec in variants(name):
        for key, value in parse_spec(spec)[1].items():
            declared.setdefault(key, []).append(value)
    pool = {key: values(option, tuple(declared.get(key, ()))) for key, option in options.items()}
    pool = {key: vals for key, vals in pool.items() if vals}
    if len(pool) < 2:
        return []
    first_values = {key: vals[0] for key, vals in declared.items()}
    caps = capabilities_of(name)
    rnd = random.Random(f"combinations-{name}-{seed}")
    out: dict[str, Variant] = {}
    for _ in range(count * 20):
        if len(out) >= count:
            break
        size = rnd.randint(2, min(MOST_SET, len(pool)))
        # Every option in some combination first: one not set yet, then the others at random.
        unset = sorted(set(pool) - {key for v in out.values() for key, _ in v.options})
        first = [rnd.choice(unset)] if unset else []
        keys = first + rnd.sample(sorted(set(pool) - set(first)), size - len(first))
        pairs = tuple((key, rnd.choice(pool[key])) for key in keys)
        bounded = any(options[k].spends is not None for k, _ in pairs)
        variant = with_needed(Variant(name, pairs, caps, bounded), options, first_values)
        if variant is not None:
            out.setdefault(variant.spec, variant)
    return list(out.values())
