"""The lcg backend: exact counts, limits, cancel and counters (its line DP: test_lcg_lines.py).

The shared contract (tests/backends/test_contract.py) and the property tests run on it
too, through the registry; these tests check what is its own.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.errors import InvalidArgument
from nonolab.formats import load
from nonolab.solvers import get, role
from nonolab.solvers.base import Given, Limits, Status
from reference import count_by_rows, n_dom, placements

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    ENGINE = lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"


def _solver():
    return lcg.LcgSolver()


# --- exact counts ------------------------------------------------------------------


@st.composite
def small_puzzles(draw):
    """A random picture's clues, or (half the time) its row clues with the column clues
    of a copy in which one filled and one empty cell were swapped: the totals agree,
    and the clue set often has no solution."""
    h = draw(st.integers(1, 5))
    w = draw(st.integers(1, 5))
    flat = draw(st.lists(st.integers(0, 1), min_size=h * w, max_size=h * w))
    picture = Solution.from_flat(flat, w)
    rows = tuple(clues_of(r) for r in picture)
    other = list(flat)
    ones = [i for i, v in enumerate(flat) if v]
    zeros = [i for i, v in enumerate(flat) if not v]
    if ones and zeros and draw(st.booleans()):
        other[draw(st.sampled_from(ones))] = 0
        other[draw(st.sampled_from(zeros))] = 1
    copy = Solution.from_flat(other, w)
    cols = tuple(clues_of(copy.column(c)) for c in range(w))
    return Puzzle(rows=rows, columns=cols)


def _fits(clue, cells):
    """Whether some arrangement of clue agrees with cells (masks 1 empty, 2 filled, 3 unknown)."""
    return any(all(c & (2 if b else 1) for b, c in zip(bits, cells)) for bits in placements(tuple(clue), len(cells)))


@st.composite
def lines_and_orders(draw):
    n = draw(st.integers(1, 9))
    bits = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    clue = clues_of(bits) if draw(st.booleans()) else tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
    cells = bytes(draw(st.lists(st.sampled_from((1, 2, 3)), min_size=n, max_size=n)))
    order = draw(st.permutations(range(n)))
    return clue, cells, order


@settings(max_examples=500, deadline=None)
@given(lines_and_orders())
def test_explanation_drops_leave_an_irredundant_infeasible_line(case):
    # The greedy of every explanation (drop.hpp): each cell of the order is made unknown
    # while the line stays infeasible; what is left is infeasible and every cell kept is
    # needed (brute force over all arrangements).
    clue, cells, order = case
    kept = ENGINE.drop_cells(list(clue), cells, list(order))
    for bits in (64, 128) if cells else ():  # the bit-set checks the engine uses on lines of up to 127 cells
        assert ENGINE.drop_cells(list(clue), cells, list(order), bits) == kept
    if _fits(clue, cells):
        assert kept == cells  # a feasible line has no explanation: nothing is dropped
        return
    assert not _fits(clue, kept)
    assert all(k in (c, 3) for k, c in zip(kept, cells))
    for i, value in enumerate(kept):
        if value != 3:
            assert _fits(clue, kept[:i] + b"\x03" + kept[i + 1:]), (i, kept)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_exact_counts_equal_brute_force(puzzle):
    expected = count_by_rows(puzzle.rows, puzzle.columns)
    for minimise, explain in (("recursive", "levels"), ("basic", "levels"), ("none", "levels"),
                              ("recursive", "positions"), ("recursive", "two-bands"), ("recursive", "glucose"),
                              ("recursive", "no-probing"), ("recursive", "saved-phases"),
                              ("recursive", "probe-binaries")):
        options = ({"restarts": explain} if explain == "glucose" else {"probing": False} if explain == "no-probing"
                   else {"phases": "saved"} if explain == "saved-phases"
                   else {"probe_binaries": True} if explain == "probe-binaries" else {"explain": explain})
        result = lcg.LcgSolver(minimise=minimise, **options).solve(puzzle, Limits(max_solutions=None))
        assert result.complete and result.count == expected, (minimise, explain)
        assert result.status is (Status.SOLVED if expected else Status.UNSAT)


@pytest.mark.parametrize("file, expected", [("hakank/nonunique.non", 43), ("nonolab/permutations-5.non", 120)])
def test_counts_of_shipped_puzzles(file, expected):
    result = _solver().solve(load(PUZZLES / file), Limits(max_solutions=None))
    assert result.complete and result.count == expected


def test_n_dom_is_unique():
    rows, cols = n_dom(6)
    result = _solver().solve(Puzzle(rows=rows, columns=cols), Limits(max_solutions=None))
    assert result.unique


def test_fixed_cells_restrict_the_solutions_and_the_count():
    puzzle = load(PUZZLES / "nonolab" / "permutations-5.non")
    everything = _solver().solve(puzzle, Limits(max_solutions=None)).solutions
    fixed = {(0, 0): 1, (1, 2): 0}
    result = _solver().solve(puzzle, Limits(max_solutions=None), given=Given.of(fixed))
    wanted = {s for s in everything if s[0][0] == 1 and s[1][2] == 0}
    assert result.complete and set(result.solutions) == wanted and len(wanted) == 18
    contradictory = _solver().solve(puzzle, Limits(None), given=Given.of({(0, 0): 1, (0, 1): 1}))
    assert contradictory.status is Status.UNSAT and contradictory.complete


@pytest.mark.parametrize("bad", [{(5, 0): 1}, {(0, -1): 0}, {(0, 0): 2}, {(0, 0): 0.5}, {0: 1}])
def test_fixed_cells_outside_the_grid_or_not_0_1_are_refused(bad):
    with pytest.raises(ValueError):
        _solver().solve(load(PUZZLES / "nonolab" / "permutations-5.non"), given=Given.of(bad))


# --- limits, cancel, counters -------------------------------------------------------


def _permutations(n: int) -> Puzzle:
    """n! solutions: far too many to count."""
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def test_a_time_limit_gives_timeout_with_what_was_found():
    result = _solver().solve(_permutations(30), Limits(max_solutions=None, time_limit=0.5))
    assert result.status is Status.TIMEOUT and not result.complete and result.count > 0


def test_a_time_limit_stops_a_search_that_finds_nothing():
    rows, cols = n_dom(40)  # unique, and thousands of conflicts before its solution
    result = _solver().solve(Puzzle(rows=rows, columns=cols), Limits(time_limit=0.3))
    # Whether the clock ran out in root probing or in the search depends on the machine's speed
    # (under load 7 it ran out before the first conflict): only the outcome is asserted.
    assert result.status is Status.TIMEOUT and result.count == 0 and not result.complete


def test_a_cancel_gives_interrupted():
    cancel = threading.Event()
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    try:
        result = _solver().solve(_permutations(30), Limits(max_solutions=None, cancel=cancel))
    finally:
        timer.cancel()
    assert result.status is Status.INTERRUPTED and not result.complete and result.count > 0


def test_a_cancel_set_before_the_start_gives_interrupted_at_once():
    cancel = threading.Event()
    cancel.set()
    result = _solver().solve(_permutations(5), Limits(cancel=cancel))
    assert result.status is Status.INTERRUPTED and result.count == 0 and not result.complete


def test_root_probing_probes_within_its_budget():
    rows, cols = n_dom(6)
    puzzle = Puzzle(rows=rows, columns=cols)
    probed = _solver().solve(puzzle).stats.counters
    assert 0 < probed["probes"] <= 2 * puzzle.width * puzzle.height
    assert probed["probe_line_runs"] <= 20 * puzzle.width * puzzle.height + 10_000
    assert lcg.LcgSolver(probing=False).solve(puzzle).stats.counters["probes"] == 0


def _engine_search(puzzle, **keywords):
    """Every solution of ``puzzle`` by the bare engine with lcg's defaults (colour when the
    puzzle is): (counters, solutions)."""
    colour = {}
    if puzzle.is_colour:
        colour = dict(colours=puzzle.colours, row_colours=puzzle.row_colours, column_colours=puzzle.column_colours)
    engine = ENGINE.Engine(puzzle.width, puzzle.height, puzzle.rows, puzzle.columns, (), 2, 0, 0,
                           20 * puzzle.width * puzzle.height + 10_000, hint_rounds=50, hint_conflicts=10_000,
                           **colour, **keywords)
    solutions = []
    while (outcome := engine.run(10.0)) != 2:
        if outcome == 1:
            solutions.append(engine.solution())
    return engine.stats(), solutions


def _random_picture(seed, size):
    rng = random.Random(seed)
    rows = ["".join(rng.choice("#.") for _ in range(size)) for _ in range(size)]
    return Puzzle(rows=tuple(clues_of(tuple(c == "#" for c in r)) for r in rows),
                  columns=tuple(clues_of(tuple(r[c] == "#" for r in rows)) for c in range(size)))


def test_probes_an_earlier_probe_implied_are_skipped_and_the_search_is_the_same():
    # A probe implied by an earlier one at the same root cannot fail; once a failed probe
    # grows the root it may, so skipping must stop there (else a unit is missed and the
    # conflicts differ).
    puzzles = [Puzzle(rows=n_dom(n)[0], columns=n_dom(n)[1]) for n in (6, 7)]
    puzzles += [_random_picture(seed, 14) for seed in range(8)]
    # (webpbn #23: a probe fails after the root grew, on a literal implied before it did.)
    puzzles += [load(PUZZLES / "hakank" / "nonunique.non"), load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")]
    skipped_somewhere = False
    for puzzle in puzzles:
        skip, found = _engine_search(puzzle)
        every, every_found = _engine_search(puzzle, skip_implied_probes=False)
        assert every["probes_skipped"] == 0
        for key in ("conflicts", "decisions", "learned", "restarts", "blocking_clauses"):
            assert skip[key] == every[key], key
        assert found == every_found and len(found) >= 1
        assert skip["probes"] + skip["probes_skipped"] == every["probes"]  # (the budget not reached)
        skipped_somewhere |= skip["probes_skipped"] > 0 and skip["line_runs"] < every["line_runs"]
    assert skipped_somewhere


def test_explanations_from_the_root_masks_are_the_clauses_of_every_cell_read():
    # An explanation takes the root's cells from the line's masks (line_root_, kept as
    # root cells are assigned) and reads only the cells above the root (analysis.cpp);
    # reading every cell must give the same clauses, so the same search to the last
    # counter: a cell taken for a root cell that is not one (marked when assigned above
    # the root, or not cleared) drops a candidate and changes the clauses (checked by
    # marking every assignment; a root cell missing from the masks is only read again).
    # The reference also orders the candidates by a sort of their keys, where the default
    # reads each band's mask, 64 bands at a time: the 36- and 44-cell pictures have
    # explanations whose cells lie more than 64 levels apart (checked: with only the
    # first 64 bands read, their counters differ).
    puzzles = [Puzzle(rows=n_dom(n)[0], columns=n_dom(n)[1]) for n in (6, 7)]
    puzzles += [_random_picture(seed, 14) for seed in range(8)]
    puzzles += [_random_picture(3, 36), _random_picture(3, 44)]
    puzzles += [load(PUZZLES / "hakank" / "nonunique.non"), load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")]
    explained = 0
    for puzzle in puzzles:
        masks, found = _engine_search(puzzle)
        cells, cells_found = _engine_search(puzzle, explain_from_root=False)
        assert masks == cells and found == cells_found and len(found) >= 1
        explained += masks["explanations"]
    assert explained > 1000


def test_probe_binaries_keep_what_each_probe_implied():
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    off = lcg.LcgSolver().solve(puzzle, Limits(max_solutions=None))
    on = lcg.LcgSolver(probe_binaries=True).solve(puzzle, Limits(max_solutions=None))
    assert off.stats.counters["probe_binaries"] == 0 and on.stats.counters["probe_binaries"] > 0
    assert on.complete and on.count == off.count == 43 and set(on.solutions) == set(off.solutions)
    # Nothing but probing changes without them; with them the search meets the clauses.
    assert lcg.LcgSolver(probing=False, probe_binaries=True).solve(puzzle).stats.counters["probe_binaries"] == 0
    assert on.stats.counters["propagations"] != off.stats.counters["propagations"]


def test_the_counters_say_what_the_search_did():
    rows, cols = n_dom(6)
    counters = lcg.LcgSolver(probing=False).solve(Puzzle(rows=rows, columns=cols)).stats.counters
    for key in ("conflicts", "decisions", "propagations", "learned_clauses", "restarts", "mean_explanation"):
        assert key in counters
    # Every conflict is learned from, but the last one (at the root) when the search is exhausted.
    assert counters["conflicts"] > 0 and 0 <= counters["conflicts"] - counters["learned_clauses"] <= 1
    assert counters["propagations"] > counters["decisions"] > 0
    assert 0 < counters["mean_explanation"] < 2 * 13


def test_target_phases_are_taken_from_conflict_free_trails():
    rows, cols = n_dom(6)
    puzzle = Puzzle(rows=rows, columns=cols)
    # (Without phase hints: while they steer, decisions follow them, not these phases.)
    target = lcg.LcgSolver(probing=False, hint_rounds=0).solve(puzzle, Limits(max_solutions=None))
    saved = lcg.LcgSolver(probing=False, hint_rounds=0, phases="saved").solve(puzzle, Limits(max_solutions=None))
    assert target.unique and saved.unique
    # Each update copies a longer trail than the last since the previous restart: at
    # least one per conflict-laden stretch between restarts, at most one per conflict.
    assert 0 < target.stats.counters["target_updates"] <= target.stats.counters["conflicts"]
    assert saved.stats.counters["target_updates"] == 0
    # The phases steer the decisions: the two searches differ.
    assert target.stats.counters["decisions"] != saved.stats.counters["decisions"]


def test_the_registry_builds_it():
    assert role("lcg") == "solver"
    assert get("lcg").name == "lcg"
    with pytest.raises(ValueError):
        lcg.LcgSolver(slice_seconds=0)
    with pytest.raises(InvalidArgument):
        lcg.LcgSolver(minimise="deep")
    with pytest.raises(InvalidArgument):
        lcg.LcgSolver(explain="random")
    with pytest.raises(InvalidArgument):
        lcg.LcgSolver(restarts="never")
    with pytest.raises(InvalidArgument):
        lcg.LcgSolver(phases="random")
    with pytest.raises(InvalidArgument):
        lcg.LcgSolver(probing="sometimes")


def test_the_engine_survives_many_random_puzzles_with_many_solutions():
    rng = random.Random(7)
    for _ in range(20):
        w, h = rng.randint(6, 12), rng.randint(6, 12)
        picture = Solution.from_flat([int(rng.random() < 0.5) for _ in range(w * h)], w)
        puzzle = Puzzle.from_solution(picture)
        result = _solver().solve(puzzle, Limits(max_solutions=50))
        assert picture in result.solutions or result.count == 50
        if result.complete:
            size = 1
            for r in puzzle.rows:
                size *= len(placements(r, w))
            if size <= 20_000:
                assert result.count == count_by_rows(puzzle.rows, puzzle.columns)


def test_remembered_explanations_keep_the_counts_exact():
    # Explanations of lines up to 63 cells are remembered (analysis.cpp); this search reuses
    # dozens of them, and a wrong one would cut solutions from (or add non-solutions to) the
    # exact count, which Gecode gives.
    puzzle = load(PUZZLES / "hakank/nonunique.non")
    result = _solver().solve(puzzle, Limits(max_solutions=None))
    assert result.stats.counters["explanation_hits"] > 0
    assert result.complete and result.count == 43  # (Gecode's count, as in test_counts_of_shipped_puzzles)


def test_the_benchmark_script_writes_its_table_and_csv(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO))  # `benchmarks` is a top-level folder of the repository
    from benchmarks import lcg_vs_cnf
    if not any(lcg_vs_cnf.SURVEY.glob("webpbn-06574-*")):
        pytest.skip("the survey corpus is not beside the repository")
    assert lcg_vs_cnf.main(["--only", "Forever", "--time-limit", "20", "--backends", "lcg,native",
                            "--out", str(tmp_path)]) == 0
    table = capsys.readouterr().out
    assert "| Forever | " in table and "lcg conflicts" in table
    rows = (tmp_path / "lcg_vs_cnf.csv").read_text().splitlines()
    assert rows[0].startswith("puzzle,backend,status") and len(rows) == 3
    assert rows[1].startswith("Forever,lcg,solved,1,")


def test_hold_keeps_the_engine_for_the_caller_to_free():
    """``auto`` frees lcg's engine after its answer is in, not on the way out of the solve."""
    hold: list = []
    puzzle = Puzzle(rows=((1,),) * 4, columns=((1,),) * 4)
    result = get("lcg", hold=hold).solve(puzzle, Limits(max_solutions=None))
    assert result.count == 24 and len(hold) == 1 and hasattr(hold[0], "run")
    assert get("lcg").hold is None


def test_interrupt_ends_the_running_slice_from_another_thread():
    """auto's race stops a losing lcg inside its slice: ``interrupt`` makes ``run`` end
    at its next look at the clock whatever its budget."""
    n = 12  # 12! solutions: without the interrupt every run returns the next one
    puzzle = Puzzle(rows=((1,),) * n, columns=((1,),) * n)
    engine = lcg.engine_module().Engine(n, n, puzzle.rows, puzzle.columns, [], 2, 0, 0, 0)
    assert engine.run(60.0) == 1
    threading.Timer(0.1, engine.interrupt).start()
    started = time.perf_counter()
    outcome = 1
    while outcome == 1 and time.perf_counter() - started < 30:
        outcome = engine.run(60.0)
    assert outcome == 0                   # the interrupt, not the 30 s guard, ended the runs


def test_a_cancel_that_says_when_it_is_set_gets_the_engines_interrupt_for_the_solve():
    class Subscribable:
        calls: list = []
        dropped: list = []

        def is_set(self):
            return False

        def on_set(self, call):
            self.calls.append(call)
            return lambda: self.dropped.append(call)

    cancel = Subscribable()
    result = get("lcg").solve(Puzzle(rows=((1,),) * 4, columns=((1,),) * 4), Limits(max_solutions=None, cancel=cancel))
    assert result.count == 24 and len(cancel.calls) == 1 and cancel.dropped == cancel.calls
    assert cancel.calls[0].__name__ == "interrupt"


@pytest.mark.parametrize("case", ["9-dom", "sparse-30x30"])
def test_slices_only_pause_the_search(case):
    # REPRODUCIBLE rests on this: a slice ends on the clock, but the search resumes where
    # it stopped, so 1 ms slices (dozens of them) give the same solutions, in the same
    # order, after the same conflicts and decisions as one long slice.
    from nonolab.generate.grids import puzzle_from_array, random_grid
    if case == "9-dom":
        puzzle, limits = Puzzle(*n_dom(9)), Limits(2)
    else:
        puzzle, limits = puzzle_from_array(random_grid(30, 30, 0.3, seed=1)), Limits(200)
    short, long = (get("lcg", slice_seconds=s).solve(puzzle, limits) for s in (0.001, 10.0))
    assert short.stats.counters["slices"] > long.stats.counters["slices"]
    assert short.solutions == long.solutions
    keys = ("conflicts", "decisions", "propagations")
    assert {k: short.stats.counters.get(k) for k in keys} == {k: long.stats.counters.get(k) for k in keys}


@pytest.mark.parametrize("step, rings", [(0.0, 0), (1.0, 1)])
def test_the_alarm_counts_the_search_threads_cpu_time_not_the_wall(monkeypatch, step, rings):
    # The clock is the calling thread's CPU time (under load a second of wall time is a
    # fraction of a second of search): frozen, the alarm never rings however many slices
    # pass; moving a second per look, it rings once.
    from nonolab.solvers.lcg import slices

    now = [0.0]

    def cpu_clock() -> float:
        now[0] += step
        return now[0]

    monkeypatch.setattr(slices.time, "thread_time", cpu_clock)
    rang = []
    puzzle = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)  # 720 solutions, a slice each
    result = lcg.LcgSolver(alarm=(0.5, rang.append)).solve(puzzle, Limits(max_solutions=None))
    assert result.count == 720 and len(rang) == rings


def test_an_alarm_may_set_the_next_one(monkeypatch):
    # What the call returns is the next alarm, its seconds from the same start (auto's count:
    # the seeded draw's join at one budget, the proof engine's at a later one); None ends them.
    from nonolab.solvers.lcg import slices

    now = [0.0]

    def cpu_clock() -> float:   # 1 s a look: one at the start, one after each slice
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(slices.time, "thread_time", cpu_clock)
    rang: list[tuple[str, float]] = []

    def later(root):
        rang.append(("later", now[0]))

    def first(root):
        rang.append(("first", now[0]))
        return 2.5, later

    puzzle = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)  # 720 solutions, a slice each
    result = lcg.LcgSolver(alarm=(0.5, first)).solve(puzzle, Limits(max_solutions=None))
    assert result.count == 720 and rang == [("first", 2.0), ("later", 4.0)]
