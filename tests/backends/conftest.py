"""Every contract test runs once per registered backend, and per declared variant
(``native:line=overlap`` ...: see ``nonolab.solvers.specs``), that can run here.

Skips are decided by what a backend can do (here: whether it loads), never by its name.
"""

from __future__ import annotations

import pytest

from nonolab.errors import BackendUnavailable
from nonolab.solvers import get_spec, specs


def _loadable(spec: str) -> str | None:
    try:
        get_spec(spec)
    except BackendUnavailable as err:
        return str(err)
    return None


BACKENDS = [pytest.param(n, marks=pytest.mark.skipif(bool(_loadable(n)), reason=_loadable(n) or ""), id=n)
            for n in specs()]


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def solver(backend):
    return get_spec(backend)
