"""The step log: each deduction with its technique, replayable to the solution."""

from __future__ import annotations

import json
import random

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver, Technique
from nonolab.solvers import replay

LINE_SOLVABLE = Puzzle(rows=((2, 1), (4, 1), (2, 2, 1), (1, 2, 1), (4,), (1, 1, 2), (1, 2)),
                       columns=((1, 1, 1), (4, 1), (1, 1, 1), (6,), (4,), (1, 2), (3, 1)))
NEEDS_CONTRADICTION = Puzzle(rows=((1, 1), (2, 1), (5,), (1, 1), (2, 1), (2,), (3, 2)),
                             columns=((2, 1), (1, 1, 1), (1, 3, 1), (2, 1), (2, 2), (1, 1), (2,)))
NEEDS_MERGE = Puzzle(rows=((1, 2), (1, 1, 1), (1, 1), (1, 2), (2, 2), (3,)),
                     columns=((3, 1), (2,), (2,), (1, 1), (1, 3), (2, 2)))
AMBIGUOUS = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))


def _explain(puzzle, **options):
    return NativeSolver(record_steps=True, **options).solve(puzzle, Limits(max_solutions=1))


def _techniques(result):
    return {s.technique for s in result.steps}


@pytest.mark.parametrize("puzzle", [LINE_SOLVABLE, NEEDS_CONTRADICTION, NEEDS_MERGE, AMBIGUOUS])
@pytest.mark.parametrize("probing", ["none", "contradiction", "full"])
def test_replaying_the_log_gives_the_first_solution(puzzle, probing):
    result = _explain(puzzle, probing=probing)
    grid = None
    seen = set()
    for step, grid in replay(puzzle, result.steps):
        assert step.cells, "a step must set at least one cell"
        for r, c, _ in step.cells:
            assert (r, c) not in seen, "a cell is set twice on the path to the solution"
            seen.add((r, c))
    assert grid is not None and grid.to_solution() == result.solution


def test_line_solvable_puzzle_uses_line_logic_only():
    assert _techniques(_explain(LINE_SOLVABLE)) == {Technique.LINE}


def test_probing_puzzles_name_their_technique():
    assert Technique.CONTRADICTION_PROBE in _techniques(_explain(NEEDS_CONTRADICTION))
    assert Technique.GUESS not in _techniques(_explain(NEEDS_CONTRADICTION))
    assert Technique.BOTH_BRANCHES_AGREE in _techniques(_explain(NEEDS_MERGE))
    assert Technique.GUESS not in _techniques(_explain(NEEDS_MERGE))
    # Without probing the same puzzle needs a guess.
    assert Technique.GUESS in _techniques(_explain(NEEDS_CONTRADICTION, probing="none"))


def test_ambiguous_puzzle_needs_a_guess():
    steps = _explain(AMBIGUOUS).steps
    assert steps[0].technique is Technique.GUESS and steps[0].source[0] == "cell"


def test_steps_describe_and_serialise():
    result = _explain(NEEDS_MERGE)
    for step in result.steps:
        text = step.describe()
        assert step.technique.value in text and "\n" not in text
    data = json.loads(json.dumps([s.as_dict() for s in result.steps]))
    assert {d["technique"] for d in data} <= {t.value for t in Technique}
    assert all(isinstance(d["source"], list) for d in data)


def test_step_log_on_random_unique_puzzles():
    rng = random.Random(3)
    for _ in range(30):
        bits = [[int(rng.random() < 0.6) for _ in range(8)] for _ in range(8)]
        puzzle = Puzzle.from_solution(Solution.from_rows(bits))
        result = _explain(puzzle)
        *_, (_, grid) = replay(puzzle, result.steps)
        assert grid.to_solution() == result.solution


@pytest.mark.parametrize("puzzle", [LINE_SOLVABLE, NEEDS_CONTRADICTION, NEEDS_MERGE, AMBIGUOUS])
@pytest.mark.parametrize("line", ["chain-range", "overlap", "enumerate"])
def test_every_line_strategys_log_replays_to_the_solution(puzzle, line):
    # Rule-based strategies split each line step by technique; the log must still replay.
    result = _explain(puzzle, line=line, probing="none")
    grid = None
    for step, grid in replay(puzzle, result.steps):
        assert step.cells
    assert grid is not None and grid.to_solution() == result.solution
    labelled = {Technique.SIMPLE_OVERLAP, Technique.BLOCK_CAPPING, Technique.CLUE_EXHAUSTION}
    techniques = _techniques(result)
    if line == "enumerate":
        assert not techniques & labelled
    else:
        assert Technique.LINE not in techniques and techniques & labelled
