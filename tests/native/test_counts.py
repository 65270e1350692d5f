"""Exact counting by the native solver against independent enumeration."""

from __future__ import annotations

import collections
import itertools
import random

import pytest

from nonolab.core import Puzzle
from nonolab.core.violations import clues_of, violations
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.native import NativeSolver
from reference import count_by_rows


def _clues(bits, h, w):
    rows = tuple(clues_of(bits[r * w:(r + 1) * w]) for r in range(h))
    cols = tuple(clues_of(bits[c::w]) for c in range(w))
    return rows, cols


def test_every_4x4_grid_count_equals_its_clue_class_size():
    classes = collections.Counter(_clues(bits, 4, 4) for bits in itertools.product((0, 1), repeat=16))
    assert sum(classes.values()) == 65536
    solver = NativeSolver()
    for (rows, cols), size in classes.items():
        result = solver.solve(Puzzle(rows=rows, columns=cols), Limits(max_solutions=None))
        assert result.complete and result.status is Status.SOLVED
        assert result.count == size, (rows, cols)


@pytest.mark.parametrize("probing", ["none", "contradiction", "full"])
@pytest.mark.parametrize("size", [(5, 5), (6, 6), (4, 7)])
def test_random_grids_count_equals_row_product_enumeration(probing, size):
    h, w = size
    rng = random.Random(hash((h, w, probing)) & 0xFFFF)
    solver = NativeSolver(probing=probing)
    for _ in range(25):
        density = rng.choice((0.2, 0.35, 0.5, 0.65, 0.8))
        bits = [int(rng.random() < density) for _ in range(h * w)]
        rows, cols = _clues(bits, h, w)
        result = solver.solve(Puzzle(rows=rows, columns=cols), Limits(max_solutions=None))
        assert result.complete
        assert result.count == count_by_rows(rows, cols)
        for sol in result.solutions:
            assert violations(Puzzle(rows=rows, columns=cols), sol) == []


def test_unsatisfiable_clues_are_a_contradiction():
    # Totals agree (4 = 4) but no picture has these clues.
    puzzle = Puzzle(rows=((), (1,), (3,)), columns=((), (1,), (3,)))
    result = NativeSolver().solve(puzzle, Limits(max_solutions=None))
    assert result.status is Status.UNSAT and result.complete and result.count == 0


def test_max_solutions_is_honoured_and_inexact():
    # An empty 5x5 with one block of 1 per row and column: 5! = 120 permutation matrices.
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    solver = NativeSolver()
    everything = solver.solve(puzzle, Limits(max_solutions=None))
    assert everything.complete and everything.count == 120
    some = solver.solve(puzzle, Limits(max_solutions=7))
    assert some.count == 7 and not some.complete and some.status is Status.SOLVED


def test_time_limit_gives_timeout_never_a_wrong_verdict():
    # 12x12 permutation matrices: 12! solutions, far more than a 0.2 s search finds.
    puzzle = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)
    result = NativeSolver().solve(puzzle, Limits(max_solutions=None, time_limit=0.2))
    assert result.status is Status.TIMEOUT
    assert not result.complete and not result.unique
    assert len(set(result.solutions)) == result.count


def test_node_limit_gives_timeout():
    puzzle = Puzzle(rows=((1,),) * 8, columns=((1,),) * 8)
    result = NativeSolver(node_limit=5).solve(puzzle, Limits(max_solutions=None))
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats.counters["nodes"] <= 6


def test_statistics_are_reported():
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)
    stats = NativeSolver().solve(puzzle, Limits(max_solutions=None)).stats
    c = stats.counters
    assert stats.backend == "native" and stats.wall_time > 0
    assert c["line_solves"] > 0 and c["nodes"] > 1 and c["max_depth"] >= 1 and c["probes"] > 0
    assert 0 <= c["cache_hit_rate"] <= 1


@pytest.mark.parametrize("cache_bytes", [0, 100, 64 << 20])
def test_cache_size_does_not_change_counts(cache_bytes):
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    result = NativeSolver(cache_bytes=cache_bytes).solve(puzzle, Limits(max_solutions=None))
    assert result.count == 120
    assert (result.stats.counters["cache_hits"] == 0) == (cache_bytes == 0)
