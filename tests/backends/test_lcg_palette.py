"""lcg on a palette larger than its engine holds (31 colours) whose clues use few: it searches
the colours the clues use and answers in the puzzle's own, as brute force and cnf do.

Before, lcg refused any palette of more than 31 colours (TooLarge), whatever the clues used.
"""

from __future__ import annotations

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import TooLarge
from nonolab.solvers import get
from nonolab.solvers.base import Status
from nonolab.solvers.given import Given
from tests.backends.wide_palette import answers, brute_with, picture as wide_picture
from tests.colour import brute

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

from nonolab.solvers.lcg.palette import MAX_COLOURS, clue_colours, engine_colours  # noqa: E402

WIDE = Palette.default_for(40)
USED = (5, 17, 33)          # three colours of the forty, none of them the first ones


def _picture(h: int, w: int, seed: int, values=USED) -> Puzzle:
    return wide_picture(h, w, seed, values, WIDE)


_all, _brute = answers, brute_with


def test_the_palette_has_forty_colours_and_the_clues_three():
    puzzle = _picture(3, 3, seed=1)
    assert puzzle.colours == 40 > MAX_COLOURS and set(clue_colours(puzzle)) <= set(USED)


@pytest.mark.parametrize("seed", range(4))
def test_a_forty_colour_palette_using_three_matches_brute_force_and_cnf(seed):
    puzzle = _picture(2, 3, seed)
    expected = _brute(puzzle, {})
    status, found = _all("lcg", puzzle)
    assert status is Status.SOLVED and found == expected
    assert _all("cnf", puzzle)[1] == expected
    for solution in found:   # in the puzzle's own colours, not the engine's
        assert set(v for row in solution.cells for v in row) <= {0, *USED}


@pytest.mark.parametrize("seed", range(3))
def test_larger_pictures_agree_with_cnf(seed):
    puzzle = _picture(6, 6, seed + 10)
    assert _all("lcg", puzzle) == _all("cnf", puzzle)


def test_a_given_naming_an_unused_colour_is_a_contradiction():
    puzzle = _picture(2, 3, seed=2)
    unused = next(c for c in range(1, 41) if c not in USED)
    for cell in ((0, 0), (1, 2)):
        given = {cell: unused}
        assert _brute(puzzle, given) == set()
        assert _all("lcg", puzzle, Given(cells=given)) == (Status.UNSAT, set())
        assert _all("cnf", puzzle, Given(cells=given)) == (Status.UNSAT, set())
        # The same as the puzzle's own givens.
        own = puzzle.with_(givens=((*cell, unused),), goal=None)
        assert _all("lcg", own) == (Status.UNSAT, set())


def test_a_given_naming_a_used_colour_or_the_background_narrows_as_brute_force_does():
    puzzle = _picture(2, 3, seed=3)
    picture = next(iter(brute.solutions(puzzle)))
    for (r, c) in ((0, 0), (1, 1)):
        for value in (picture.cells[r][c], 0, USED[2]):
            given = {(r, c): value}
            expected = _brute(puzzle, given)
            assert _all("lcg", puzzle, Given(cells=given)) == (
                Status.SOLVED if expected else Status.UNSAT, expected)


@pytest.mark.parametrize("values", [(9,), ()], ids=["one colour used", "none used"])
def test_clues_using_one_colour_or_none_still_search_in_colour(values):
    puzzle = _picture(2, 3, seed=4, values=values) if values else Puzzle(
        rows=((), ()), columns=((), (), ()), row_colours=((), ()), column_colours=((), (), ()), palette=WIDE)
    assert puzzle.is_colour and engine_colours(puzzle, []).puzzle.is_colour
    assert _all("lcg", puzzle) == (Status.SOLVED, _brute(puzzle, {}))


def test_clues_using_more_colours_than_the_engine_holds_are_still_refused():
    cells = [list(range(1, 33))]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(40))
    with pytest.raises(TooLarge, match="the clues use 32 colours, at most 31"):
        get("lcg").solve(puzzle)
