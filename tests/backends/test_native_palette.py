"""native on a palette larger than its colour engine holds (63 colours) whose clues use few: it
searches the colours the clues use (core.used_colours, shared with lcg) and answers in the
puzzle's own, as brute force and cnf do.

Before, native refused any palette of more than 63 colours (TooLarge), whatever the clues used.
"""

from __future__ import annotations

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import TooLarge
from nonolab.solvers import Limits, get
from nonolab.solvers.base import Status
from nonolab.solvers.given import Given
from tests.backends.wide_palette import answers, brute_with, picture as wide_picture
from tests.colour import brute

native = pytest.importorskip("nonolab.solvers.native.colour")
from nonolab.solvers.native.colour import MAX_COLOURS  # noqa: E402

WIDE = Palette.default_for(70)
USED = (5, 40, 66)          # three colours of the seventy, one of them beyond the engine's 63


def _picture(h: int, w: int, seed: int, values=USED) -> Puzzle:
    return wide_picture(h, w, seed, values, WIDE)


_all, _brute = answers, brute_with


@pytest.mark.parametrize("seed", range(4))
def test_a_seventy_colour_palette_using_three_matches_brute_force_and_cnf(seed):
    puzzle = _picture(2, 3, seed)
    assert puzzle.colours == 70 > MAX_COLOURS
    expected = _brute(puzzle, {})
    status, found = _all("native", puzzle)
    assert status is Status.SOLVED and found == expected
    assert _all("cnf", puzzle)[1] == expected


@pytest.mark.parametrize("seed", range(3))
def test_larger_pictures_agree_with_cnf(seed):
    puzzle = _picture(6, 6, seed + 10)
    assert _all("native", puzzle) == _all("cnf", puzzle)


def test_givens_narrow_as_brute_force_does_and_an_unused_colour_is_a_contradiction():
    puzzle = _picture(2, 3, seed=3)
    picture = next(iter(brute.solutions(puzzle)))
    unused = next(c for c in range(1, 71) if c not in USED)
    for (r, c) in ((0, 0), (1, 2)):
        for value in (picture.cells[r][c], 0, USED[2], unused):
            given = {(r, c): value}
            expected = _brute(puzzle, given)
            assert _all("native", puzzle, Given(cells=given)) == (
                Status.SOLVED if expected else Status.UNSAT, expected)


def test_the_steps_are_in_the_puzzles_colours():
    puzzle = _picture(4, 4, seed=7)
    result = get("native", record_steps=True).solve(puzzle, Limits(max_solutions=1))
    assert result.steps
    values = {v for step in result.steps for _, _, v in list(step.cells) + list(step.ruled_out)}
    assert values <= {0, *USED} and values & set(USED)


def test_clues_using_more_colours_than_the_engine_holds_are_still_refused():
    puzzle = Puzzle.from_solution(Solution.from_values([list(range(1, 65))]), palette=Palette.default_for(70))
    with pytest.raises(TooLarge, match="native: the clues use 64 colours, at most 63"):
        get("native").solve(puzzle)


def test_both_readers_of_the_step_log_give_the_puzzles_colours():
    """The plain reader (a small log) and the numpy one (a log past one piece) agree."""
    from nonolab.solvers.native.colour import colour_engine, held_colours
    from nonolab.solvers.native.colour.log import grouped, log_rows, steps_of

    puzzle, given = _picture(4, 4, seed=7), Given.of({})
    held = held_colours(puzzle, given)
    engine = colour_engine(puzzle, given, 2, True, held)
    engine.run(5.0, -1)
    rows = list(engine.steps())
    plain = steps_of(rows, 4, 4, held.back)
    assert plain and grouped([log_rows(rows)], 4, 4, held.back) == plain
    assert {v for step in plain for _, _, v in list(step.cells) + list(step.ruled_out)} <= {0, *USED}
