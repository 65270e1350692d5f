"""The wall's combinations: random sets of each backend's declared options at once
(:mod:`tests.wall.combinations`), held to the brute force as every variant is.

Each combination answers :data:`WALL` of the wall's puzzles of each kind (caps 1, 2, 3
and 64 by their seed) and :data:`BUSY` sparse 8x8 ones of each kind counted to 64, where a
learning engine learns enough for the options that act after some conflicts to act.
Seeded and bounded by work.
"""

from __future__ import annotations

import pytest

from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.solvers import Capability, capabilities, names
from tests.wall import puzzles
from tests.wall.combinations import combinations
from tests.wall.judge import REFUSED, WRONG, ask

SEED = 46
COMBINATIONS = 16
WALL, BUSY = 8, 8


def cases(i: int) -> list[tuple[puzzles.Case, int | None]]:
    """The puzzles combination ``i`` is asked, with the cap to count each to (``None``: by its seed)."""
    wall = [(case, None) for colour in (False, True) for case in puzzles.cases(SEED, WALL, colour, 7, i * WALL)]
    busy = [(case, 64) for colour in (False, True) for case in puzzles.busy_cases(SEED, BUSY, colour, 8, i * BUSY)]
    return wall + busy


def judged(backend: str, count: int = COMBINATIONS) -> tuple[list[str], dict[str, int], dict[str, str]]:
    """Every combination of ``backend`` on its puzzles: the disagreements (one line each),
    the answers per combination (not refused), and the combinations refused as built."""
    import dataclasses

    wrong: list[str] = []
    answered: dict[str, int] = {}
    refused: dict[str, str] = {}
    for i, variant in enumerate(combinations(backend, count, SEED)):
        try:
            solver = variant.build()
        except BackendUnavailable:   # (a library missing here: python-sat lists solvers it cannot build)
            continue
        except InvalidArgument as err:
            refused[variant.spec] = str(err)
            continue
        variant = dataclasses.replace(variant, capabilities=capabilities(solver))
        answered[variant.spec] = 0
        for case, cap in cases(i):
            if case.colours > 1 and Capability.COLOUR not in variant.capabilities:
                continue
            verdict = ask(variant, solver, case, cap)
            if verdict.outcome == WRONG:
                wrong.append(f"{variant.spec} on {case.seed} ({case.kind}, {case.height}x{case.width}, "
                             f"cap {cap}): {verdict.detail}")
            elif verdict.outcome != REFUSED:
                answered[variant.spec] += 1
    return wrong, answered, refused


@pytest.mark.parametrize("backend", names())
def test_every_combination_of_options_agrees_with_brute_force(backend):
    wrong, answered, refused = judged(backend)
    assert not wrong, "\n".join(wrong)
    # A refusal at build is one line naming the options (never a crash); most combinations build.
    assert all("\n" not in why and backend in why for why in refused.values()), refused
    if combinations(backend, COMBINATIONS, SEED):
        assert len(answered) >= len(refused), (answered, refused)
