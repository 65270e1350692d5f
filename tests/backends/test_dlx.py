"""The exact-cover backend: the encoding counted by hand, Algorithm X on its own, limits."""

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
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.dlx import _CLOCK_EVERY, DlxSolver, ExactCover, encode, exact_covers, segment_windows
from reference import count_by_rows, placements

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
ALL = Limits(max_solutions=None)
DIAGONAL = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))


def _kinds(cover: ExactCover) -> dict[str, int]:
    counts: dict[str, int] = {}
    for name in cover.names:
        counts[name[0]] = counts.get(name[0], 0) + 1
    return counts


# --- the encoding, counted by hand ------------------------------------------------

def test_sizes_of_the_2x2_diagonal_puzzle():
    cover = encode(DIAGONAL)
    # 4 cells x (H, V) + 4 segments of one block each; no line has two segments.
    assert cover.primary == 12 and cover.secondary == 0
    assert _kinds(cover) == {"H": 4, "V": 4, "seg": 4}
    # 4 white cells + 4 segments x 2 starts; each option covers 2 items.
    assert len(cover.options) == 12
    assert sorted(map(len, cover.options)) == [2] * 12
    assert cover.names[:cover.primary] == sorted(cover.names[:cover.primary], key=lambda n: n[0] != "seg")


def test_sizes_with_one_pair_item():
    # One row "#.#." : row clue 1 1, columns 1, -, 1, -.
    puzzle = Puzzle.from_solution(Solution.from_rows(["#.#."]))
    cover = encode(puzzle)
    # H, V of 4 cells; segments: 2 in the row, 1 in each of columns 0 and 2.
    assert cover.primary == 8 + 4
    # Row windows: first block starts 0..1, second 2..3; only (1, 2) touches.
    assert [n for n in cover.names if n[0] == "pair"] == [("pair", "row", 0, 0, 1, 2)]
    # 4 white cells + 2 + 2 row placements + 1 + 1 column placements.
    assert len(cover.options) == 10
    # white: 2 items each; row placements: segment + cell (+ the pair item twice);
    # column placements: segment + cell.
    assert sum(map(len, cover.options)) == 4 * 2 + 4 * 2 + 2 + 2 * 2


def test_pair_items_cover_touching_and_reversed_but_not_overlapping_starts():
    # Clue 1 1 in a row of 6: starts 0..3 and 2..5.  Conflicts: t <= s + 1.
    puzzle = Puzzle(rows=((1, 1),), columns=((1,), (), (1,), (), (), ()))
    pairs = {n[4:] for n in encode(puzzle).names if n[0] == "pair"}
    # (2, 2) and (3, 3) share a cell, so no item; (3, 2) is reversed and disjoint.
    assert pairs == {(1, 2), (2, 3), (3, 4), (3, 2)}


def _triangle(m: int) -> int:
    return (m + 1) * (m + 2) // 2 if m >= 0 else 0


def test_pair_item_count_matches_the_closed_form_of_the_model():
    # models/exact_cover.md section 4: per consecutive pair, sigma touching starts and
    # T(sigma - L_i - L_{i+1} - 1) reversed disjoint ones.
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 14)
        bits = [int(rng.random() < rng.choice((0.2, 0.4, 0.6))) for _ in range(n)]
        clue = clues_of(bits)
        puzzle = Puzzle(rows=(clue,), columns=tuple(((1,) if b else ()) for b in bits))
        sigma = n - (sum(clue) + len(clue) - 1)
        expected = sum(sigma + _triangle(sigma - clue[i] - clue[i + 1] - 1) for i in range(len(clue) - 1))
        cover = encode(puzzle)
        assert cover.secondary == expected, clue
        assert len(cover.options) == n + len(clue) * (sigma + 1) + sum(bits), clue


def test_empty_lines_leave_their_cells_only_the_white_option():
    puzzle = Puzzle(rows=((), (1,)), columns=((1,), ()))
    cover = encode(puzzle)
    for c in range(2):
        across, down = cover.names.index(("H", 0, c)), cover.names.index(("V", 0, c))
        assert [o for o in cover.options if across in o] == [(across, down)]
    result = DlxSolver().solve(puzzle, ALL)
    assert result.complete and result.solutions == (Solution.from_rows(["..", "#."]),)


@pytest.mark.parametrize("n", range(1, 9))
def test_segment_windows_are_exactly_the_starts_used_by_some_placement(n):
    for clue in {clues_of(bits) for bits in itertools.product((0, 1), repeat=n)}:
        used = [set() for _ in clue]
        for line in placements(clue, n):
            starts = [i for i in range(n) if line[i] and (i == 0 or not line[i - 1])]
            for k, s in enumerate(starts):
                used[k].add(s)
        assert [set(w) for w in segment_windows(clue, n)] == used, clue


def test_the_covers_of_a_single_line_are_its_placements():
    # A 1-row puzzle whose columns are free enough: every placement of the row is a cover
    # exactly when the column clues agree, so count covers per column choice.
    for clue, n in [((1, 1), 5), ((2, 1), 6), ((1, 1, 1), 7), ((3,), 4)]:
        for line in placements(clue, n):
            puzzle = Puzzle(rows=(clue,), columns=tuple(((1,) if v else ()) for v in line))
            result = DlxSolver().solve(puzzle, ALL)
            assert result.complete and [list(s.row_bytes(0)) for s in result.solutions] == [list(line)]


# --- Algorithm X on its own ----------------------------------------------------------

def _problem(primary, secondary, options):
    names = [(x,) for x in primary + secondary]
    cover = ExactCover(1, 1, primary=len(primary), names=names)
    for opt in options:
        cover.add_option([names.index((x,)) for x in opt])
    return cover


def test_knuths_example_has_one_cover():
    # TAOCP 7.2.2.1 (6): items a..g; the only exact cover is {a d f}, {b g}, {c e}.
    options = ["ce", "adg", "bcf", "adf", "bg", "deg"]
    cover = _problem(list("abcdefg"), [], options)
    assert [sorted(c) for c in exact_covers(cover)] == [[0, 3, 4]]


def test_secondary_items_are_covered_at_most_once():
    # Primary p, q; secondary x.  {p x} and {q x} exclude each other; {p}, {q} do not.
    cover = _problem(["p", "q"], ["x"], [["p", "x"], ["q", "x"], ["p"], ["q"]])
    assert sorted(sorted(c) for c in exact_covers(cover)) == [[0, 3], [1, 2], [2, 3]]


def test_covers_match_brute_force_on_random_problems():
    rng = random.Random(7)
    for _ in range(150):
        n_primary, n_secondary = rng.randint(1, 5), rng.randint(0, 3)
        items = list(range(n_primary + n_secondary))
        # Every option has a primary item, as Algorithm X requires (it never
        # chooses an option of secondary items only).
        options = [sorted({rng.randrange(n_primary), *rng.sample(items, rng.randint(0, min(2, len(items))))})
                   for _ in range(rng.randint(1, 9))]
        cover = ExactCover(1, 1, primary=n_primary, names=[(i,) for i in items])
        for opt in options:
            cover.add_option(opt)
        expected = set()
        for k in range(len(options) + 1):
            for chosen in itertools.combinations(range(len(options)), k):
                used = [i for c in chosen for i in options[c]]
                if len(used) == len(set(used)) and set(range(n_primary)) <= set(used):
                    expected.add(chosen)
        found = [tuple(sorted(c)) for c in exact_covers(cover)]
        assert len(found) == len(set(found)) and set(found) == expected, options


def test_stop_ends_the_search_with_limit_reached_and_counts_nodes():
    cover = encode(Puzzle(rows=((1,),) * 9, columns=((1,),) * 9))
    counters: dict[str, int] = {}
    calls = []

    def stop() -> bool:            # false while linking the options, true in the search
        calls.append(1)
        return len(calls) > 1

    with pytest.raises(LimitReached):
        list(exact_covers(cover, stop=stop, counters=counters))
    assert counters["nodes"] >= _CLOCK_EVERY and len(calls) == 2


def test_deep_searches_do_not_recurse():
    # One column of 1500 cells, alternately filled: over 1500 options chosen in a row.
    picture = Solution.from_rows(["#" if r % 2 == 0 else "." for r in range(1500)])
    result = DlxSolver().solve(Puzzle.from_solution(picture), ALL)
    assert result.complete and result.solutions == (picture,)


# --- the backend ---------------------------------------------------------------------

def test_diagonal_has_two_solutions_and_stats():
    result = get("dlx").solve(DIAGONAL, ALL)
    assert result.status is Status.SOLVED and result.complete and result.count == 2
    counters = result.stats.counters
    assert counters["primary_items"] == 12 and counters["options"] == 12 and counters["solutions"] == 2
    assert counters["nodes"] > 0 and result.stats.wall_time >= 0


def test_unsatisfiable_puzzle():
    result = DlxSolver().solve(load(PUZZLES / "nonolab" / "contradiction.non"), ALL)
    assert result.status is Status.UNSAT and result.complete and result.count == 0


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_max_solutions_is_honoured(limit):
    result = DlxSolver().solve(Puzzle(rows=((1,),) * 4, columns=((1,),) * 4), Limits(max_solutions=limit))
    assert result.count == limit and not result.complete and result.status is Status.SOLVED


def test_random_puzzles_count_like_brute_force():
    rng = random.Random(11)
    for _ in range(40):
        h, w = rng.randint(1, 5), rng.randint(1, 5)
        bits = [int(rng.random() < 0.5) for _ in range(h * w)]
        shuffled = bits[:]
        rng.shuffle(shuffled)
        rows = tuple(clues_of(bits[r * w:(r + 1) * w]) for r in range(h))
        cols = tuple(clues_of(shuffled[c::w]) for c in range(w))
        result = DlxSolver().solve(Puzzle(rows=rows, columns=cols), ALL)
        assert result.complete and result.count == count_by_rows(rows, cols)


def test_time_limit_on_a_25x25_puzzle_is_a_timeout():
    puzzle = puzzle_from_array(random_grid(25, 25, 0.5, seed=0))
    result = DlxSolver().solve(puzzle, Limits(max_solutions=2, time_limit=0.5))
    assert result.status is Status.TIMEOUT and not result.complete and not result.unique


def test_time_limit_while_encoding_is_a_timeout():
    # 80x80, every line 20 single blocks with a slack of 41: about 2.5 million pair items.
    puzzle = Puzzle(rows=((1,) * 20,) * 80, columns=((1,) * 20,) * 80)
    result = DlxSolver(max_states=None).solve(puzzle, Limits(time_limit=0.1))
    assert result.status is Status.TIMEOUT and result.stats.counters["nodes"] == 0   # stopped while encoding


def test_cli_solve_with_the_dlx_backend():
    result = CliRunner().invoke(cli, ["solve", "--check", "--backend", "dlx", str(PUZZLES / "nonolab" / "heart.non")],
                                catch_exceptions=False)
    assert result.exit_code == 0 and "unique" in result.stderr
    assert result.stdout.strip().splitlines() == str(load(PUZZLES / "nonolab" / "heart.non").goal).splitlines()
