"""Building a backend from the command line: ONE path into the registry for every command.

A command's ``--backend`` is a spec (``native``, ``native:line=overlap``), its
``-O KEY=VALUE`` pairs and the shortcut flags (``--probing``, ``--line``) add to it; all
of it goes, as text, to :func:`nonolab.solvers.build`, where the backend's declarations
check the names and values.

>>> build("native", ("probing=none",)).probing                      # doctest: +SKIP
'none'
"""

from __future__ import annotations

from typing import Any

def backend_options(pairs: tuple[str, ...] = (), probing: str | None = None,
                    line: str | None = None) -> dict[str, Any]:
    """The options of ``-O`` pairs and the shortcut flags, as text; a flag and a pair that set
    one option to two values are refused (``--probing none -O probing=full``), not one of them
    taken in silence.

    >>> backend_options(("probing=full",), probing="none")
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: backend option probing given twice, differently: full, then none
    """
    from nonolab.solvers import parse_pairs

    flags = [f"{key}={value}" for key, value in (("probing", probing), ("line", line)) if value is not None]
    return parse_pairs((*pairs, *flags))


def build(spec: str, pairs: tuple[str, ...] = (), probing: str | None = None, line: str | None = None,
          **extra: Any):
    """The solver ``spec`` names, with the ``-O`` pairs, the flags and ``extra`` (program-set options)."""
    from nonolab import solvers

    return solvers.build(spec, **{**backend_options(pairs, probing, line), **extra})


def build_recording(spec: str, pairs: tuple[str, ...] = (), probing: str | None = None,
                    line: str | None = None, **extra: Any):
    """As :func:`build`, for a backend that must record its steps (``explain``).

    The spec and options are checked first, so that their own errors are reported
    as such; then a backend that does not declare step logs is a one-line InvalidArgument.
    """
    from nonolab.errors import InvalidArgument
    from nonolab.solvers import Capability, capabilities_of, names

    solver = build(spec, pairs, probing, line, **extra)
    if Capability.STEPS not in capabilities_of(solver.name):
        able = [name for name in names() if Capability.STEPS in capabilities_of(name)]
        raise InvalidArgument(f"backend {spec!r} cannot record its steps; explain needs one that can "
                              f"({', '.join(able)})")
    return build(spec, pairs, probing, line, record_steps=True, **extra)



def spec_with_options(spec: str, pairs: tuple[str, ...] = ()) -> str:
    """``spec`` with the ``-O`` pairs added to its options, as one spec string.

    For commands that hand a backend to other processes or libraries by name (batch
    workers, the generator): the spec travels, and is built where it runs.

    >>> spec_with_options("native", ("probing=none",))
    'native:probing=none'
    >>> spec_with_options("cnf:solver=glucose4", ("x=1",))
    'cnf:solver=glucose4,x=1'
    """
    extra = backend_options(pairs)   # text as typed: the backend's declarations read it where it runs
    if not extra:
        return spec
    joined = ",".join(f"{key}={value}" for key, value in extra.items())
    return f"{spec},{joined}" if ":" in spec else f"{spec}:{joined}"
