"""The CNF backend's session on colour puzzles: one encoding and one SAT solver for many
questions, as for black and white.  Before follow46 a colour puzzle got the generic
session (a fresh encoding and solver per question), and ``check --why`` of a 25x25 colour
puzzle with hundreds of solutions, which asks about 1,300 questions, ran for minutes."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("pysat.solvers")

from nonolab.core import Palette, Puzzle, Solution
from nonolab.harness.ambiguity import ambiguity_report
from nonolab.solvers.base import Given, Limits
from nonolab.solvers.cnf import CnfSolver
from nonolab.solvers.cnf import colour as colour_encoding

EVERY = Limits(max_solutions=None)


def _interchangeable() -> Puzzle:
    """6x6, two colours: one cell a line, colour 1 in rows and columns 0, 1, 4, 5 (any
    permutation of them: 24 ways), colour 2 in rows and columns 2, 3 (2 ways): 48 solutions."""
    cells = [[0] * 6 for _ in range(6)]
    for i, colour in enumerate((1, 1, 2, 2, 1, 1)):
        cells[i][i] = colour
    return Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(2))


def _all(puzzle: Puzzle) -> set[Solution]:
    return set(CnfSolver().solve(puzzle, EVERY).solutions)


@pytest.fixture
def encodings(monkeypatch):
    """How many times a colour puzzle is encoded."""
    calls = []
    real = colour_encoding.encode_colour

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(colour_encoding, "encode_colour", counted)
    return calls


def test_a_colour_session_answers_as_fresh_solves_do_from_one_encoding(encodings):
    puzzle = _interchangeable()
    questions = [{}, {(0, 0): 1}, {(0, 0): 0}, {(0, 4): 1, (1, 5): 1}, {}, {(2, 3): 2}, {(2, 2): 1}, {}]
    fresh = [CnfSolver().solve(puzzle, EVERY, Given.of(q)) for q in questions]
    assert len(encodings) == len(questions)
    del encodings[:]
    with CnfSolver().session(puzzle) as session:
        for fixed, expected in zip(questions, fresh):
            mine = session.solve(EVERY, Given.of(fixed))
            # Blocking clauses of one call never leak into the next: the counts repeat.
            assert (mine.status, mine.complete, set(mine.solutions)) == (
                expected.status, expected.complete, set(expected.solutions)), fixed
    assert [r.count for r in fresh[:3]] == [48, 12, 36]
    assert len(encodings) == 1          # the generic session encoded once per question


def test_a_colour_session_restricts_and_says_what_line_logic_decides():
    puzzle = _interchangeable()
    with CnfSolver().session(puzzle) as session:
        session.restrict({(0, 0): 1})
        assert session.solve(EVERY).count == 12
        implied = session.implied({(1, 1): 1})
        # Rows and columns 0 and 1 are settled by the two colour-1 cells: the rest of them background.
        assert implied[(1, 1)] == 1 and implied[(1, 4)] == implied[(4, 1)] == implied[(1, 5)] == 0
        assert (0, 0) not in implied and (1, 0) not in implied   # decided without the question: not listed
        assert session.implied({(1, 0): 1}) is None   # a conflict with the restriction
        # What propagation decides holds in every solution that extends the question.
        for fixed in ({(4, 4): 1}, {(2, 3): 2}, {(5, 4): 1, (4, 5): 1}):
            decided = session.implied(fixed)
            answers = session.solve(EVERY, Given.of(fixed)).solutions
            assert decided and answers
            assert all(s[r][c] == v for s in answers for (r, c), v in decided.items()), fixed
        with pytest.raises(ValueError, match="colour index"):
            session.solve(EVERY, Given.of({(0, 1): 3}))
        with pytest.raises(ValueError, match="outside"):
            session.restrict({(6, 0): 1})


def test_the_ambiguity_report_of_a_colour_puzzle_encodes_it_once(encodings):
    puzzle = _interchangeable()
    report = ambiguity_report(puzzle, "cnf", enumerate_up_to=4)   # every phase asks
    assert report.stats["questions"] > 20
    # One encoding for the session's questions, one for the fresh count that checks the givens.
    assert len(encodings) == 2, (len(encodings), report.stats)
    # The colour-1 cells (24 arrangements, over the cap of 4) and the colour-2 switch.
    assert [len(r.cells) for r in report.regions] == [16, 4] and report.givens_unique
    assert report.solution_count <= 48 and not report.count_exact
    every = _all(puzzle)
    free = {(r, c) for r, c in itertools.product(range(6), repeat=2) if len({s[r][c] for s in every}) > 1}
    assert set(report.free) == free
