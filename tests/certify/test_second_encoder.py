"""The checker's second encoder (nonolab.certcheck.encoder): its models are the clue's lines,
and its clauses are the solvers' encoding, clause for clause (issue 29)."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.certcheck.encoder import line_clauses, puzzle_clauses
from nonolab.core import Puzzle, Solution
from nonolab.formats import load
from nonolab.solvers.cnf.encode import encode
from reference import placements

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def _clues(n: int):
    """Every clue that fits a line of n cells."""
    seen = set()
    for cells in product((0, 1), repeat=n):
        runs, run = [], 0
        for c in cells + (0,):
            if c:
                run += 1
            elif run:
                runs.append(run)
                run = 0
        seen.add(tuple(runs))
    return sorted(seen)


@pytest.mark.parametrize("n", range(1, 8))
def test_the_models_are_exactly_the_lines_of_the_clue(n):
    from pysat.solvers import Solver
    for clue in _clues(n):
        clauses, _ = line_clauses(clue, list(range(1, n + 1)), first=n + 1)
        found = set()
        with Solver(name="minisat22", bootstrap_with=clauses) as sat:
            while sat.solve():
                cells = tuple(int(lit > 0) for lit in sat.get_model()[:n])
                found.add(cells)
                sat.add_clause([-lit for lit in sat.get_model()[:n]])
        expected = {tuple(p) for p in placements(clue, n)}
        assert found == expected, (clue, n)


def _same(puzzle: Puzzle) -> None:
    enc = encode(puzzle)
    clauses, variables = puzzle_clauses(puzzle.rows, puzzle.columns)
    assert max(variables, puzzle.width * puzzle.height) == enc.num_vars
    assert Counter(tuple(sorted(c)) for c in clauses) == Counter(tuple(sorted(c)) for c in enc.clauses)


@pytest.mark.parametrize("path", sorted(PUZZLES.glob("*/*.non")), ids=lambda p: p.stem)
def test_it_derives_the_solvers_encoding_of_every_shipped_puzzle(path):
    _same(load(path))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_it_derives_the_solvers_encoding_of_random_pictures(h, w, data):
    cells = data.draw(st.lists(st.integers(0, 1), min_size=h * w, max_size=h * w))
    _same(Puzzle.from_solution(Solution(tuple(tuple(cells[r * w:(r + 1) * w]) for r in range(h)))))
