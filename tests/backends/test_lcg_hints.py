"""lcg's phase hints: the weighted line counts behind them, and what they steer.

Belief propagation only chooses the value a decision tries first, so the counts and
solutions stay exact whatever it says; the contract and property suites run lcg with
the hints (its default) and without (the declared variants ``hint_rounds=0``,
``hint_conflicts=0``).
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

from nonolab.core import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers.base import Limits
from reference import n_dom, placements

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    ENGINE = lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)


def _weighted_shares(clue, known, prior):
    """Each cell's share of filled arrangements, by enumerating them (the reference)."""
    n = len(known)
    total, filled = 0.0, [0.0] * n
    for line in placements(tuple(clue), n):
        if any(k >= 0 and v != k for v, k in zip(line, known)):
            continue
        weight = math.prod(p if v else 1 - p for v, p, k in zip(line, prior, known) if k < 0)
        total += weight
        for i, v in enumerate(line):
            filled[i] += weight * v
    if total == 0:
        return None
    return [k if k >= 0 else f / total for f, k in zip(filled, known)]


def _random_line(rng, n):
    blocks, at = [], rng.randrange(0, 2)
    while at < n:
        length = rng.randint(1, max(1, (n - at) // 2))
        if at + length > n:
            break
        blocks.append(length)
        at += length + 1 + rng.randrange(0, 2)
    return blocks


@pytest.mark.parametrize("seed", range(200))
def test_the_weighted_line_count_equals_brute_force(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 10)
    clue = _random_line(rng, n)
    known = [rng.choice((-1, -1, -1, 0, 1)) for _ in range(n)]
    prior = [rng.uniform(0.05, 0.95) for _ in range(n)]
    got = ENGINE.line_shares(clue, known, prior)
    expected = _weighted_shares(clue, known, prior)
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def _shares_in_the_engines_order(clue, known, prior):
    """The engine's weighted line count done plainly (every state of the DP, no windows,
    no shortcuts), with the engine's floating-point operations in the engine's order, so
    its answer is the engine's to the last bit (Python's floats are IEEE doubles, and the
    extension is built without fused multiply-adds)."""
    n, k = len(known), len(clue)
    can_empty = [v != 1 for v in known] + [True]
    empty_w, fill = [], []
    for i in range(n):
        p = min(1.0 - 0.01, max(0.01, prior[i]))
        q = 1.0 - p
        ratio = min(p, q) / max(p, q)
        light = p < q
        if known[i] >= 0:
            empty_w.append(1.0 if can_empty[i] else 0.0)
            fill.append(1.0)
        else:
            empty_w.append(1.0 if light else ratio)
            fill.append(ratio if light else 1.0)
    empty_w.append(1.0)
    prefix = [1.0]
    for w in fill:
        prefix.append(prefix[-1] * w)

    def fits(j, p):
        end = p + clue[j]
        return end <= n and all(known[c] != 0 for c in range(p, end)) and can_empty[end]

    r = [[prefix[p + clue[j]] / prefix[p] if fits(j, p) else 0.0 for p in range(n + 1)] for j in range(k)]
    f = [[0.0] * (n + 2) for _ in range(k + 1)]
    f[0][0] = 1.0
    for i in range(1, n + 2):
        f[0][i] = f[0][i - 1] * empty_w[i - 1]
    for j in range(1, k + 1):
        for i in range(1, n + 2):
            v = f[j][i - 1] * empty_w[i - 1]
            p = i - 1 - clue[j - 1]
            if p >= 0:
                v = v + f[j - 1][p] * r[j - 1][p] * empty_w[i - 1]
            f[j][i] = v
    b = [[0.0] * (n + 2) for _ in range(k + 1)]
    b[k][n + 1] = 1.0
    for j in range(k, -1, -1):
        for i in range(n, -1, -1):
            v = b[j][i + 1] * empty_w[i]
            if j < k and i + clue[j] <= n:
                v = v + b[j + 1][i + clue[j] + 1] * r[j][i] * empty_w[i + clue[j]]
            b[j][i] = v
    total = b[0][0]
    if not total > 0.0:
        return None
    spread = [0.0] * (n + 1)
    for j in range(k):
        for p in range(n - clue[j] + 1):
            if f[j][p] == 0.0 or not fits(j, p):
                continue
            end = p + clue[j]
            share = f[j][p] * r[j][p] * empty_w[end] * b[j + 1][end + 1] / total
            spread[p] += share
            spread[end] -= share
    running, black = 0.0, []
    for i in range(n):
        running += spread[i]
        black.append(float(known[i]) if known[i] >= 0 else min(1.0, max(0.0, running)))
    return black


@pytest.mark.parametrize("seed", range(100))
def test_the_weighted_line_count_is_the_plain_count_to_the_last_bit(seed):
    # The phases follow the hints' signs, so a change to the count's arithmetic would
    # change the search: the engine's windows and shortcuts must leave every bit as the
    # plain count has it (lines of up to 30 cells, as after root probing: many known).
    rng = random.Random(5000 + seed)
    n = rng.randint(1, 30)
    picture = [rng.random() < 0.55 for _ in range(n)]
    clue = [len(run) for run in "".join("#" if v else "." for v in picture).split(".") if run]
    known = [int(v) if rng.random() < 0.4 else -1 for v in picture]
    prior = [rng.choice((0.0, 0.005, 0.5, 0.995, 1.0, rng.random())) for _ in range(n)]
    assert ENGINE.line_shares(clue, known, prior) == _shares_in_the_engines_order(clue, known, prior)
    unknown = [-1] * n   # and a line with nothing known, and a random clue that may not fit
    assert ENGINE.line_shares(clue, unknown, prior) == _shares_in_the_engines_order(clue, unknown, prior)
    other = _random_line(rng, n)
    assert ENGINE.line_shares(other, known, prior) == _shares_in_the_engines_order(other, known, prior)


def test_the_weighted_line_count_with_even_priors_counts_the_arrangements():
    # Clue 1 1 on 5 cells: 6 arrangements; cell 0 is filled in 3 of them.
    shares = ENGINE.line_shares([1, 1], [-1] * 5, [0.5] * 5)
    assert shares == pytest.approx([3 / 6, 2 / 6, 2 / 6, 2 / 6, 3 / 6])
    assert ENGINE.line_shares([2], [-1, 0, -1, -1], [0.5] * 4) == pytest.approx([0, 0, 1, 1])
    assert ENGINE.line_shares([3], [-1, 0, -1, -1], [0.5] * 4) is None
    assert ENGINE.line_shares([2, 2], [-1] * 4, [0.5] * 4) is None  # no room


def test_line_shares_refuses_what_it_cannot_take():
    with pytest.raises(ValueError):
        ENGINE.line_shares([1], [-1, 2], [0.5, 0.5])
    with pytest.raises(ValueError):
        ENGINE.line_shares([1], [-1], [0.5, 0.5])
    with pytest.raises(ValueError):
        ENGINE.line_shares([1], [-1] * 128, [0.5] * 128)


def _grid(puzzle_rows):
    rows = [tuple(len(run) for run in "".join(r).split(".") if run) for r in puzzle_rows]
    columns = [tuple(len(run) for run in "".join(c).split(".") if run) for c in zip(*puzzle_rows)]
    return Puzzle(rows=tuple(rows), columns=tuple(columns))


def test_the_hints_steer_the_search_and_keep_its_answers():
    rows, cols = n_dom(7)
    puzzle = Puzzle(rows=rows, columns=cols)
    hinted = lcg.LcgSolver(probing=False).solve(puzzle, Limits(max_solutions=None))
    plain = lcg.LcgSolver(probing=False, hint_rounds=0).solve(puzzle, Limits(max_solutions=None))
    assert hinted.unique and plain.unique and hinted.solutions == plain.solutions
    assert 0 < hinted.stats.counters["hint_rounds"] <= 50
    assert plain.stats.counters["hint_rounds"] == 0
    assert hinted.stats.counters["decisions"] != plain.stats.counters["decisions"]


def test_a_picture_the_hints_guess_is_found_without_a_conflict():
    # Two crossing bars: every line but two is empty or full, and the messages agree
    # on the rest; the first decisions land on the solution.
    picture = ["..#..", "..#..", "#####", "..#..", "..#.."]
    puzzle = _grid(picture)
    result = lcg.LcgSolver(probing=False).solve(puzzle, Limits(max_solutions=1))
    assert result.solution.to_text().splitlines() == picture
    assert result.stats.counters["conflicts"] == 0


@pytest.mark.parametrize("seed", range(20))
def test_counts_with_and_without_hints_agree_on_random_grids(seed):
    rng = random.Random(seed)
    picture = ["".join(rng.choice("#.") for _ in range(6)) for _ in range(6)]
    puzzle = _grid(picture)
    counts = {(rounds, forced, follow): lcg.LcgSolver(hint_rounds=rounds, hint_conflicts=forced,
                                                      follow_conflicts=follow)
              .solve(puzzle, Limits(max_solutions=None)).count
              for rounds, forced, follow in itertools.product((0, 1, 50), (0, 3, 10_000), (0, 2, 1_000))}
    assert len(set(counts.values())) == 1 and next(iter(counts.values())) >= 1


def test_deferred_hints_wait_for_their_conflicts_and_keep_the_answers():
    rows, cols = n_dom(7)
    puzzle = Puzzle(rows=rows, columns=cols)
    now = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    never = lcg.LcgSolver(hint_after=10**9).solve(puzzle, Limits(max_solutions=None))
    assert never.stats.counters["hint_rounds"] == 0 and now.stats.counters["hint_rounds"] > 0
    after = lcg.LcgSolver(hint_after=5).solve(puzzle, Limits(max_solutions=None))
    counters = after.stats.counters
    assert counters["conflicts"] >= 5 and counters["hint_rounds"] > 0 and counters["restarts"] >= 1
    assert now.unique and never.unique and after.unique and now.solutions == never.solutions == after.solutions
    assert counters["decisions"] != now.stats.counters["decisions"]


@pytest.mark.parametrize("seed", range(10))
def test_counts_with_deferred_hints_agree_on_random_grids(seed):
    rng = random.Random(1000 + seed)
    picture = ["".join(rng.choice("#.") for _ in range(7)) for _ in range(7)]
    puzzle = _grid(picture)
    results = [lcg.LcgSolver(hint_after=after).solve(puzzle, Limits(max_solutions=None)) for after in (0, 2, 10**6)]
    assert len({r.count for r in results}) == 1 and all(r.complete for r in results)
    assert len({frozenset(r.solutions) for r in results}) == 1


def test_bad_hint_options_are_refused():
    for bad in ({"hint_rounds": -1}, {"hint_conflicts": -2}, {"hint_rounds": True}, {"hint_rounds": 1.5},
                {"follow_conflicts": -1}, {"hint_after": -1}, {"hint_min_open": -1}, {"hint_min_open": 101}):
        with pytest.raises(InvalidArgument):
            lcg.LcgSolver(**bad)


def test_after_a_solution_the_search_follows_it_only_when_asked():
    # 6x6 permutation matrices (720 solutions): after each one, follow_conflicts makes the
    # decisions take its values; the count is the same either way, the search is not.
    puzzle = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)
    follow = lcg.LcgSolver(probing=False, follow_conflicts=1_000).solve(puzzle, Limits(max_solutions=None))
    plain = lcg.LcgSolver(probing=False).solve(puzzle, Limits(max_solutions=None))  # follow_conflicts=0
    assert follow.count == plain.count == 720 and follow.complete and plain.complete
    assert follow.stats.counters["decisions"] != plain.stats.counters["decisions"]


def _corner_switch():
    # 10x10: rows 0-6 full, row 7 empty, and a 2x2 switch in the bottom-left corner
    # (rows 8-9, columns 0-1: a diagonal either way): root probing leaves exactly those
    # four cells open, 4 % of the grid, and the puzzle has two solutions.
    picture = ["#" * 10] * 7 + ["." * 10, "#" + "." * 9, ".#" + "." * 8]
    return _grid(picture)


def test_the_hints_run_only_when_more_cells_than_hint_min_open_are_open_after_probing():
    puzzle = _corner_switch()
    results = {least: lcg.LcgSolver(hint_min_open=least).solve(puzzle, Limits(max_solutions=None))
               for least in (0, 3, 4, 100)}
    rounds = {least: r.stats.counters["hint_rounds"] for least, r in results.items()}
    assert rounds[0] > 0 and rounds[3] > 0          # 4 % open: more than 3 %
    assert rounds[4] == 0 and rounds[100] == 0      # not more than 4 %
    assert {r.count for r in results.values()} == {2} and all(r.complete for r in results.values())
    assert len({frozenset(r.solutions) for r in results.values()}) == 1


@pytest.mark.parametrize("seed", range(10))
def test_counts_with_hint_min_open_agree_on_random_grids(seed):
    rng = random.Random(2000 + seed)
    picture = ["".join(rng.choice("#.") for _ in range(7)) for _ in range(7)]
    puzzle = _grid(picture)
    results = [lcg.LcgSolver(hint_min_open=least).solve(puzzle, Limits(max_solutions=None)) for least in (0, 10, 50)]
    assert len({r.count for r in results}) == 1 and all(r.complete for r in results)
    assert len({frozenset(r.solutions) for r in results}) == 1
    again = lcg.LcgSolver(hint_min_open=10).solve(puzzle, Limits(max_solutions=None))
    assert again.stats.counters == results[1].stats.counters   # deterministic
