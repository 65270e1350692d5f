"""The CNF backend: exact counts, DIMACS, limits, solver choice, sessions (its encoding: test_cnf_encoding.py)."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

pysat_solvers = pytest.importorskip("pysat.solvers")

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of, violations
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.solvers import get
from nonolab.solvers.base import Given, Limits, Status, Budget
from nonolab.solvers.cnf import (CnfSolver, cells_as_assumptions, encode, solver_names,
                                 time_limit_mode, to_dimacs)
from nonolab.solvers.cnf.calls import Limited
from reference import count_by_rows

import nonolab  # noqa: E402

# Subprocesses import the very package this process imported (site-packages after
# `pip install .`, src/ in an editable install), with its compiled engine caches and extensions.
INSTALLED = Path(nonolab.__file__).resolve().parents[1]

REPO = Path(__file__).resolve().parents[2]
EMPTY, FILLED, UNKNOWN = 1, 2, 3


def _flat(families):
    return [clause for family in families.values() for clause in family]


def _clues(bits, h, w):
    rows = tuple(clues_of(bits[r * w:(r + 1) * w]) for r in range(h))
    cols = tuple(clues_of(bits[c::w]) for c in range(w))
    return rows, cols


def _permutations(n):
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def _all_clues(n):
    """Every clue that fits a line of n cells, the empty one included."""
    return sorted({clues_of(bits) for bits in itertools.product((0, 1), repeat=n)})


# --- exact counts ------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1, 1), (2, 3), (3, 3), (4, 4), (3, 5), (5, 5)])
def test_random_grids_count_equals_row_product_enumeration(size):
    h, w = size
    rng = random.Random(h * 100 + w)
    solver = CnfSolver()
    for _ in range(15):
        density = rng.choice((0.2, 0.35, 0.5, 0.65, 0.8))
        rows, cols = _clues([int(rng.random() < density) for _ in range(h * w)], h, w)
        puzzle = Puzzle(rows=rows, columns=cols)
        result = solver.solve(puzzle, Limits(max_solutions=None))
        assert result.complete and result.status is Status.SOLVED
        assert result.count == count_by_rows(rows, cols), (rows, cols)


def test_every_3x3_picture_is_found_in_its_clue_class():
    classes = {}
    for bits in itertools.product((0, 1), repeat=9):
        classes.setdefault(_clues(bits, 3, 3), set()).add(bits)
    solver = CnfSolver(solver="minisat22")
    for (rows, cols), pictures in classes.items():
        result = solver.solve(Puzzle(rows=rows, columns=cols), Limits(max_solutions=None))
        assert result.complete and {tuple(s.flat()) for s in result.solutions} == pictures


def _nonunique():
    try:
        from nonolab.formats import load
        return load(REPO / "puzzles/hakank/nonunique.non")
    except ImportError:  # the formats package is someone else's; read the file minimally
        lines = (REPO / "puzzles/hakank/nonunique.non").read_text().splitlines()
        blocks, key = {"rows": [], "columns": []}, None
        for line in lines:
            if line.strip() in blocks:
                key = line.strip()
            elif key and line.strip():
                blocks[key].append(tuple(int(x) for x in line.split(",")))
        return Puzzle(rows=tuple(blocks["rows"]), columns=tuple(blocks["columns"]))


@pytest.mark.parametrize("sat_name", ["cadical195", "glucose4", "minisat22"])
def test_solver_choices_agree_on_known_counts(sat_name):
    solver = CnfSolver(solver=sat_name)
    result = solver.solve(_nonunique(), Limits(max_solutions=None))
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 43, True)
    assert solver.solve(_permutations(5), Limits(max_solutions=None)).count == 120
    assert solver.solve(_permutations(6), Limits(max_solutions=None)).count == 720


def test_unique_puzzle_is_proven_unique_with_the_default_limits():
    picture = Solution.from_rows(["##.", "#..", "###"])
    result = CnfSolver().solve(Puzzle.from_solution(picture))
    assert result.unique and result.solution == picture


def test_one_row_and_one_column_puzzles():
    row = Puzzle(rows=((2, 1),), columns=((1,), (1,), (), (1,)))
    result = CnfSolver().solve(row, Limits(max_solutions=None))
    assert result.unique and result.solution.flat() == [1, 1, 0, 1]
    col = row.transposed()
    result = CnfSolver().solve(col, Limits(max_solutions=None))
    assert result.unique and result.solution.flat() == [1, 1, 0, 1] and result.solution.width == 1
    free = Puzzle(rows=((1,),), columns=((),) * 3 + ((1,),) + ((),) * 2)
    assert CnfSolver().solve(free, Limits(max_solutions=None)).count == 1


def test_unsatisfiable_clues_are_unsat_and_complete():
    puzzle = Puzzle(rows=((), (1,), (3,)), columns=((), (1,), (3,)))
    result = CnfSolver().solve(puzzle, Limits(max_solutions=None))
    assert result.status is Status.UNSAT and result.complete and result.count == 0


def test_max_solutions_is_honoured_and_inexact():
    result = CnfSolver().solve(_permutations(5), Limits(max_solutions=7))
    assert (result.status, result.count, result.complete) == (Status.SOLVED, 7, False)
    assert not result.unique


def test_stats_report_the_encoding_and_the_solver():
    puzzle = _nonunique()
    enc = encode(puzzle)
    counters = CnfSolver().solve(puzzle, Limits(max_solutions=None)).stats.counters
    assert counters["variables"] == enc.num_vars and counters["clauses"] == len(enc.clauses)
    assert counters["solve_calls"] == 44  # 43 solutions, then the proof there is no 44th
    for key in ("encode_time", "solve_time", "conflicts", "decisions", "propagations", "restarts"):
        assert counters[key] >= 0


# --- time limits -----------------------------------------------------------------------


@pytest.mark.parametrize("sat_name", ["cadical195", "glucose4", "minisat22"])
def test_time_limit_stops_a_long_enumeration(sat_name):
    result = CnfSolver(solver=sat_name).solve(_permutations(12), Limits(max_solutions=None, time_limit=0.3))
    assert result.status is Status.TIMEOUT and not result.complete
    assert 0 < result.count < 479_001_600


def _pigeonhole(holes):
    """holes + 1 pigeons into ``holes`` holes: UNSAT, and very slow for CDCL from 10 up."""
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for a, b in itertools.combinations(range(holes + 1), 2):
            clauses.append([-var(a, h), -var(b, h)])
    return clauses


@pytest.mark.parametrize("sat_name", ["cadical195", "minisat22"])
def test_time_limit_stops_a_single_hard_call(sat_name):
    # One solve() call that would take many seconds: the limit must stop it inside.
    with pysat_solvers.Solver(name=sat_name, bootstrap_with=_pigeonhole(11)) as sat:
        run = Limited(sat, time_limit_mode(sat_name), Budget(0.3))
        try:
            answer = run([])
        finally:
            run.close()
    assert answer is None      # stopped inside the call: no answer (the proof of UNSAT takes far longer)


def test_how_each_solver_is_stopped():
    assert time_limit_mode("cadical195") == "budget"
    assert time_limit_mode("minisat22") == time_limit_mode("g4") == "interrupt"
    assert time_limit_mode("lingeling") is None


def test_a_solver_that_cannot_be_stopped_refuses_a_time_limit_but_counts_without_one():
    solver = CnfSolver(solver="lingeling")
    with pytest.raises(BackendUnavailable, match="time_limit"):
        solver.solve(_permutations(4), Limits(time_limit=5))
    assert solver.solve(_permutations(4), Limits(max_solutions=None)).count == 24


# --- solver names --------------------------------------------------------------------


def test_unknown_solver_names_are_refused_and_aliases_resolved():
    with pytest.raises(InvalidArgument, match="cadical195.*minisat22"):
        CnfSolver(solver="no-such-solver")
    assert CnfSolver(solver="m22").solver == "minisat22"
    assert CnfSolver(solver="kissat").solver == get("cnf", solver="kissat404").solver == "kissat404"


def test_every_python_sat_solver_name_counts_or_is_reported_unavailable():
    puzzle = _permutations(4)
    for name in sorted(set(solver_names().values())):
        try:
            solver = CnfSolver(solver=name)
        except BackendUnavailable:  # e.g. cryptosat without pycryptosat
            continue
        assert solver.solve(puzzle, Limits(max_solutions=None)).count == 24, name
        if time_limit_mode(name) is not None:
            result = solver.solve(puzzle, Limits(max_solutions=None, time_limit=30))
            assert result.complete and result.count == 24, name


def test_the_registry_builds_it():
    solver = get("cnf")
    assert isinstance(solver, CnfSolver) and solver.name == "cnf" and solver.solver == "cadical195"


# --- fixed cells as assumptions --------------------------------------------------------


def test_fixed_cells_restrict_the_solutions_and_the_count():
    solver = CnfSolver()
    every = Limits(max_solutions=None)
    assert solver.solve(_permutations(5), every, given=Given.of({(0, 0): 1})).count == 24
    assert solver.solve(_permutations(5), every, given=Given.of({(0, 0): 0})).count == 96
    result = solver.solve(_permutations(5), every, given=Given.of({(0, 0): 1, (1, 0): 1}))
    assert result.status is Status.UNSAT and result.complete
    result = solver.solve(_permutations(4), every, given=Given.of({(r, 3 - r): 1 for r in range(4)}))
    assert result.unique and result.solution.flat() == [int(c == 3 - r) for r in range(4) for c in range(4)]


def test_cells_as_assumptions():
    assert cells_as_assumptions({(0, 0): 1, (2, 1): 0}, width=3) == [1, -8]
    assert cells_as_assumptions({}, width=3) == []
    with pytest.raises(ValueError, match="outside"):
        cells_as_assumptions({(0, 3): 1}, width=3)
    with pytest.raises(ValueError, match="outside"):
        cells_as_assumptions({(2, 0): 1}, width=3, height=2)
    with pytest.raises(ValueError, match="not 0 or 1"):
        cells_as_assumptions({(0, 0): 2}, width=3)
    with pytest.raises(ValueError, match="outside"):
        CnfSolver().solve(_permutations(3), given=Given.of({(3, 0): 1}))



# --- sessions: one encoding, many solves ------------------------------------------------


@pytest.mark.parametrize("sat_name", ["cadical195", "glucose4"])
def test_a_session_answers_as_fresh_solves_do(sat_name):
    solver = CnfSolver(solver=sat_name)
    every = Limits(max_solutions=None)
    puzzle = _permutations(5)
    questions = [{}, {(0, 0): 1}, {(0, 0): 0}, {(0, 0): 1, (1, 0): 1}, {}, {(2, 3): 1, (4, 4): 1}, {}]
    with solver.session(puzzle) as session:
        for fixed in questions:
            mine, fresh = session.solve(every, given=Given.of(fixed)), solver.solve(puzzle, every, given=Given.of(fixed))
            # The blocking clauses of one call never leak into the next: the counts repeat.
            assert (mine.status, mine.complete, set(mine.solutions)) == (
                fresh.status, fresh.complete, set(fresh.solutions)), fixed
        two = session.solve(Limits(max_solutions=2), given=Given.of({(0, 0): 1}))
        assert two.count == 2 and not two.complete and two.status is Status.SOLVED
        assert session.calls > 0 and two.stats.counters["session_calls"] == session.calls
    with pytest.raises(ValueError, match="closed"):
        session.solve()


@pytest.mark.parametrize("sat_name", ["cadical195", "glucose4"])
def test_a_session_honours_a_time_limit_per_call(sat_name):
    with CnfSolver(solver=sat_name).session(_permutations(12)) as session:
        cut = session.solve(Limits(max_solutions=None, time_limit=0.3))
        assert cut.status is Status.TIMEOUT and not cut.complete and cut.count > 0
        # A deadline that has passed does not stop the next call.
        time.sleep(0.05)
        after = session.solve(Limits(max_solutions=1), given=Given.of({(0, 0): 1, (1, 1): 1}))
        assert after.status is Status.SOLVED and after.solution[0][0] == after.solution[1][1] == 1


def test_a_session_restricts_for_good_and_says_what_line_logic_decides():
    with CnfSolver().session(_permutations(4)) as session:
        assert session.solve(Limits(max_solutions=None)).count == 24
        session.restrict({(0, 0): 1})
        assert session.solve(Limits(max_solutions=None)).count == 6
        assert session.solve(Limits(max_solutions=None), given=Given.of({(1, 1): 1})).count == 2
        # Line logic from (1,1) on top of the restriction: rows 0-1 and columns 0-1 settle.
        implied = session.implied({(1, 1): 1})
        assert implied[(1, 1)] == 1 and implied[(1, 2)] == implied[(2, 1)] == 0
        assert (0, 0) not in implied        # decided without the question: not listed
        assert session.implied({(1, 0): 1}) is None        # a conflict with the restriction
    with pytest.raises(ValueError, match="closed"):
        session.implied({})


def test_the_generic_session_restricts_too():
    from nonolab.solvers.session import OneShotSession, open_session
    session = open_session(get("cpsat"), _permutations(4))
    assert isinstance(session, OneShotSession)
    session.restrict({(0, 0): 1})
    assert session.solve(Limits(max_solutions=None)).count == 6

    class NoGivenCells:  # declares no capabilities
        name = "plain"

        def solve(self, puzzle, limits=Limits(), given=None):
            raise AssertionError("not called")

    with pytest.raises(ValueError, match="does not take given cells"):
        open_session(NoGivenCells(), _permutations(4))


def test_a_session_rejects_bad_fixed_cells():
    with CnfSolver().session(_permutations(3)) as session:
        with pytest.raises(ValueError, match="outside"):
            session.solve(given=Given.of({(3, 0): 1}))

# --- DIMACS ----------------------------------------------------------------------------


def test_dimacs_round_trip_solves_with_any_solver():
    from pysat.formula import CNF

    puzzle = _nonunique()
    text = to_dimacs(puzzle)
    lines = text.splitlines()
    header = [ln for ln in lines if ln.startswith("p ")]
    assert len(header) == 1
    _, _, num_vars, num_clauses = header[0].split()
    clauses = [list(map(int, ln.split())) for ln in lines if ln and not ln.startswith(("c", "p"))]
    assert all(clause[-1] == 0 for clause in clauses)
    assert int(num_clauses) == len(clauses)
    assert int(num_vars) == max(abs(lit) for clause in clauses for lit in clause)
    assert f"c nonolab puzzle {puzzle.name}" in lines
    assert f"c nonolab size {puzzle.width} {puzzle.height} (width height)" in lines
    cells = {}
    for ln in lines:
        if ln.startswith("c cell "):
            r, c, var = map(int, ln.split()[2:])
            cells[(r, c)] = var
    assert set(cells) == {(r, c) for r in range(1, 16) for c in range(1, 12)}
    cnf = CNF(from_string=text)
    assert cnf.nv == int(num_vars) and len(cnf.clauses) == len(clauses)
    with pysat_solvers.Solver(name="glucose4", bootstrap_with=cnf.clauses) as sat:
        assert sat.solve()
        model = set(sat.get_model())
    picture = Solution.from_rows([[cells[(r, c)] in model for c in range(1, 12)] for r in range(1, 16)])
    assert violations(puzzle, picture) == []


def test_dimacs_keeps_the_puzzle_s_givens():
    # Givens are part of the puzzle: the exported model's solutions are the puzzle's (43 without them).
    from pysat.formula import CNF

    puzzle = _nonunique().with_(givens={(3, 8): 1, (4, 6): 1})
    cnf = CNF(from_string=to_dimacs(puzzle))
    cells = list(range(1, puzzle.width * puzzle.height + 1))
    found = 0
    with pysat_solvers.Solver(name="glucose4", bootstrap_with=cnf.clauses) as sat:
        while sat.solve():
            model = set(sat.get_model())
            found += 1
            sat.add_clause([-v if v in model else v for v in cells])   # block this picture
    assert found == 1 and "givens=2" in to_dimacs(puzzle)


def test_dimacs_header_stays_one_line_for_odd_names():
    puzzle = Puzzle(rows=((1,),), columns=((1,),), name="two\nlines")
    lines = to_dimacs(puzzle).splitlines()
    assert lines[0] == "c nonolab puzzle two lines"
    assert all(ln.startswith(("c ", "p ")) or ln.endswith(" 0") for ln in lines)


# --- import cost ------------------------------------------------------------------------


def test_importing_the_backend_does_not_import_pysat():
    code = ("import sys, nonolab.solvers.cnf, nonolab.solvers.cnf.encode; "
            "print([m for m in sys.modules if m.split('.')[0] == 'pysat'])")
    env = dict(os.environ, PYTHONPATH=str(INSTALLED))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"
