"""The lcg backend on colour puzzles: its compiled colour line DP against brute force,
exact counts under every option, limits of its colour model.

The colour corpus and the shared colour property tests (tests/colour/) run on it too,
through its declared capability; these tests check what is its own.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import TooLarge
from nonolab.solvers import Limits
from nonolab.solvers.base import Status
from tests.colour import brute
from tests.colour.test_properties import colour_puzzles

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    ENGINE = lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)


def _brute_line(blocks, domains, colours):
    """Every value each cell takes in some line of ``blocks`` within ``domains``, by
    enumerating all (colours + 1)^n lines; None when no line fits."""
    seen = [0] * len(domains)
    fits = False
    allowed = [[v for v in range(colours + 1) if d >> v & 1] for d in domains]
    for line in itertools.product(*allowed):
        if brute.runs(line) == blocks:
            fits = True
            for i, v in enumerate(line):
                seen[i] |= 1 << v
    return seen if fits else None


@st.composite
def colour_lines(draw):
    """A line of up to 8 cells with up to 3 colours: the blocks of a random line (or,
    sometimes, random blocks that may fit no line) and random cell domains."""
    n = draw(st.integers(1, 8))
    colours = draw(st.integers(1, 3))
    if draw(st.booleans()):
        line = draw(st.lists(st.integers(0, colours), min_size=n, max_size=n))
        blocks = brute.runs(line)
    else:
        blocks = tuple(draw(st.lists(st.tuples(st.integers(1, 4), st.integers(1, colours)), max_size=4)))
    full = (1 << (colours + 1)) - 1
    domains = draw(st.lists(st.one_of(st.just(full), st.integers(0, full)), min_size=n, max_size=n))
    return blocks, domains, colours


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(colour_lines())
def test_the_colour_line_dp_equals_brute_force_on_lines_up_to_length_8(case):
    blocks, domains, colours = case
    got = ENGINE.solve_colour_line([n for n, _ in blocks], [c for _, c in blocks], domains)
    assert got == _brute_line(blocks, domains, colours), case


def test_the_colour_line_dp_refuses_bad_arguments():
    with pytest.raises(ValueError):
        ENGINE.solve_colour_line([1, 2], [1], [3, 3, 3])       # one colour per block
    with pytest.raises(ValueError):
        ENGINE.solve_colour_line([1], [32], [3])                # beyond 31 colours
    with pytest.raises((ValueError, OverflowError)):
        ENGINE.solve_colour_line([1], [1], [-1])                # a domain is a mask


VARIANTS = ({}, {"minimise": "basic"}, {"minimise": "none"}, {"explain": "positions"}, {"explain": "two-bands"},
            {"restarts": "glucose"}, {"phases": "saved"}, {"probing": False})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_exact_colour_counts_equal_brute_force_under_every_option(puzzle):
    truth = brute.solutions(puzzle)
    for options in VARIANTS:
        result = lcg.LcgSolver(**options).solve(puzzle, Limits(max_solutions=None))
        assert result.complete and set(result.solutions) == truth, options
        assert result.status is (Status.SOLVED if truth else Status.UNSAT)


def _sparse(size: int, colours: int, seed: int) -> Puzzle:
    """A sparse random colour picture's puzzle: many solutions, found by search with conflicts."""
    rnd = random.Random(seed)
    cells = [[rnd.randint(1, colours) if rnd.random() < 0.3 else 0 for _ in range(size)] for _ in range(size)]
    return Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(colours))


def test_colour_search_learns_from_explained_conflicts():
    puzzle = _sparse(12, 2, seed=3)
    result = lcg.LcgSolver(probing=False).solve(puzzle, Limits(max_solutions=200))
    counters = result.stats.counters
    assert result.count == 200
    assert counters["conflicts"] > 0 and counters["learned_clauses"] > 0 and counters["explanations"] > 0
    # An explanation names a few facts, far fewer than its line holds (12 cells, 3 values each).
    assert 0 < counters["mean_explanation"] < 12
    # The colour search takes its phases from conflict-free trails too (the shared engine).
    assert 0 < counters["target_updates"] <= counters["conflicts"]
    saved = lcg.LcgSolver(probing=False, phases="saved").solve(puzzle, Limits(max_solutions=200))
    assert saved.count == 200 and saved.stats.counters["target_updates"] == 0


def test_colour_time_limit_and_counts_keep_their_contract():
    puzzle = _sparse(30, 3, seed=1)
    result = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None, time_limit=0.3))
    assert result.status is Status.TIMEOUT and not result.complete
    for solution in result.solutions:
        assert Puzzle.from_solution(solution, palette=puzzle.palette) == puzzle


def test_more_colours_than_the_engine_holds_are_refused():
    cells = [list(range(1, 33))]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(32))
    with pytest.raises(TooLarge):
        lcg.LcgSolver().solve(puzzle)
    with pytest.raises(ValueError):
        ENGINE.Engine(2, 1, [[1, 1]], [[1], [1]], colours=1, row_colours=[[1, 1]], column_colours=[[1], [1]])
    with pytest.raises(ValueError):
        ENGINE.Engine(2, 1, [[1, 1]], [[1], [1]], colours=2, row_colours=[[1, 3]], column_colours=[[1], [3]])


def test_the_colour_benchmark_compares_lcg_on_both_kinds_of_picture(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))  # `benchmarks` is top-level
    from benchmarks import colour

    for density in ([], ["--density", "0.3"]):
        assert colour.main(["--sizes", "6", "--colours", "2", "--per-set", "2", "--backends", "lcg,cpsat",
                            "--time-limit", "20", *density]) == 0
        table = capsys.readouterr().out
        assert "lcg median s" in table and "disagreements: 0" in table
        assert ("6x6, 2 colours, density 0.3 | 2 |" in table) == bool(density)
    # The same seed gives the same pictures; independent cells differ from runs.
    assert colour.generated(8, 3, 2, 1, 0.3) == colour.generated(8, 3, 2, 1, 0.3) != colour.generated(8, 3, 2, 1)
