"""The CNF backend's encoding: unit propagation on a line's regular encoding is the complete line
solver, the automaton's states and size formula, and the encoding's determinism."""

from __future__ import annotations

import itertools
import random

import pytest

pysat_solvers = pytest.importorskip("pysat.solvers")

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.solvers.base import Limits
from nonolab.solvers.cnf import CnfSolver, encode, encode_line, line_size, to_dimacs
from nonolab.solvers.cnf.encode import Line, VarPool
from nonolab.solvers.native.lines import fix_line
from reference import placements

EMPTY, FILLED, UNKNOWN = 1, 2, 3


def _flat(families):
    return [clause for family in families.values() for clause in family]


def _all_clues(n):
    """Every clue that fits a line of n cells, the empty one included."""
    return sorted({clues_of(bits) for bits in itertools.product((0, 1), repeat=n)})


# --- unit propagation equals the complete line solver --------------------------------


def _random_case(rng):
    n = rng.randint(1, 30)
    density = rng.choice((0.2, 0.4, 0.5, 0.6, 0.8))
    bits = [int(rng.random() < density) for _ in range(n)]
    clue = clues_of(bits)
    if rng.random() < 0.15:  # a clue from another line: often contradicts what is revealed
        clue = clues_of([int(rng.random() < density) for _ in range(n)])
    reveal = rng.uniform(0.0, 0.5)
    cells = [(FILLED if b else EMPTY) if rng.random() < reveal else UNKNOWN for b in bits]
    for _ in range(rng.choice((0, 0, 0, 1, 2))):  # possibly wrong cells
        cells[rng.randrange(n)] = rng.choice((EMPTY, FILLED))
    return clue, bytes(cells)


def _propagate_line(sat_name, clue, cells):
    """What unit propagation derives from the known cells: (ok, state mask per cell)."""
    n = len(cells)
    guard = n + 1
    pool = VarPool(first=n + 2)
    # pysat's propagate() hides literals implied at decision level 0, so every clause
    # gets a guard literal that is assumed first: every implication then shows.
    clauses = [clause + [-guard] for clause in _flat(encode_line(clue, range(1, n + 1), pool))]
    known = [i + 1 if c == FILLED else -(i + 1) for i, c in enumerate(cells) if c != UNKNOWN]
    with pysat_solvers.Solver(name=sat_name, bootstrap_with=clauses) as sat:
        ok, implied = sat.propagate(assumptions=[guard] + known)
    implied = set(implied)
    return ok, bytes(FILLED if v in implied else EMPTY if -v in implied else UNKNOWN
                     for v in range(1, n + 1))


@pytest.mark.parametrize("sat_name", ["minisat22", "glucose4"])
def test_unit_propagation_fixes_exactly_what_the_line_solver_fixes(sat_name):
    rng = random.Random(20240 + len(sat_name))
    contradictions = forced = 0
    for _ in range(3000):
        clue, cells = _random_case(rng)
        expected = fix_line(clue, cells)
        ok, got = _propagate_line(sat_name, clue, cells)
        if expected is None:
            contradictions += 1
            assert not ok, (clue, list(cells))
        else:
            assert ok, (clue, list(cells))
            assert got == expected, (clue, list(cells), list(got), list(expected))
            forced += sum(1 for a, b in zip(cells, expected) if a != b)
    # the sample must exercise both outcomes, or the test proves little
    assert contradictions >= 150 and forced >= 5000, (contradictions, forced)


def test_unit_propagation_on_every_short_line_and_partial_line():
    for n in range(1, 6):
        for clue in _all_clues(n):
            for cells in itertools.product((EMPTY, FILLED, UNKNOWN), repeat=n):
                cells = bytes(cells)
                expected = fix_line(clue, cells)
                ok, got = _propagate_line("minisat22", clue, cells)
                assert ok == (expected is not None), (clue, list(cells))
                if ok:
                    assert got == expected, (clue, list(cells))


# --- the automaton and the size formula ------------------------------------------------


def _bfs_states(line):
    """Forward-reachable AND co-reachable states per step, by plain search on the DFA."""
    def step(s, v):
        if s < line.final and line.pattern[s] == v:
            return s + 1
        return s if v == 0 and s in line.free else None
    n = line.n
    fwd = [{0}]
    for _ in range(n):
        fwd.append({t for s in fwd[-1] for v in (0, 1) if (t := step(s, v)) is not None})
    bwd = [set() for _ in range(n)] + [{line.final}]
    for i in range(n - 1, -1, -1):
        bwd[i] = {s for s in range(line.final + 1) for v in (0, 1) if step(s, v) in bwd[i + 1]}
    return [fwd[i] & bwd[i] for i in range(n + 1)]


def test_reachable_states_are_the_closed_form_ranges():
    for n in range(1, 11):
        for clue in _all_clues(n):
            line = Line("x", clue, tuple(range(1, n + 1)))
            assert [set(line.states(i)) for i in range(n + 1)] == _bfs_states(line), clue


def test_line_models_are_exactly_the_placements():
    for n in range(1, 9):
        for clue in _all_clues(n):
            clauses = _flat(encode_line(clue, range(1, n + 1), VarPool(first=n + 1)))
            models = set()
            with pysat_solvers.Solver(name="minisat22", bootstrap_with=clauses) as sat:
                while sat.solve():
                    cells = sat.get_model()[:n]
                    models.add(tuple(int(lit > 0) for lit in cells))
                    sat.add_clause([-lit for lit in cells])
            assert models == set(placements(clue, n)), clue


def test_size_formula_matches_encode_line():
    rng = random.Random(7)
    cases = [(clue, n) for n in range(1, 13) for clue in _all_clues(n)]
    for _ in range(300):
        n = rng.randint(1, 120)
        cases.append((clues_of([int(rng.random() < rng.random()) for _ in range(n)]), n))
    for clue, n in cases:
        pool = VarPool(first=n + 1)
        clauses = _flat(encode_line(clue, range(1, n + 1), pool))
        used = {abs(lit) for clause in clauses for lit in clause if abs(lit) > n}
        assert len(used) == pool.top - n  # every variable handed out is used
        assert line_size(clue, n) == (pool.top - n, len(clauses)), (clue, n)


def test_size_formula_by_hand():
    # clue (2, 1) on 6 cells: M = 4, slack 2, k = 2 -> states 15, transitions 4*3 + 2*3 = 18
    assert line_size((2, 1), 6) == (15 + 18, 3 * 18 + 2 * 15 + 2 * 6)
    assert line_size((6,), 6) == (13, 3 * 6 + 2 * 7 + 12)  # no slack: one path


def test_empty_clue_forces_every_cell_empty():
    assert encode_line((), [4, 5, 6], VarPool(first=7)) == {"empty_line": [[-4], [-5], [-6]]}
    puzzle = Puzzle(rows=((), (1,), ()), columns=((), (1,), ()))
    enc = encode(puzzle)
    assert enc.families["empty_line"] == 12  # 2 empty rows + 2 empty columns of 3 cells
    result = CnfSolver().solve(puzzle, Limits(max_solutions=None))
    assert result.complete and [s.flat() for s in result.solutions] == [[0, 0, 0, 0, 1, 0, 0, 0, 0]]


def test_lines_encoded_without_a_tag_get_their_own_variables():
    pool = VarPool(first=4)
    first = {abs(lit) for c in _flat(encode_line((1,), [1, 2, 3], pool)) for lit in c} - {1, 2, 3}
    second = {abs(lit) for c in _flat(encode_line((1,), [1, 2, 3], pool)) for lit in c} - {1, 2, 3}
    assert first and second and not first & second


def test_encode_line_refuses_a_clue_that_does_not_fit():
    with pytest.raises(ValueError, match="encode_line"):
        encode_line((2, 2), [1, 2, 3, 4], VarPool(first=5))


def test_encoding_is_deterministic_and_numbers_cells_first():
    puzzle = Puzzle.from_solution(Solution.from_rows(["##.", "#.#", "###"]), name="t")
    first, second = encode(puzzle), encode(puzzle)
    assert first == second
    assert first.cell_vars == {(r, c): r * 3 + c + 1 for r in range(3) for c in range(3)}
    assert len(first.clauses) == sum(first.families.values())
    sizes = [line_size(clue, 3) for clue in puzzle.rows + puzzle.columns]
    assert first.num_vars == 9 + sum(v for v, _ in sizes)
    assert len(first.clauses) == sum(c for _, c in sizes)
    assert to_dimacs(puzzle) == to_dimacs(puzzle)
