"""Colour tests run on every backend that declares colour (decided by capability, never
by name), and check that every other backend refuses colour puzzles."""

from __future__ import annotations

import pytest

from nonolab.errors import BackendUnavailable
from nonolab.solvers import Capability, capabilities_of, get, names


def _loads(name: str) -> bool:
    try:
        get(name)
    except BackendUnavailable:
        return False
    return True


COLOUR_BACKENDS = [n for n in names() if Capability.COLOUR in capabilities_of(n) and _loads(n)]
OTHER_BACKENDS = [n for n in names() if Capability.COLOUR not in capabilities_of(n) and _loads(n)]


@pytest.fixture(params=COLOUR_BACKENDS)
def colour_backend(request):
    return request.param
