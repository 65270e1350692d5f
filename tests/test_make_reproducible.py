"""The generator's repairs do not depend on which engine answers, nor on timing.

A judge whose count finds a different pair of solutions on each call (``auto`` racing
engines does, with timing) must still give the same repairs and the same puzzles for the
same seed: the pair a repair aims between comes from a backend that declares
``Capability.REPRODUCIBLE`` (see nonolab.generate.criteria.repair_witness).
"""

from __future__ import annotations

import numpy as np
import pytest

import fake_backends
from nonolab.core import Puzzle
from nonolab.generate import Recipe, make_puzzles, undecided_cells
from nonolab.generate.criteria import repair_witness
from nonolab.generate.grids import puzzle_from_array, random_grid
from nonolab.solvers import _REGISTRY, backends_with, build
from nonolab.solvers.base import Capability, capabilities
from reference import EMPTY, FILLED, brute_line


@pytest.fixture
def rotating(monkeypatch):
    monkeypatch.setitem(_REGISTRY, "rotating", ("fake_backends", "RotatingPairSolver", None, "solver"))
    repair_witness.cache_clear()
    yield "rotating"
    repair_witness.cache_clear()


def _key(report):
    return [(g.puzzle.rows, g.puzzle.columns, g.puzzle.goal, g.seed, g.repairs, g.candidates) for g in report.puzzles]


def test_the_stand_in_judge_finds_other_witnesses_on_other_calls(rotating):
    puzzle = puzzle_from_array(np.eye(4, dtype=np.uint8))  # clues 1 everywhere: 24 solutions
    solver = build(rotating)
    pairs = {solver.solve(puzzle).solutions for _ in range(20)}
    assert len(pairs) > 1 and Capability.REPRODUCIBLE not in capabilities(solver)


def test_same_seed_same_repairs_whatever_pair_the_judge_finds(rotating):
    # Sparse noise: ambiguous puzzles with many solutions, so that the pairs differ (before
    # the witness, three runs gave 44, 45 and 51 repairs and three sets of puzzles).
    recipe = Recipe(10, 10, density=0.25, style="noise", unique=True, repair=True, backend=rotating,
                    candidate_time_limit=None)
    runs = []
    for _ in range(3):
        calls = fake_backends.RotatingPairSolver.calls
        runs.append(make_puzzles(3, recipe, seed=1))
        assert fake_backends.RotatingPairSolver.calls > calls
    assert runs[0].repairs > 10
    for again in runs[1:]:
        assert _key(again) == _key(runs[0])
        assert (again.rejected, again.repairs, again.candidates) == (runs[0].rejected, runs[0].repairs,
                                                                      runs[0].candidates)


def test_the_repairs_of_a_racing_judge_are_those_of_the_reproducible_witness():
    # auto's two solutions depend on which engine wins; its repairs are lcg's.
    recipe = Recipe(10, 9, style="noise", unique=True, repair=True, candidate_time_limit=None)
    witness = repair_witness("auto")
    assert witness is not None and Capability.REPRODUCIBLE in capabilities(build(witness))
    assert _key(make_puzzles(3, recipe, seed=5)) == _key(make_puzzles(3, Recipe(
        10, 9, style="noise", unique=True, repair=True, candidate_time_limit=None, backend=witness), seed=5))


def test_the_witness_is_the_judge_when_it_is_reproducible_and_colour_asks_for_colour():
    for name in backends_with(Capability.REPRODUCIBLE):
        assert repair_witness(name) == name
    colour = repair_witness("native", colour=True)
    assert colour is None or {Capability.REPRODUCIBLE, Capability.COLOUR} <= capabilities(build(colour))


def _line_fixpoint(puzzle: Puzzle) -> list[tuple[int, int]]:
    """The cells that propagating every line by brute force, to a fixpoint, leaves open."""
    h, w = puzzle.height, puzzle.width
    grid = [[EMPTY | FILLED] * w for _ in range(h)]
    changed = True
    while changed:
        changed = False
        for r in range(h):
            got = list(brute_line(puzzle.rows[r], bytes(grid[r])))
            changed |= got != grid[r]
            grid[r] = got
        for c in range(w):
            got = list(brute_line(puzzle.columns[c], bytes(grid[r][c] for r in range(h))))
            changed |= got != [grid[r][c] for r in range(h)]
            for r in range(h):
                grid[r][c] = got[r]
    return [(r, c) for r in range(h) for c in range(w) if grid[r][c] == EMPTY | FILLED]


@pytest.mark.parametrize("seed", range(6))
def test_the_fallback_region_depends_on_the_clues_alone(seed):
    # Without a reproducible backend a repair aims at the cells line logic leaves open:
    # the fixpoint of line propagation, whatever order the engine solves lines in.
    puzzle = puzzle_from_array(random_grid(9, 8, 0.5, seed=seed))
    assert undecided_cells(puzzle) == _line_fixpoint(puzzle)


def test_without_a_reproducible_backend_the_repairs_stay_reproducible(rotating, monkeypatch):
    import nonolab.generate.make as make
    monkeypatch.setattr(make, "repair_witness", lambda backend, colour=False: None)
    recipe = Recipe(10, 10, density=0.25, style="noise", unique=True, repair=True, backend=rotating,
                    candidate_time_limit=None)
    first, again = make_puzzles(3, recipe, seed=1), make_puzzles(3, recipe, seed=1)
    assert first.repairs > 10 and _key(first) == _key(again)
