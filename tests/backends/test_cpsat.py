"""The CP-SAT backend against brute force, and the dzn format it shares with MiniZinc."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("ortools", reason="the cpsat backend needs OR-tools")

from nonolab.core import Puzzle, Solution  # noqa: E402
from nonolab.core.violations import clues_of, violations  # noqa: E402
from nonolab.errors import InvalidPuzzle, ParseError  # noqa: E402
from nonolab.formats import dzn  # noqa: E402
from nonolab.solvers import get  # noqa: E402
from nonolab.errors import InvalidArgument  # noqa: E402
from nonolab.solvers.base import Given, Limits, Status  # noqa: E402
from nonolab.solvers.cpsat import CpSatSolver, line_automaton  # noqa: E402
from reference import count_by_rows  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ALL = Limits(max_solutions=None)


def _clues(bits, h, w):
    rows = tuple(clues_of(bits[r * w:(r + 1) * w]) for r in range(h))
    cols = tuple(clues_of(bits[c::w]) for c in range(w))
    return rows, cols


def _accepts(automaton, line) -> bool:
    start, accepting, transitions = automaton
    table = {(s, v): t for s, v, t in transitions}
    state = start
    for v in line:
        if (state, v) not in table:
            return False
        state = table[state, v]
    return state in accepting


# --- the automaton ---------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 11))
def test_line_automaton_accepts_exactly_the_lines_with_its_clue(n):
    lines = list(itertools.product((0, 1), repeat=n))
    by_clue: dict[tuple, set] = {}
    for line in lines:
        by_clue.setdefault(clues_of(line), set()).add(line)
    for clue, expected in by_clue.items():
        automaton = line_automaton(clue)
        start, accepting, transitions = automaton
        assert len({(s, v) for s, v, _ in transitions}) == len(transitions), "not deterministic"
        assert len({s for s, _, _ in transitions}) == sum(clue) + len(clue) + 1
        assert {line for line in lines if _accepts(automaton, line)} == expected, clue


def test_line_automaton_of_the_empty_clue_accepts_only_white():
    automaton = line_automaton(())
    assert _accepts(automaton, (0, 0, 0)) and not _accepts(automaton, (0, 1, 0))


# --- exact counts ------------------------------------------------------------------

@pytest.mark.parametrize("workers", [1, 2])
def test_random_grids_count_equals_brute_force(workers):
    rng = random.Random(1000 + workers)
    solver = CpSatSolver(workers=workers)
    for _ in range(60):
        h, w = rng.randint(1, 6), rng.randint(1, 6)
        density = rng.choice((0.2, 0.35, 0.5, 0.65, 0.8))
        bits = [int(rng.random() < density) for _ in range(h * w)]
        rows, cols = _clues(bits, h, w)
        puzzle = Puzzle(rows=rows, columns=cols)
        result = solver.solve(puzzle, ALL)
        assert result.complete and result.status is Status.SOLVED, (rows, cols)
        assert result.count == count_by_rows(rows, cols), (rows, cols)
        assert all(violations(puzzle, s) == [] for s in result.solutions)
        assert result.stats.counters["workers"] == 1    # counts never run in parallel


@pytest.mark.parametrize("options", [dict(presolve=False), dict(probing_level=0, linearization_level=0)])
def test_options_do_not_change_counts(options):
    rng = random.Random(7)
    solver = CpSatSolver(**options)
    for _ in range(25):
        h, w = rng.randint(2, 5), rng.randint(2, 5)
        bits = [int(rng.random() < 0.5) for _ in range(h * w)]
        rows, cols = _clues(bits, h, w)
        result = solver.solve(Puzzle(rows=rows, columns=cols), ALL)
        assert result.complete and result.count == count_by_rows(rows, cols)
        assert result.stats.counters["presolve"] == options.get("presolve", True)


def test_several_workers_count_every_permutation_matrix():
    # OR-tools 9.15 enumerating with 4 workers finds 70 of these 120 (symmetry
    # reasoning); the backend must count on one worker.
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    result = CpSatSolver(workers=4).solve(puzzle, ALL)
    assert result.complete and result.count == 120


def _load_nonunique() -> Puzzle:
    path = REPO / "puzzles" / "hakank" / "nonunique.non"
    try:
        from nonolab.formats import load
        return load(path)
    except ImportError:     # the formats package is unfinished: read the .non minimally
        lines = [x.strip() for x in path.read_text().splitlines()]
        def block(key, n):
            i = lines.index(key) + 1
            return tuple(tuple(int(b) for b in x.split(",")) for x in lines[i:i + n])
        return Puzzle(rows=block("rows", 15), columns=block("columns", 11))


def test_hakank_nonunique_has_43_solutions():
    result = CpSatSolver().solve(_load_nonunique(), ALL)
    assert result.status is Status.SOLVED and result.complete and result.count == 43


# --- special shapes ------------------------------------------------------------------

@pytest.mark.parametrize("rows, cols, count", [
    (((), (1,), ()), ((), (1,), ()), 1),                        # empty lines around one cell
    (((), ()), ((), (), ()), 1),                                # all empty
    (((3,), (3,)), ((2,), (2,), (2,)), 1),                      # all filled
    (((1, 1),), ((1,), (), (1,)), 1),                           # 1x3
    (((1,), (), (1,)), ((1, 1),), 1),                           # 3x1
    (((1,),), ((1,), (), (), ()), 1),                           # 1x4
    (((2,),), ((1,), (1,), ()), 1),
    (((1,), (1,)), ((1,), (1,)), 2),
])
def test_shapes(rows, cols, count):
    puzzle = Puzzle(rows=rows, columns=cols)
    result = CpSatSolver().solve(puzzle, ALL)
    assert result.complete and result.count == count == count_by_rows(rows, cols)


def test_unsatisfiable_puzzle_is_unsat_and_complete():
    puzzle = Puzzle(rows=((), (1,), (3,)), columns=((), (1,), (3,)))
    for workers, limits in ((1, ALL), (2, Limits(max_solutions=1)), (1, Limits())):
        result = CpSatSolver(workers=workers).solve(puzzle, limits)
        assert result.status is Status.UNSAT and result.complete and result.count == 0


def test_max_solutions_is_honoured_and_inexact():
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    solver = CpSatSolver()
    assert solver.solve(puzzle, ALL).count == 120
    some = solver.solve(puzzle, Limits(max_solutions=7))
    assert some.count == 7 and not some.complete and some.status is Status.SOLVED
    one = CpSatSolver(workers=2).solve(puzzle, Limits(max_solutions=1))
    assert one.count == 1 and not one.complete and one.status is Status.SOLVED
    assert one.stats.counters["workers"] == 2


def test_uniqueness_check_on_a_unique_puzzle():
    puzzle = Puzzle.from_solution(Solution.from_rows(["##.", "#..", "###"]))
    result = CpSatSolver().solve(puzzle, Limits(max_solutions=2))
    assert result.unique and result.solution == puzzle.goal


def test_time_limit_gives_timeout_never_a_wrong_verdict():
    puzzle = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)
    result = CpSatSolver().solve(puzzle, Limits(max_solutions=None, time_limit=0.3))
    assert result.status is Status.TIMEOUT and not result.complete and not result.unique
    assert len(set(result.solutions)) == result.count
    assert all(violations(puzzle, s) == [] for s in result.solutions)


def test_fixed_cells_restrict_the_solutions():
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)
    fixed = {(0, 0): 1, (1, 2): 1}
    result = CpSatSolver().solve(puzzle, ALL, given=Given.of(fixed))
    assert result.complete and result.count == 2
    assert all(s[0][0] == 1 and s[1][2] == 1 for s in result.solutions)
    white = CpSatSolver().solve(puzzle, ALL, given=Given.of({(r, r): 0 for r in range(4)}))
    assert white.complete and white.count == 9          # derangements of 4
    none = CpSatSolver().solve(puzzle, ALL, given=Given.of({(0, 0): 1, (1, 0): 1}))
    assert none.status is Status.UNSAT and none.complete


@pytest.mark.parametrize("fixed", [{(4, 0): 1}, {(0, -1): 0}, {(0, 0): 2}, {0: 1}, {(0, True): 1}])
def test_bad_fixed_cells_are_rejected(fixed):
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)
    with pytest.raises(InvalidArgument, match="given cell"):
        CpSatSolver().solve(puzzle, ALL, given=Given.of(fixed))


def test_the_given_must_be_a_given_and_its_hint_a_solution():
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)
    with pytest.raises(InvalidArgument, match="Given"):
        CpSatSolver().solve(puzzle, ALL, given={(0, 0): 1})
    with pytest.raises(InvalidArgument, match="hint"):
        CpSatSolver().solve(puzzle, ALL, given=Given(hint=[[1, 0, 0, 0]]))


def test_a_hint_does_not_change_the_answer():
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)
    wrong = Solution.from_rows(["####"] * 4)
    result = CpSatSolver().solve(puzzle, ALL, given=Given(hint=wrong))
    assert result.complete and result.count == 24
    with pytest.raises(InvalidArgument, match="hint"):
        CpSatSolver().solve(puzzle, ALL, given=Given(hint=Solution.from_rows(["#"])))


def test_registry_builds_it_with_options():
    solver = get("cpsat", workers=2, presolve=False)
    assert solver.name == "cpsat" and solver.workers == 2 and not solver.presolve
    with pytest.raises(ValueError):
        CpSatSolver(workers=0)


def test_stats_counters():
    result = CpSatSolver().solve(_load_nonunique(), Limits(max_solutions=2))
    counters = result.stats.counters
    for key in ("branches", "conflicts", "solver_wall_time", "booleans", "workers", "presolve"):
        assert key in counters
    assert counters["booleans"] > 0 and result.stats.wall_time >= counters["solver_wall_time"]


def test_importing_the_backend_does_not_import_ortools():
    code = ("import sys, nonolab.solvers.cpsat; "
            "print([m for m in sys.modules if m.startswith('ortools')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the dzn format --------------------------------------------------------------

@st.composite
def puzzles(draw):
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    bits = draw(st.lists(st.integers(0, 1), min_size=h * w, max_size=h * w))
    name = draw(st.text(max_size=12))
    rows, cols = _clues(bits, h, w)
    return Puzzle(rows=rows, columns=cols, name=name)


@settings(max_examples=150, deadline=None)
@given(puzzles())
def test_dzn_round_trip(puzzle):
    text = dzn.write(puzzle)
    assert dzn.sniff(text)
    [back] = dzn.parse(text)
    assert back == puzzle and back.name == puzzle.name      # == ignores the name


def test_dzn_reads_hakank_layouts():
    text = """% hakank-style data, rules padded on the right
rows = 2;
row_rule_len = 2;
row_rules = array2d(1..rows, 1..row_rule_len, [1,1, 0,0]);
cols = 3;
col_rule_len = 1;
col_rules = [| 1 | 0 | 1 |];
unused = "ignored; really";
"""
    assert dzn.parse(text)[0] == Puzzle(rows=((1, 1), ()), columns=((1,), (), (1,)))


def test_dzn_line_endings_and_bom():
    text = dzn.write(Puzzle(rows=((1,),), columns=((1,),)))
    assert dzn.parse("\ufeff" + text.replace("\n", "\r")) == dzn.parse(text.replace("\n", "\r\n"))
    with pytest.raises(ParseError) as info:
        dzn.parse("\ufeffrows = 1;\r\rcols = x;\r")
    assert info.value.line == 3


@pytest.mark.parametrize("text, line", [
    ("rows = 2;\ncols = 1;\nrow_rules = [| 1 | 1 |];\ncol_rules = [| 2 |]\n", 4),      # no ';'
    ("row_rules = [| 1 |];\ncol_rules = [| 1 |];\nrow_rules = [| 1 |];\n", 3),         # twice
    ("row_rules = [| 1 |];\ncol_rules = [| x |];\n", 2),                                # not a number
    ("row_rules = [| 1, 0, 1 |];\n\ncol_rules = [| 1 | 0 | 1 |];\n", 1),               # 0 inside
    ("rows = 3;\nrow_rules = array2d(1..rows, 1..1, [1, 1]);\ncol_rules = [| 2 |];\n", 2),
    ("row_rules = [| 1 |];\n", 1),                                                     # no col_rules
    ("rows = 1;\n\nrow_rules = [| 1 |];\ncol_rules = [| 1 |];\ncols = 2;\n", 5),       # size mismatch
    ("% only a comment\n/* and an unclosed\n", 2),
    ("row_rules = array2d(0..1, 1..1, [1]);\ncol_rules = [| 1 |];\n", 1),
    ("row_rules = [| -1 |];\ncol_rules = [| 1 |];\n", 1),
    ("  \n", 1),
])
def test_malformed_dzn_is_a_parse_error_with_a_line(text, line):
    with pytest.raises(ParseError) as info:
        dzn.parse(text)
    assert info.value.line == line, str(info.value)


def test_impossible_dzn_clue_names_its_line():
    with pytest.raises(InvalidPuzzle) as info:
        dzn.parse("rows = 2;\ncols = 1;\nrow_rules = [| 1\n| 2 |];\ncol_rules = [| 1 |];\n")
    assert info.value.line == 4, str(info.value)
