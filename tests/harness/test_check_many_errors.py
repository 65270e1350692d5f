"""check_many's errors (issue 30): a library error on one puzzle of a stream is that puzzle's
answer with ``errors="yield"`` (the others still answered, in order), raised in its turn by default."""

from __future__ import annotations

import pytest

import nonolab.solvers.native.many as many
from nonolab.core import Puzzle
from nonolab.errors import NonolabError, TooLarge, WrongAnswer
from nonolab.harness.uniqueness import CheckResult, check, check_many
from nonolab.solvers import get

from fake_backends import BatchingFaultySolver, BatchingRaisingSolver

ONE = Puzzle(rows=((1,),), columns=((1,),))
TWO = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))


def _stream(bad_at: int, count: int = 10) -> list[Puzzle]:
    return [Puzzle(rows=(TWO if i % 2 else ONE).rows, columns=(TWO if i % 2 else ONE).columns,
                   name="refuse" if i == bad_at else f"p{i}") for i in range(count)]


def _words(answers) -> list[str]:
    return [a.verdict.value if isinstance(a, CheckResult) else type(a).__name__ for a in answers]


def test_a_wrong_solution_of_the_batch_entry_is_its_puzzle_s_error(monkeypatch):
    real = many.finish

    def wrong_for_the_fourth(name, puzzle, *args):
        if puzzle.name == "refuse":
            raise WrongAnswer("a wrong solution")
        return real(name, puzzle, *args)

    monkeypatch.setattr(many, "finish", wrong_for_the_fourth)
    puzzles = _stream(3)
    expected = [check(p, get("native")).verdict.value for p in puzzles]
    expected[3] = "WrongAnswer"
    assert _words(check_many(puzzles, get("native"), errors="yield")) == expected
    with pytest.raises(WrongAnswer):     # the default: raised in its turn, after the puzzles before it
        for seen, _ in enumerate(check_many(puzzles, get("native"))):
            assert seen < 3


@pytest.mark.parametrize("solver", [BatchingFaultySolver(), BatchingRaisingSolver()], ids=lambda s: s.name)
def test_one_puzzle_s_library_error_does_not_end_the_stream(solver):
    """Whether the backend keeps the error to its puzzle or raises it from solve_many (then
    the puzzles it had taken are answered one at a time), the error lands on its puzzle."""
    puzzles = _stream(6, 12)
    answers = list(check_many(iter(puzzles), solver, errors="yield"))
    assert _words(answers) == [("TooLarge" if i == 6 else "multiple" if i % 2 else "unique") for i in range(12)]
    assert isinstance(answers[6], TooLarge) and isinstance(answers[6], NonolabError)


def test_errors_takes_raise_or_yield_only():
    with pytest.raises(ValueError):
        check_many([ONE], get("native"), errors="skip")
