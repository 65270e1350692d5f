"""The batch entry of the native engine (compiled/batch.cpp) and check_many on it (issue 30, item 1)."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest

import nonolab
from nonolab.core import Puzzle
from nonolab.generate.grids import puzzle_from_array, random_grid
from nonolab.solvers import get
from nonolab.solvers.native import many
from nonolab.solvers.native.compiled.batch import EXHAUSTED, UNFINISHED, check_arrays, pack
from tests.reference import count_by_rows


def _random_clues(seed: int) -> Puzzle:
    """Rows from one random picture, columns from a shuffle of its cells: the totals agree
    (as Puzzle requires), and many of these clue sets have no solution."""
    from nonolab.core.violations import clues_of
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    first = rng.random((h, w)) < 0.5
    second = rng.permutation(first.ravel()).reshape(h, w) if seed % 3 else first
    return Puzzle(rows=tuple(clues_of(r.tolist()) for r in first), columns=tuple(clues_of(c.tolist()) for c in second.T))


@pytest.mark.parametrize("probing", ["none", "contradiction", "full"])
def test_counts_match_brute_force_on_random_clues(probing):
    puzzles = [_random_clues(seed) for seed in range(300)]
    answers = check_arrays(*pack(puzzles), max_solutions=3, probing=probing)
    assert (answers.state != UNFINISHED).all()
    for i, puzzle in enumerate(puzzles):
        brute = count_by_rows(puzzle.rows, puzzle.columns)
        assert int(answers.found[i]) == min(brute, 3), puzzle
        assert (answers.state[i] == EXHAUSTED) == (brute < 3)
        for cells in answers.solutions(i):
            solution = nonolab.Solution.from_states(cells.tobytes(), puzzle.width)
            assert nonolab.violations(puzzle, solution) == []
    assert {0, 1, 2, 3} <= set(answers.found.tolist())  # contradictions, unique and multiple ones were met


def test_levels_say_whether_the_line_solver_alone_decides():
    line_only = Puzzle(rows=((1,), ()), columns=((1,), ()))
    needs_probing = puzzle_from_array(random_grid(4, 4, 0.5, seed=3))
    answers = check_arrays(*pack([line_only]), levels=True)
    assert answers.level.tolist() == [0]
    two = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    assert check_arrays(*pack([two]), levels=True).level.tolist() == [-1]  # not unique: not graded
    level = int(check_arrays(*pack([needs_probing]), levels=True).level[0])
    grade = nonolab.harness.classify.grade(needs_probing, backend="native").grade.value
    assert ("line", "contradiction-probe", "full-probe")[level] == grade if level < 3 else grade in ("depth-2", "search")


@pytest.mark.parametrize("arrays, says", [
    (([2, 2], [1, 1, 1], [1, 1, 1]), "line lengths"),
    (([1, 1], [1, 1], [1]), "fewer blocks"),
    (([1, 1], [1, 1], [0, 1]), "block length"),
    (([1, 1], [0, 0], [1]), "more line lengths or blocks"),
    (([0, 1], [0], []), "cells"),
])
def test_malformed_arrays_are_refused(arrays, says):
    with pytest.raises(ValueError, match=says):
        check_arrays(*(np.array(a, dtype=np.int32) for a in arrays))


def test_check_many_gives_the_verdicts_of_check():
    puzzles = [puzzle_from_array(random_grid(n, n, 0.5, seed=s)) for n in (3, 5, 8, 12) for s in range(25)]
    puzzles.append(_random_clues(7))
    many_results = list(nonolab.check_many(iter(puzzles)))
    assert [r.verdict for r in many_results] == [nonolab.check(p, backend="native").verdict for p in puzzles]
    for result in many_results:
        if result.verdict.value == "multiple":
            first, second = result.witnesses
            assert first != second and result.differing


def test_an_unfinished_puzzle_goes_to_the_ordinary_solve():
    # No time at all in the batch entry: every puzzle is answered by solve, rightly.
    puzzles = [puzzle_from_array(random_grid(6, 6, 0.5, seed=s)) for s in range(10)]
    answers = check_arrays(*pack(puzzles), puzzle_seconds=0.0)
    assert (answers.state == UNFINISHED).all()
    assert [r.verdict for r in nonolab.check_many(puzzles, batch_slice=0.0)] == [
        nonolab.check(p, backend="native").verdict for p in puzzles]


def test_colour_puzzles_and_other_backends_are_answered_one_by_one():
    colour = nonolab.loads((__import__("pathlib").Path(__file__).resolve().parents[2]
                            / "puzzles" / "nonolab" / "heart.non").read_text())
    mixed = [colour, Puzzle(rows=((1,),), columns=((1,),))]
    assert [r.verdict.value for r in nonolab.check_many(mixed)] == ["unique", "unique"]
    assert [r.verdict.value for r in nonolab.check_many(mixed, backend="backtrack")] == ["unique", "unique"]


def test_a_cancel_answers_the_rest_interrupted():
    cancel = threading.Event()
    cancel.set()
    hard = nonolab.load(__import__("pathlib").Path(__file__).resolve().parents[2] / "puzzles" / "hakank" / "hard.non")
    results = list(nonolab.harness.uniqueness.check_many([hard] * 3, get("native"), cancel=cancel))
    assert [r.verdict.value for r in results] == ["interrupted"] * 3


def test_check_many_is_lazy():
    # An endless stream: the first answers come without reading it all.
    endless = (Puzzle(rows=((1,),), columns=((1,),)) for _ in itertools.count())
    first = list(itertools.islice(nonolab.check_many(endless), 3))
    assert [r.verdict.value for r in first] == ["unique"] * 3


def test_each_puzzle_of_a_call_is_answered_as_it_would_be_alone():
    """A puzzle's answer (count, state, level, solutions and their order) does not depend on
    the puzzles called with it: nothing a call could keep across its puzzles (a line cache
    shared by puzzles with one longest line, say, keyed by a clue's number within its own
    puzzle) may leak from one to the next.  Grids of several shapes with the same longest
    line, rows and columns of other lengths with the same clues."""
    from nonolab.core.violations import clues_of
    rng = np.random.default_rng(30)
    puzzles = []
    for _ in range(120):
        h, w = int(rng.integers(4, 11)), 10        # one longest line (10): one shared cache
        if rng.random() < 0.5:
            h, w = w, h
        picture = rng.random((h, w)) < rng.choice([0.3, 0.5, 0.7])
        puzzles.append(Puzzle(rows=tuple(clues_of(r.tolist()) for r in picture),
                              columns=tuple(clues_of(c.tolist()) for c in picture.T)))
    for probing in ("none", "full"):
        together = check_arrays(*pack(puzzles), max_solutions=2, probing=probing, levels=True, budget=3600.0)
        assert together.found.size == len(puzzles) and (together.state != UNFINISHED).all()
        for i, puzzle in enumerate(puzzles):
            alone = check_arrays(*pack([puzzle]), max_solutions=2, probing=probing, levels=True)
            assert (together.found[i], together.state[i], together.level[i]) == \
                (alone.found[0], alone.state[0], alone.level[0]), (probing, i)
            assert (together.solutions(i) == alone.solutions(0)).all(), (probing, i)
    assert {int(f) for f in together.found} == {1, 2}      # unique and multiple ones both
