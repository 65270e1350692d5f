"""The auto strategy: native first, then a CDCL backend on what native left open.

The hand-off is forced with ``native_budget=0`` so that the CDCL phase really runs
on small puzzles; counts must equal brute force's whatever the phase, the backend
and the extra clauses.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.formats import load
from nonolab.solvers import get
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.steps import Technique
from test_properties import _brute_force, clue_sets, pictures

NINE_DOM = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "webpbn-survey" / "webpbn-08098-9-dom.non"

HANDOFFS = [dict(cdcl=c, probe_clauses=pc, race=False) for c in ("cpsat", "cnf") for pc in (False, True)]
HANDOFFS += [dict(cdcl="lcg", race=False)]
HANDOFFS += [dict(cdcl=c, rival="native") for c in ("cpsat", "cnf", "lcg")]
# Two engines racing on native's remainder, with fixed cells and on the bare puzzle.
HANDOFFS += [dict(cdcl="lcg", rival="cpsat"), dict(cdcl="lcg", rival="cpsat", fix_cells=False),
             dict(cdcl="cpsat", rival="cnf", probe_clauses=True), dict(cdcl="lcg", rival="cnf:solver=kissat404")]
IDS = [f"{h['cdcl']}{'+clauses' if h.get('probe_clauses') else ''}{'+bare' if h.get('fix_cells') is False else ''}"
       f"{'|' + h['rival'] if 'rival' in h else ''}" for h in HANDOFFS]


@pytest.mark.parametrize("options", HANDOFFS, ids=IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=clue_sets())
def test_forced_handoff_counts_exactly(options, puzzle):
    result = get("auto", native_budget=0, **options).solve(puzzle, Limits(max_solutions=None))
    assert result.complete
    assert result.count == _reference_count(puzzle)


@settings(max_examples=60, deadline=None)
@given(picture=pictures())
def test_forced_handoff_finds_the_picture(picture):
    puzzle = Puzzle.from_solution(picture)
    result = get("auto", native_budget=0, cdcl="cpsat", probe_clauses=True, race=False).solve(
        puzzle, Limits(max_solutions=None))
    assert picture in result.solutions


def _reference_count(puzzle: Puzzle) -> int:
    """Brute force where it is cheap, else the native count (itself checked against
    brute force by test_properties)."""
    exact = _brute_force(puzzle)
    if exact is not None:
        return exact
    return get("native").solve(puzzle, Limits(max_solutions=None)).count


def _two_by_two_switch() -> Puzzle:
    return Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))


def test_native_answers_alone_when_it_finishes():
    # (solo_side=0: grids this small go to lcg alone by default, auto.solo.)
    result = get("auto", early=False, solo_side=0).solve(load("puzzles/webpbn/webpbn-00006-cat.non"))
    assert result.unique and result.stats.counters["phase"] == "native"
    # cat is line-solvable: lcg never starts (auto.early), native answers alone.
    result = get("auto", solo_side=0).solve(load("puzzles/webpbn/webpbn-00006-cat.non"))
    assert result.unique and result.stats.counters["phase"] == "native" and "early_start" not in result.stats.counters


@pytest.mark.skipif(not NINE_DOM.exists(), reason="../shared/corpus is not here")
def test_an_early_engine_answer_stops_native_inside_its_budget():
    result = get("auto", native_budget=60, solo_side=0).solve(load(NINE_DOM))  # native alone: minutes
    counters = result.stats.counters
    assert result.unique and counters["winner"] == "lcg" and counters["early"]
    auto = get("auto")
    assert counters["native_time"] < 30 and f"{auto.rival}_left_running" not in counters  # no hand-off: no rival


def test_handoff_is_reported_and_union_is_exact():
    puzzle = _two_by_two_switch()
    result = get("auto", native_budget=0, cdcl="cpsat", race=False).solve(puzzle, Limits(max_solutions=None))
    counters = result.stats.counters
    assert counters["phase"] == "native+cpsat"
    assert result.count == 2 and result.complete and result.status is Status.SOLVED
    assert counters["native_solutions"] + counters["cdcl_solutions"] >= 2


def test_handoff_respects_max_solutions_and_never_claims_exactness_beyond_it():
    puzzle = Puzzle.from_solution(Solution.from_rows(["#..", ".#.", "..#"]))  # 6 permutation matrices
    result = get("auto", native_budget=0, cdcl="cnf", race=False).solve(puzzle, Limits(max_solutions=2))
    assert result.count == 2 and not result.complete and result.status is Status.SOLVED


def test_step_log_names_the_cdcl_phase_and_covers_the_grid():
    puzzle = _two_by_two_switch()
    result = get("auto", native_nodes=1, record_steps=True).solve(puzzle, Limits(max_solutions=1))
    assert result.steps[-1].technique is Technique.CDCL
    cells = {(r, c) for s in result.steps for r, c, _ in s.cells}
    assert cells == {(r, c) for r in range(2) for c in range(2)}
    picture = {(r, c): v for s in result.steps for r, c, v in s.cells}
    assert [clues_of([picture[(r, c)] for c in range(2)]) for r in range(2)] == list(puzzle.rows)


def test_bad_options_are_rejected():
    with pytest.raises(ValueError):
        get("auto", cdcl="minisat")
    with pytest.raises(ValueError):
        get("auto", native_budget=-1)
    with pytest.raises(ValueError):
        get("auto", handoff_by=-1)
    with pytest.raises(ValueError):
        get("auto", early_open=-0.5)
    with pytest.raises(ValueError, match="probe_clauses"):   # lcg takes fixed cells, not clauses
        get("auto", cdcl="lcg", probe_clauses=True, race=False)
    with pytest.raises(ValueError, match="two different engines"):
        get("auto", cdcl="cpsat", rival="cpsat")
    assert get("auto", cdcl="cpsat", rival="cpsat", race=False).engines == ("cpsat",)
    # Unset, each side is the measured partner of the other.
    assert get("auto").engines == ("lcg", "cnf:solver=kissat404")
    assert get("auto", cdcl="cpsat").engines == ("cpsat", "lcg")
    assert get("auto", rival="lcg").engines == ("cpsat", "lcg")


def test_the_default_rival_is_kissat_and_cp_sat_without_python_sat(monkeypatch, request):
    import importlib.util

    from nonolab.solvers.auto import rivals

    assert get("auto").rival == "cnf:solver=kissat404"
    real = importlib.util.find_spec
    monkeypatch.setattr(rivals.importlib.util, "find_spec", lambda name: None if name == "pysat" else real(name))
    rivals.default_rival.cache_clear()  # the choice is made once a process: forget it here,
    request.addfinalizer(rivals.default_rival.cache_clear)  # and forget this one after
    assert get("auto").engines == ("lcg", "cpsat")
    assert get("auto", rival="cnf:solver=kissat404").rival == "cnf:solver=kissat404"  # named: kept as asked


@pytest.mark.parametrize("solo_side, phase", [(0, "native"), (127, "lcg alone")])
def test_a_puzzle_one_engine_settles_never_imports_python_sat(solo_side, phase):
    # Building cnf imports python-sat (40-60 ms): auto reads the engines' model bounds
    # from their declared options and chooses its rival without importing it.
    import subprocess
    import sys

    code = ("import sys; from nonolab.solvers import get; from nonolab.formats import load; "
            f"r = get('auto', solo_side={solo_side}).solve(load('puzzles/webpbn/webpbn-00006-cat.non')); "
            "print(r.unique, repr(r.stats.counters['phase']), any(m.split('.')[0] == 'pysat' for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == f"True {phase!r} False"


def test_no_handoff_beyond_handoff_max_states():
    # A model over auto's own hand-off bound stays with native, whatever the CDCL backend holds.
    puzzle = Puzzle(rows=((1,),) * 8, columns=((1,),) * 8)
    result = get("auto", native_budget=0, cdcl="lcg", handoff_max_states=10).solve(puzzle, Limits(max_solutions=None))
    assert result.complete and result.count == 40320
    assert result.stats.counters["phase"] == "native" and "refused" in result.stats.counters["handoff"]


@pytest.mark.parametrize("restarts", [False, True])
def test_native_remainder_holds_for_every_unseen_solution(restarts):
    # Stop native after a few nodes on a puzzle with 120 solutions: every solution it
    # did not return must agree with its remainder, which includes the second branch
    # of every level whose first branch it exhausted.
    puzzle = Puzzle.from_solution(Solution.from_rows(["#....", ".#...", "..#..", "...#.", "....#"]))
    everything = get("native").solve(puzzle, Limits(max_solutions=None))
    assert everything.count == 120
    fixed_somewhere = False
    for nodes in (1, 5, 20, 60, 150):
        partial = get("native", restarts=restarts, node_limit=nodes).solve(puzzle, Limits(max_solutions=None))
        assert partial.status is Status.TIMEOUT and partial.remainder is not None
        fixed_somewhere |= any(state != 3 for state in partial.remainder.cells)
        seen = set(partial.solutions)
        for solution in everything.solutions:
            if solution not in seen:
                flat = solution.flat()
                assert all(state in (3, 1 + flat[i]) for i, state in enumerate(partial.remainder.cells))
    assert fixed_somewhere


def test_race_hands_off_and_the_winner_cancels_the_other():
    # The 8x8 permutation puzzle: 40320 solutions.  Native outlasts its first 50 ms
    # slice, so the hand-off happens; then native, which enumerates far faster than
    # the CDCL loop, wins, cancels CP-SAT, and its count is exact.
    n = 8
    puzzle = Puzzle.from_solution(Solution.from_rows(["." * i + "#" + "." * (n - 1 - i) for i in range(n)]))
    result = get("auto", native_budget=0, cdcl="cpsat", rival="native").solve(puzzle, Limits(max_solutions=None))
    counters = result.stats.counters
    assert counters["phase"] == "native+cpsat race" and counters["winner"] == "native"
    assert result.complete and result.count == 40320
    # CP-SAT was stopped before it finished (or is still stopping: not awaited)
    assert counters.get("cdcl_left_running") or counters["cdcl_solutions"] < 40320


@pytest.mark.parametrize("backend", ["native", "cpsat", "cnf", "auto"])
def test_cancel_stops_a_backend_and_says_interrupted(backend):
    import threading

    cancel = threading.Event()
    cancel.set()
    result = get(backend).solve(_hard_puzzle(), Limits(max_solutions=None, cancel=cancel))
    assert result.status is Status.INTERRUPTED and not result.complete and result.count < 3_628_800


def _hard_puzzle() -> Puzzle:
    """A 10x10 permutation puzzle: 10! solutions, so no backend can finish counting."""
    n = 10
    return Puzzle.from_solution(Solution.from_rows(["." * i + "#" + "." * (n - 1 - i) for i in range(n)]))


def test_two_engines_race_and_the_first_answer_wins():
    # 5x5 permutations: 120 solutions.  lcg enumerates them in milliseconds; CP-SAT,
    # building its model first, is told to stop and left behind (not awaited).
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    result = get("auto", native_budget=0, cdcl="lcg", rival="cpsat", solo_side=0).solve(
        puzzle, Limits(max_solutions=None))
    counters = result.stats.counters
    assert counters["phase"] == "native+lcg|cpsat race"
    assert counters["winner"] in ("lcg", "cpsat") and counters["cdcl"] == counters["winner"]
    assert result.complete and result.count == 120 and result.status is Status.SOLVED
    assert "conflicts" in counters  # the winner's, for the benchmark tables


def test_a_duel_under_a_deadline_reports_a_timeout_with_what_was_found():
    puzzle = Puzzle(rows=((1,),) * 12, columns=((1,),) * 12)  # 12! solutions: nobody finishes
    result = get("auto", native_budget=0, cdcl="lcg", rival="cpsat").solve(
        puzzle, Limits(max_solutions=None, time_limit=1.0))
    assert result.status is Status.TIMEOUT and not result.complete and result.count > 0
    assert result.stats.counters["winner"] is None


def test_the_handoff_waits_for_native_root_probing():
    # Root probing fixes 105 of this puzzle's 165 cells and leaves 43 solutions: a zero
    # budget hands over when the root ends, all 105 fixed (a clock would cut it short).
    puzzle = load("puzzles/hakank/nonunique.non")
    result = get("auto", native_budget=0, cdcl="cpsat", race=False).solve(puzzle, Limits(max_solutions=None))
    counters = result.stats.counters
    assert counters["phase"] == "native+cpsat" and counters["handoff_fixed_cells"] == 105
    assert result.complete and result.count == 43


@pytest.mark.skipif(not NINE_DOM.exists(), reason="../shared/corpus is not here")
def test_a_root_that_leaves_most_cells_open_starts_the_early_engine_at_once():
    # 9-Dom's root fixes no cell: lcg starts then, not after early_after (60 s here).
    result = get("auto", native_budget=60, early_after=60, solo_side=0).solve(load(NINE_DOM), Limits(time_limit=50))
    assert result.unique and result.stats.counters["winner"] == "lcg"   # within the limit: lcg did not wait 60 s


def test_the_rival_joins_only_after_rival_after():
    # 5x5 permutations (120 solutions): lcg answers in milliseconds, long before the
    # rival's 30 s, so CP-SAT never starts.
    puzzle = Puzzle(rows=((1,),) * 5, columns=((1,),) * 5)
    result = get("auto", native_budget=0, cdcl="lcg", rival="cpsat", rival_after=30, solo_side=0).solve(
        puzzle, Limits(max_solutions=None))
    counters = result.stats.counters
    assert counters["winner"] == "lcg" and result.count == 120 and result.complete
    assert "cpsat_left_running" not in counters and counters["cdcl"] == "lcg"


def test_a_rival_that_cannot_be_built_leaves_the_race_to_lcg(monkeypatch):
    # A python-sat without Kissat fails the default rival when it starts: lcg, still
    # searching, must go on to its answer (not be stopped 0.1 s later with the error).
    import time

    from nonolab.errors import InvalidArgument

    class SlowLcg:
        def solve(self, puzzle, limits, given=None):
            time.sleep(0.5)
            return get("lcg").solve(puzzle, limits, given)

    def engine(spec):
        if spec.startswith("lcg"):   # (lcg, and the first-solution rival lcg:seed=2 auto declares the memory of)
            return SlowLcg()
        raise InvalidArgument("backend 'cnf': option solver=kissat404: not in this python-sat")

    from nonolab.solvers.auto.parts import Parts

    auto = get("auto", native_budget=0, rival="cnf:solver=kissat404")
    monkeypatch.setattr(Parts, "engine", lambda parts, spec: engine(spec))
    result = auto.solve(Puzzle(rows=((1,),) * 5, columns=((1,),) * 5), Limits(max_solutions=None))
    assert result.count == 120 and result.complete and result.stats.counters["winner"] == "lcg"
