"""Every contract test runs once per registered backend, and per declared variant
(``native:line=overlap`` ...: see ``nonolab.solvers.specs``), that can run here, and
once for a toy backend that declares no capabilities at all.

Skips are decided by what a backend can do (here: whether it loads), never by its name.
"""

from __future__ import annotations

import pytest

from nonolab.errors import BackendUnavailable
from nonolab.solvers import build, specs
from nonolab.solvers.base import Limits, Budget, accept, finish, left


def _loadable(spec: str) -> str | None:
    try:
        build(spec)
    except BackendUnavailable as err:
        return str(err)
    return None


class FirstSolutionOnly:
    """A toy backend that declares no capabilities: the first solution the backtrack
    baseline finds, and no claim about the rest (never an exhausted search)."""

    name = "toy"
    CAPABILITIES: frozenset = frozenset()

    def solve(self, puzzle, limits=Limits(), given=None):
        watch = Budget.of(limits)
        accept(self, puzzle, given)
        first = build("backtrack").solve(puzzle, left(Limits(1, limits.time_limit, limits.cancel), watch))
        return finish(self.name, puzzle, limits, watch, first.solutions, False)


BACKENDS = [pytest.param(n, marks=pytest.mark.skipif(bool(_loadable(n)), reason=_loadable(n) or ""), id=n)
            for n in specs()]
TOY = pytest.param(FirstSolutionOnly, id="toy")


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture(params=[*BACKENDS, TOY])
def solver(request):
    return build(request.param) if isinstance(request.param, str) else request.param()
