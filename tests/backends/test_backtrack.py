"""The row backtracking backend: the column check against brute force, the search, limits."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.errors import LimitReached
from nonolab.formats import load
from nonolab.generate import puzzle_from_array, random_grid
from nonolab.solvers import get
from nonolab.solvers.backtrack import BacktrackSolver, column_automaton, picture, row_fillings
from nonolab.solvers.base import Limits, Status
from reference import count_by_rows, placements

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
ALL = Limits(max_solutions=None)
DIAGONAL = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))


# --- the column check ------------------------------------------------------------------

def _passes(clue, height, prefix) -> bool:
    """Whether the backend's column check accepts these top cells, row by row."""
    step, floor = column_automaton(clue, height)
    state = 0
    for r, v in enumerate(prefix):
        state = step[state + v]
        if state < floor + 2 * r:
            return False
    return True


@pytest.mark.parametrize("height", range(1, 8))
def test_column_check_accepts_exactly_the_prefixes_that_can_be_completed(height):
    # The chunk-placement rule made exact: runs so far are a prefix of the clue (only the run
    # still open at the bottom may be shorter), and the rest still fits below.
    lines = list(itertools.product((0, 1), repeat=height))
    for clue in {clues_of(line) for line in lines}:
        full = placements(clue, height)
        for m in range(height + 1):
            for prefix in itertools.product((0, 1), repeat=m):
                completable = any(line[:m] == prefix for line in full)
                assert _passes(clue, height, prefix) == completable, (clue, prefix)


def test_column_automaton_of_the_empty_clue_takes_only_white():
    step, floor = column_automaton((), 3)
    assert step[0] == 0 and step[1] < floor


# --- the search ----------------------------------------------------------------------

def test_row_fillings_in_lexicographic_order():
    puzzle = Puzzle(rows=((1,),) * 3, columns=((1,),) * 3)
    found = list(row_fillings(puzzle))
    assert found == sorted(found) and len(found) == 6
    assert [str(picture(puzzle, f)) for f in found[:2]] == ["#..\n.#.\n..#", "#..\n..#\n.#."]


def test_empty_rows_are_white():
    puzzle = Puzzle(rows=((), (2,), ()), columns=((1,), (1,), ()))
    assert list(row_fillings(puzzle)) == [[(), (0,), ()]]


def test_the_search_backs_up_through_empty_rows():
    # Two solutions: "#." on top and ".#" at the bottom, or the mirror image.  The
    # second needs row 3 to fail and the search to back up through rows 2 and 1
    # (empty: one pseudo-block each) to move row 0's block.
    puzzle = Puzzle(rows=((1,), (), (), (1,)), columns=((1,), (1,)))
    counters: dict[str, int] = {}
    assert list(row_fillings(puzzle, counters=counters)) == [[(0,), (), (), (1,)], [(1,), (), (), (0,)]]
    assert counters["rows"] == 8


def test_stop_ends_the_search_with_limit_reached():
    counters: dict[str, int] = {}
    with pytest.raises(LimitReached):
        list(row_fillings(Puzzle(rows=((1,),) * 10, columns=((1,),) * 10), lambda: True, counters))
    assert counters["placements"] >= 512


def test_tall_puzzles_do_not_recurse():
    picture_ = Solution.from_rows(["#" if r % 3 else "." for r in range(3000)])
    result = BacktrackSolver().solve(Puzzle.from_solution(picture_), ALL)
    assert result.complete and result.solutions == (picture_,)


# --- the backend ---------------------------------------------------------------------

def test_diagonal_has_two_solutions_and_stats():
    result = get("backtrack").solve(DIAGONAL, ALL)
    assert result.status is Status.SOLVED and result.complete and result.count == 2
    counters = result.stats.counters
    assert counters["solutions"] == 2 and counters["placements"] > 0 and counters["rows"] >= 4


def test_unsatisfiable_puzzle():
    result = BacktrackSolver().solve(load(PUZZLES / "nonolab" / "contradiction.non"), ALL)
    assert result.status is Status.UNSAT and result.complete and result.count == 0


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_max_solutions_is_honoured(limit):
    result = BacktrackSolver().solve(Puzzle(rows=((1,),) * 4, columns=((1,),) * 4), Limits(max_solutions=limit))
    assert result.count == limit and not result.complete and result.status is Status.SOLVED


def test_random_puzzles_count_like_brute_force():
    rng = random.Random(13)
    for _ in range(60):
        h, w = rng.randint(1, 6), rng.randint(1, 5)
        bits = [int(rng.random() < rng.choice((0.3, 0.5, 0.7))) for _ in range(h * w)]
        shuffled = bits[:]
        rng.shuffle(shuffled)
        rows = tuple(clues_of(bits[r * w:(r + 1) * w]) for r in range(h))
        cols = tuple(clues_of(shuffled[c::w]) for c in range(w))
        result = BacktrackSolver().solve(Puzzle(rows=rows, columns=cols), ALL)
        assert result.complete and result.count == count_by_rows(rows, cols)


def test_time_limit_on_a_25x25_puzzle_is_a_timeout():
    puzzle = puzzle_from_array(random_grid(25, 25, 0.5, seed=0))
    result = BacktrackSolver().solve(puzzle, Limits(max_solutions=2, time_limit=0.5))
    assert result.status is Status.TIMEOUT and not result.complete and not result.unique
    assert result.stats.counters["placements"] > 0


def test_cli_solve_with_the_backtrack_backend():
    result = CliRunner().invoke(cli, ["solve", "--check", "-b", "backtrack", str(PUZZLES / "hakank" / "simple2.non")],
                                catch_exceptions=False)
    assert result.exit_code == 0 and "multiple" in result.stderr     # 2 solutions: not unique
    count = CliRunner().invoke(cli, ["count", "-b", "backtrack", str(PUZZLES / "nonolab" / "permutations-5.non"),
                                     "--limit", "200"], catch_exceptions=False)
    assert "120" in count.stdout
