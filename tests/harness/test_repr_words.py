"""A notebook's repr is a surface: every public result type names its verdict with the
word :func:`nonolab.outcome_of` gives (the CLI's), never an internal status, and counts
its nouns in good English ("1 region", "2 regions")."""

from __future__ import annotations

import re

import pytest

import nonolab
from nonolab import Puzzle, Solution, outcome_of
from nonolab.solvers import Limits, get

UNIQUE = Puzzle.from_solution(Solution.from_rows(["#.", ".."]))      # one warning in its report
MULTIPLE = Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))    # one region, one given
CONTRADICTION = Puzzle(rows=((1, 1), (1, 1), ()), columns=((1,), (2,), (1,)))

#: What a user must not read where a verdict belongs: the statuses and agreements of the library.
NOT_WORDS = re.compile(r"\b(solved|unsat|AGREE|DISAGREE|INCONCLUSIVE|not-found)\b")
#: "1 regions", "1 warnings", "1 solutions", "1 backbone cells": a count of one with a plural noun.
ONE_PLURAL = re.compile(r"(?<![\d.])1 (?:[a-z]+ )?[a-z]+s\b")


def _answers(puzzle: Puzzle) -> list:
    native = get("native")
    return [native.solve(puzzle, Limits(2)), native.solve(puzzle, Limits(1)), nonolab.check(puzzle, "native"),
            nonolab.count(puzzle, "native"), nonolab.count(puzzle, "native", 1), nonolab.grade(puzzle, "native"),
            nonolab.grade(puzzle, "native", up_to=nonolab.Grade.LINE), nonolab.explain(puzzle, "native"),
            nonolab.report(puzzle, "native"), nonolab.ambiguity_report(puzzle, "native"),
            nonolab.crosscheck(puzzle, ["native", "lcg"]), nonolab.repair(puzzle, backend="native")]


@pytest.mark.parametrize("puzzle", [UNIQUE, MULTIPLE, CONTRADICTION], ids=["unique", "multiple", "contradiction"])
def test_every_result_repr_names_its_verdict_by_outcome_of(puzzle: Puzzle) -> None:
    for answer in _answers(puzzle):
        shown = repr(answer)
        outcome = outcome_of(answer)
        word = outcome.value if outcome is not None else "uniqueness not asked"
        assert shown.startswith(f"{type(answer).__name__}({word}"), shown
        assert not NOT_WORDS.search(shown), shown


def test_a_count_of_one_is_singular_in_every_repr() -> None:
    shown = [repr(answer) for puzzle in (UNIQUE, MULTIPLE, CONTRADICTION) for answer in _answers(puzzle)]
    ones = [s for s in shown if re.search(r"(?<![\d.])1 [a-z]", s)]
    assert len(ones) >= 5, shown      # the puzzles above do hold counts of one: the check can fail
    assert not [s for s in shown if ONE_PLURAL.search(s)], shown
    assert "1 region," in repr(nonolab.ambiguity_report(MULTIPLE, "native"))
    assert "1 warning" in repr(nonolab.report(UNIQUE, "native"))
    # the model's reprs too: a puzzle with one given cell, a step that sets one cell
    assert repr(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 0): 1})) == "Puzzle(2x2, 1 given)"
    step = nonolab.explain(MULTIPLE, "native").steps[-1]
    assert len(step.cells) == 1 and repr(step.cells) == "CellRun(1 cell)"


def test_counted_says_one_thing_and_many_things() -> None:
    from nonolab.core.words import counted
    assert [counted(n, "region") for n in (0, 1, 2)] == ["0 regions", "1 region", "2 regions"]
    assert counted(1, "backbone cell") == "1 backbone cell" and counted(3, "cell", "cells") == "3 cells"
