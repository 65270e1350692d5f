"""Random small puzzles: every line strategy finds the picture and the DP's exact count.

(tests/backends/test_properties.py runs the same checks over every backend and
variant; this is the quick, native-only version with clue sets that may have no
solution, and a cap small enough that ``enumerate`` gives up on some lines.)
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution, violations
from nonolab.core.violations import clues_of
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.modes import STRATEGIES

SOLVERS = {name: NativeSolver(line=name) for name in STRATEGIES}
SOLVERS["enumerate:cap=8"] = NativeSolver(line="enumerate", line_cap=8)


@st.composite
def pictures(draw):
    h = draw(st.integers(1, 7))
    w = draw(st.integers(1, 7))
    density = draw(st.sampled_from((0.3, 0.5, 0.7)))
    cells = draw(st.lists(st.floats(0, 1), min_size=h * w, max_size=h * w))
    return Solution(tuple(tuple(int(cells[r * w + c] < density) for c in range(w)) for r in range(h)))


def _answers(puzzle):
    answers = {}
    for name, solver in SOLVERS.items():
        result = solver.solve(puzzle, Limits(max_solutions=None))
        assert result.complete, name
        assert all(violations(puzzle, s) == [] for s in result.solutions)
        answers[name] = set(result.solutions)
    return answers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures())
def test_each_strategy_finds_the_picture_and_the_dps_solutions(picture):
    answers = _answers(Puzzle.from_solution(picture))
    assert picture in answers["dp"]
    for name, found in answers.items():
        assert found == answers["dp"], name


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures(), st.randoms(use_true_random=False))
def test_clue_sets_without_a_picture_agree_too(picture, rng):
    flat = list(picture.flat())
    rng.shuffle(flat)
    w = picture.width
    rows = tuple(clues_of(r) for r in picture)
    columns = tuple(clues_of(flat[r * w + c] for r in range(picture.height)) for c in range(w))
    answers = _answers(Puzzle(rows=rows, columns=columns))
    for name, found in answers.items():
        assert found == answers["dp"], name
