"""The differential wall, per CI run: every backend and every declared variant against
an independent brute force (see ``docs/differential.md``).

Seeded and bounded by work, never by time.  Each backend as it comes answers
:data:`PLAIN` black-and-white and :data:`PLAIN` colour puzzles (colour only if it
declares ``COLOUR``); each of its other variants :data:`PER_VARIANT` of each, a
different slice of the puzzle stream for each variant.  ``python -m
benchmarks.differential`` runs the same wall on 10,000+ of each.
"""

from __future__ import annotations

import pytest

from nonolab.solvers import Capability, capabilities_of, names
from tests.wall import puzzles
from tests.wall.judge import WRONG
from tests.wall.run import run, table
from tests.wall.variants import of_backend

SEED = 23
PLAIN = 400
PER_VARIANT = 40
BW_SIDE, COLOUR_SIDE = 7, 7


def cases_for(i: int, variant) -> list:
    """The puzzles variant ``i`` of a backend is asked (the plain backend: the most)."""
    if not variant.options:
        n, start = PLAIN, 0
    else:
        n, start = PER_VARIANT, PLAIN + i * PER_VARIANT
    return (puzzles.cases(SEED, n, False, BW_SIDE, start)
            + puzzles.cases(SEED, n, True, COLOUR_SIDE, start))


@pytest.mark.parametrize("backend", names())
def test_every_variant_agrees_with_brute_force(backend):
    variants = of_backend(backend)
    tally = run(variants, cases_for)
    wrong = [f"{v.spec} on {c.seed} ({c.kind}, {c.height}x{c.width}): {verdict.detail}"
             for c, v, verdict, _ in tally.wrong]
    assert not wrong, "\n".join(wrong) + "\n" + table(tally)
    for variant in variants:
        if variant.spec in tally.unavailable or variant.bounded or variant.minimum:
            continue
        # A variant that refused everything would have tested nothing.
        assert tally.answered(variant.spec) > 0, f"{variant.spec} answered no puzzle:\n{table(tally)}"
    if Capability.STEPS in capabilities_of(backend):
        assert sum(tally.step_logs.values()) > 0, f"no step log of {backend} was replayed"
