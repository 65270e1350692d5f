"""Random colour puzzles: every colour backend's exact count equals brute force and the
others'; the colour line solver and the CNF encoding's unit propagation equal brute
force on every short line."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import InvalidPuzzle
from nonolab.solvers import Limits, get
from nonolab.solvers.colour import solve_line
from tests.colour import brute
from tests.colour.conftest import COLOUR_BACKENDS


@st.composite
def colour_puzzles(draw, max_side: int = 6):
    """A random colour picture's puzzle (2-4 colours); sometimes two row clues swapped,
    which keeps the colour totals and often leaves no solution or other ones."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    k = draw(st.integers(2, 4))
    density = draw(st.sampled_from([0.3, 0.5, 0.7]))
    rnd = random.Random(draw(st.integers(0, 2 ** 32)))
    cells = [[rnd.randint(1, k) if rnd.random() < density else 0 for _ in range(w)] for _ in range(h)]
    puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
    if h > 1 and draw(st.booleans()):
        i, j = rnd.sample(range(h), 2)
        rows, colours = list(puzzle.rows), list(puzzle.row_colours or ((1,) * len(r) for r in puzzle.rows))
        rows[i], rows[j], colours[i], colours[j] = rows[j], rows[i], colours[j], colours[i]
        try:
            puzzle = Puzzle(rows=tuple(rows), columns=puzzle.columns, row_colours=tuple(colours),
                            column_colours=puzzle.column_colours, palette=puzzle.palette)
        except InvalidPuzzle:
            assume(False)
    return puzzle


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles())
def test_every_colour_backend_counts_what_brute_force_finds(puzzle):
    truth = brute.solutions(puzzle)
    for name in COLOUR_BACKENDS:
        result = get(name).solve(puzzle, Limits(max_solutions=None))
        assert result.complete, name
        assert set(result.solutions) == truth, name


@settings(max_examples=30, deadline=None)
@given(puzzle=colour_puzzles(max_side=5))
def test_cpsat_one_hot_cells_count_the_same(puzzle):
    plain = get("cpsat").solve(puzzle, Limits(max_solutions=None))
    onehot = get("cpsat", colour_cells="onehot").solve(puzzle, Limits(max_solutions=None))
    assert set(plain.solutions) == set(onehot.solutions) and plain.complete and onehot.complete


def _every_clue(n: int, colours: int) -> dict[tuple, list[tuple[int, ...]]]:
    by_clue: dict[tuple, list[tuple[int, ...]]] = {}
    for line in itertools.product(range(colours + 1), repeat=n):
        by_clue.setdefault(brute.runs(line), []).append(line)
    return by_clue


@pytest.mark.parametrize("n", range(1, 9))
def test_the_colour_line_solver_equals_brute_force_on_every_line(n):
    # Every clue of every line of n <= 8 cells with 3 colours, under the open domain and
    # under random domains (each cell a random non-empty set of values).
    rnd = random.Random(n)
    full = (1 << 4) - 1
    for blocks, lines in _every_clue(n, 3).items():
        for trial in range(3):
            domains = [full] * n if trial == 0 else [rnd.randint(1, full) for _ in range(n)]
            fitting = [line for line in lines if all(domains[i] >> v & 1 for i, v in enumerate(line))]
            expected = [sum(1 << v for v in {line[i] for line in fitting}) for i in range(n)] if fitting else None
            assert solve_line(blocks, domains) == expected, (blocks, domains)


def test_cnf_unit_propagation_equals_the_colour_line_solver():
    pysat = pytest.importorskip("pysat.solvers")
    from nonolab.solvers.cnf.colour import encode_colour_line
    from nonolab.solvers.cnf.encode import VarPool

    rnd = random.Random(7)
    k1 = 4
    for n in range(1, 8):
        clues = list(_every_clue(n, 3))
        for blocks in rnd.sample(clues, min(len(clues), 60)):
            cells = [[i * k1 + v + 1 for v in range(k1)] for i in range(n)]
            pool = VarPool(first=n * k1 + 1)
            clauses = encode_colour_line(blocks, cells, pool, "line")
            for values in cells:
                clauses.append(list(values))
                clauses += [[-a, -b] for a, b in itertools.combinations(values, 2)]
            domains = [rnd.randint(1, 15) for _ in range(n)]
            # Every clause is guarded by a selector that is assumed: propagate() reports only
            # what it derives below the root level.
            selector = pool.top + 1
            assumptions = [selector] + [-cells[i][v] for i in range(n) for v in range(k1) if not domains[i] >> v & 1]
            with pysat.Solver(name="minisat22", bootstrap_with=[c + [-selector] for c in clauses]) as sat:
                ok, implied = sat.propagate(assumptions=assumptions)
            expected = solve_line(blocks, domains)
            if not ok:
                assert expected is None, (blocks, domains)
                continue
            false = {-lit for lit in list(implied) + assumptions if lit < 0}
            got = [sum(1 << v for v in range(k1) if cells[i][v] not in false) for i in range(n)]
            assert expected is not None and got == expected, (blocks, domains)


def test_the_native_colour_line_solver_equals_the_reference_line_solver():
    # The native engine's instance of the colour line DP (64-bit domains), on every clue
    # of 3 colours up to 7 cells against random domains, and domains reaching bit 63.
    from nonolab.solvers.native.compiled import engine_module

    fix = engine_module().fix_colour_line
    rnd = random.Random(3)
    for n in range(1, 8):
        clues = list(_every_clue(n, 3))
        for blocks in rnd.sample(clues, min(len(clues), 80)):
            domains = [rnd.randint(1, 15) for _ in range(n)]
            assert fix(blocks, domains) == solve_line(blocks, domains), (blocks, domains)
    assert fix(((2, 63),), [1 | 1 << 63] * 3) == [1 | 1 << 63, 1 << 63, 1 | 1 << 63]
    assert fix(((2, 63),), [1 | 1 << 62] * 3) is None
