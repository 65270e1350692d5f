"""nonolab.generate.grids: seeded grids, clues from numpy arrays, puzzles."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nonolab.generate
import nonolab.generate.criteria
import nonolab.generate.grids
import nonolab.generate.image
import nonolab.generate.make
import nonolab.generate.output
import nonolab.generate.repair
import nonolab.generate.space
from nonolab.core.grid import Solution
from nonolab.core.violations import clues_of, violations
from nonolab.generate import (clues_from_array, puzzle_from_array, random_grid, smooth_grid,
                              taai_density)


@pytest.mark.parametrize("module", [nonolab.generate, nonolab.generate.grids, nonolab.generate.criteria,
                                    nonolab.generate.image, nonolab.generate.make, nonolab.generate.output,
                                    nonolab.generate.repair, nonolab.generate.space],
                         ids=lambda m: m.__name__)
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("make", [lambda s: random_grid(23, 17, 0.4, seed=s),
                                  lambda s: smooth_grid(23, 17, seed=s),
                                  lambda s: smooth_grid(23, 17, radius=3, seed=s, density=0.3)])
def test_same_seed_same_grid_other_seed_other_grid(make):
    a, b, c = make(11), make(11), make(12)
    assert a.dtype == np.uint8 and a.shape == (23, 17)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("height,width", [(1, 1), (1, 9), (7, 1), (20, 20), (33, 51), (200, 150)])
@pytest.mark.parametrize("density", [0.0, 0.1, 0.35, 0.5, 0.77, 1.0])
def test_smooth_grid_fills_the_asked_fraction(height, width, density):
    grid = smooth_grid(height, width, seed=5, density=density)
    cells = height * width
    assert set(np.unique(grid)) <= {0, 1}
    assert abs(grid.sum() / cells - density) <= 1 / cells


@pytest.mark.parametrize("density", [0.2, 0.5, 0.8])
def test_random_grid_density_is_close(density):
    grid = random_grid(300, 300, density, seed=2)
    # 90,000 Bernoulli cells: the standard deviation of the mean is at most 0.0017.
    assert abs(grid.mean() - density) < 0.01


def test_default_radius_and_radius_zero():
    assert np.array_equal(smooth_grid(60, 40, seed=4), smooth_grid(60, 40, radius=2, seed=4))
    raw = smooth_grid(30, 30, radius=0, seed=4)
    assert raw.sum() == 450


@pytest.mark.parametrize("colours", [1, 3])
def test_a_radius_beyond_the_grid_blurs_as_the_grid_s_side_does(colours):
    # A window wider than the grid covers the whole line: `generate --radius 99999999999999999999`
    # was an OverflowError traceback (numpy's C long), where it is the same picture as radius 40.
    wide = smooth_grid(30, 40, radius=40, seed=4, colours=colours)
    assert np.array_equal(smooth_grid(30, 40, radius=10**20, seed=4, colours=colours), wide)
    assert np.array_equal(smooth_grid(30, 40, radius=1000, seed=4, colours=colours), wide)


@pytest.mark.parametrize("bad", [dict(radius=-1), dict(density=1.5), dict(density=-0.1)])
def test_smooth_grid_rejects_bad_arguments(bad):
    with pytest.raises(ValueError):
        smooth_grid(10, 10, **bad)


def _reference_clues(array):
    rows = tuple(clues_of(r) for r in array.tolist())
    cols = tuple(clues_of(c) for c in array.T.tolist())
    return rows, cols


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 2 ** 32 - 1),
       st.sampled_from(["random", "zeros", "ones"]), st.sampled_from([np.uint8, np.int64, np.bool_]))
def test_clues_from_array_matches_clues_of(height, width, seed, kind, dtype):
    if kind == "random":
        array = np.random.default_rng(seed).integers(0, 2, (height, width))
    else:
        array = np.full((height, width), 1 if kind == "ones" else 0)
    array = array.astype(dtype)
    rows, cols = clues_from_array(array)
    assert (rows, cols) == _reference_clues(array.astype(np.uint8))
    assert all(type(b) is int for clue in rows + cols for b in clue)  # Puzzle rejects numpy ints


def test_clues_from_array_rejects_bad_input():
    with pytest.raises(ValueError):
        clues_from_array(np.array([[0, 2]]))
    with pytest.raises(ValueError):
        clues_from_array(np.zeros((0, 3)))
    with pytest.raises(ValueError):
        clues_from_array(np.zeros(5))


def _blocks_per_line(array):
    rows, cols = clues_from_array(array)
    return sum(map(len, rows + cols)) / (len(rows) + len(cols))


def test_the_blur_smooths():
    smooth = _blocks_per_line(smooth_grid(200, 200, seed=9))
    noise = _blocks_per_line(random_grid(200, 200, 0.5, seed=9))
    assert noise > 40  # about n/4 blocks per line for 50 % noise
    assert smooth < noise / 5


def test_large_grid_and_clues_complete():
    grid = smooth_grid(2000, 2000, seed=1)
    rows, cols = clues_from_array(grid)
    assert len(rows) == len(cols) == 2000
    assert sum(map(sum, rows)) == sum(map(sum, cols)) == 2000 * 2000 // 2


def test_puzzle_from_array_with_goal():
    array = smooth_grid(15, 12, seed=3)
    puzzle = puzzle_from_array(array, name="p", with_goal=True, seed=3)
    assert (puzzle.width, puzzle.height) == (12, 15)
    assert puzzle.name == "p" and puzzle.metadata == {"seed": "3"}
    assert puzzle.goal == Solution.from_rows(array.tolist())
    assert violations(puzzle, puzzle.goal) == []
    assert (puzzle.rows, puzzle.columns) == _reference_clues(array)


def test_puzzle_from_array_without_goal():
    assert puzzle_from_array(random_grid(5, 6, 0.5, seed=1)).goal is None


def test_taai_density_falls_linearly():
    values = [taai_density(i, 1000) for i in range(1000)]
    assert values[0] == 0.5 and values[-1] == pytest.approx(0.35)
    assert all(a > b for a, b in zip(values, values[1:]))
    assert values[500] - values[501] == pytest.approx(0.15 / 999)
    assert taai_density(0, 1) == 0.5
    with pytest.raises(ValueError):
        taai_density(5, 5)


def test_a_grid_with_no_picture_in_the_density_range_tries_no_candidate():
    """1x1: a picture is 0 % or 100 % filled, outside the default range 0.2-0.7: the loop
    knows before it draws that no candidate can pass (was: 100 candidates, all rejected)."""
    from nonolab.generate.make import Recipe, make_puzzles

    report = make_puzzles(1, Recipe(1, 1))
    assert (report.candidates, report.stopped, report.pictures, report.puzzles) == (0, "exhausted", 0, [])


def test_the_loop_stops_once_every_picture_of_a_small_grid_was_met():
    """3x1 in noise: six pictures lie in the density range (one or two of three cells), each a
    unique puzzle.  Asked for nine, the loop makes the six and stops at the candidate that
    met the last of them (a counter), not at the budget of 900."""
    from nonolab.generate.make import Recipe, _draw, candidate_seed, make_puzzles
    from nonolab.harness.filters import filled_fraction

    recipe = Recipe(3, 1, style="noise", unique=True)
    report = make_puzzles(9, recipe, seed=5)
    met, last = set(), None
    for i in range(900):     # the draws, followed independently: where the sixth picture first comes
        picture = _draw(recipe, candidate_seed(5, i))
        if 0.2 <= filled_fraction(picture) <= 0.7:
            met.add(picture.tobytes())
        if len(met) == 6:
            last = i + 1
            break
    assert report.stopped == "exhausted" and report.pictures == 6 and len(report.puzzles) == 6
    assert last is not None and report.candidates == last < 900
    assert len({g.puzzle.rows + g.puzzle.columns for g in report.puzzles}) == 6


def test_sizing_a_large_grid_s_picture_space_is_a_few_steps_not_a_binomial_of_millions_of_digits():
    """Audit 13: ``generate --size 1200x1200 --time-limit 1`` ran 10.6 s and ``--size 5000x5000``
    never ended, Ctrl-C included: the picture space was sized by walking every count of
    filled cells from 0 in Python (5,000,000 steps at 5000x5000) and then the exact
    ``comb(25000000, 4998751)``, one C call holding the interpreter for minutes.  The work is
    counted here (calls into C, each ``round``, ``comb``...), not timed; the answers stay exact
    (checked against the plain sum on every grid up to 8x8 in the audit's log)."""
    import sys

    from nonolab.generate.space import MAX_PICTURES, PictureSpace

    calls = [0]

    def count(frame, event, arg):
        if event == "c_call":
            calls[0] += 1
            if calls[0] > 10_000:
                raise RuntimeError("sizing the picture space took over 10,000 calls")

    sys.setprofile(count)
    try:
        spaces = [PictureSpace.of(side, side, colours, (0.2, 0.7))
                  for side in (1200, 5000) for colours in (1, 12)]
    finally:
        sys.setprofile(None)
    assert spaces == [None] * 4 and calls[0] < 10_000
    assert PictureSpace.of(3, 1, 2, (0.2, 0.7)).size == 18 and PictureSpace.of(4, 4, 1, (0.0, 0.2)).size == (
        1 + 16 + 120 + 560) <= MAX_PICTURES


def test_a_space_the_draws_do_not_cover_is_not_called_exhausted():
    """The smooth style draws one and the same picture of a 2x1 grid (of the two in range):
    the second is never met, so the loop may not claim it has tried them all."""
    from nonolab.generate.make import Recipe, make_puzzles

    report = make_puzzles(2, Recipe(2, 1), max_candidates=30)
    assert report.pictures == 2 and report.stopped == "max-candidates" and report.candidates == 30
    assert len(report.puzzles) == 1
