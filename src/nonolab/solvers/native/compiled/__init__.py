"""The native engine's extension: every kernel of the engine, compiled once, in C++.

``_native`` is built with the package (``setup.py``) from the C++ of the engine's rooms:
``search/`` (black and white: propagation, probing at depth 1 and 2, depth-first
search with exact counting, the step log), ``lines/`` (the line strategies), ``colour/``
(the colour engine), with the line solvers it shares with lcg in ``solvers/_cext/``; the
Python types and functions are in this folder (``module.cpp``, ``search_type.cpp``,
``colour_type.cpp``).  It loads in milliseconds and never compiles anything at run time:
a first ``grade`` or ``explain`` after an install is as fast as its hundredth.

>>> engine_module().fix_line(0, (2, 1), bytes([3, 3, 3, 3]))
(b'\\x02\\x02\\x01\\x02', b'\\x00\\x00\\x00\\x00')
"""

from __future__ import annotations

from typing import Any

from nonolab.errors import BackendUnavailable

__all__ = ["available", "engine_module"]


def engine_module() -> Any:
    """The compiled extension ``_native``.

    Raises:
        BackendUnavailable: it was not built (installing the package builds it; a source
            checkout needs ``python setup.py build_ext --inplace``).
    """
    try:
        import nonolab.solvers.native.compiled._native as _native
    except ImportError as exc:
        raise BackendUnavailable(f"the native engine is not built ({exc}); reinstall nonolab with a C++ compiler "
                                 "present: pip install .") from exc
    return _native


def available() -> bool:
    """Whether the extension is built."""
    try:
        engine_module()
    except BackendUnavailable:
        return False
    return True
