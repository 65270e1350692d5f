"""The native engine (C++) against the naive search, and what its slices promise.

The engine's search tree is defined without its machinery (windows, segments, trails,
the line cache, rounds, paused sweeps): ``naive.py`` computes it the naive way, and the
engine must find the same solutions in the same order with the same nodes, probes and
depth (one search style, ``restarts=False``; the default two styles alternate in slices
of wall time, so then the solutions as a set).  Cutting a search into slices anywhere
(even of no time at all) changes nothing it finds or counts.  Plus what the engine
promises on its own: it imports no numpy, it honours time limits and cancellation, and
its line cache is made and grown only as a search uses it.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import naive
from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.formats import load
from nonolab.solvers.base import Given, Limits, Status
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.compiled import available
from nonolab.solvers.native.modes import BRANCHING
from nonolab.solvers.native.search import SearchSpace

pytestmark = pytest.mark.skipif(not available(), reason="the native engine is not built")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SHIPPED = sorted(p for p in PUZZLES.rglob("*.non"))


def _tree(puzzle: Puzzle, probing: str, **options) -> naive.Tree:
    """The engine's search of every solution, one style, as a naive.Tree (a skipped probe,
    one cell's two trials, counted as run)."""
    result = NativeSolver(probing=probing, restarts=False, **options).solve(puzzle, Limits(max_solutions=None))
    assert result.complete
    c = result.stats.counters
    solutions = [bytes(2 if v else 1 for v in s.to_bytes()) for s in result.solutions]
    return naive.Tree(solutions, c["nodes"], c["probes"] + 2 * c["probes_skipped"], c["max_depth"])


@st.composite
def puzzles(draw, side: int = 8):
    """Pictures up to side x side, and clue sets that may have no solution (rows of one
    picture, columns of another with as many filled cells)."""
    h, w = draw(st.integers(1, side)), draw(st.integers(1, side))
    density = draw(st.sampled_from((0.2, 0.35, 0.5, 0.65, 0.8)))

    def picture():
        cells = draw(st.lists(st.floats(0, 1), min_size=h * w, max_size=h * w))
        return [[int(cells[r * w + c] < density) for c in range(w)] for r in range(h)]

    rows = picture()
    columns = picture() if draw(st.booleans()) else rows
    if sum(map(sum, columns)) != sum(map(sum, rows)):  # clues must fill as many cells both ways
        columns = rows
    return Puzzle(rows=tuple(clues_of(r) for r in rows),
                  columns=tuple(clues_of([columns[r][c] for r in range(h)]) for c in range(w)))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(side=6), st.sampled_from(("full", "contradiction", "none")), st.sampled_from(BRANCHING))
def test_random_puzzles_the_naive_search_tree(puzzle, probing, branching):
    assert _tree(puzzle, probing, branching=branching) == naive.search(puzzle, probing, branching=branching)


@pytest.mark.parametrize("name", ["nonolab/switch.non", "nonolab/probe-merge.non", "nonolab/probe-contradiction.non",
                                  "nonolab/permutations-5.non", "nonolab/contradiction.non", "hakank/t2.non",
                                  "pynogram/smile.non"])
@pytest.mark.parametrize("probing", ["full", "contradiction", "none"])
def test_shipped_puzzles_the_naive_search_tree(name, probing):
    puzzle = load(PUZZLES / name)
    assert _tree(puzzle, probing) == naive.search(puzzle, probing)


def _run(puzzle: Puzzle, seconds: float, **options) -> tuple:
    """Everything one style finds and counts when each slice of the engine runs ``seconds``."""
    settings_ = {"probing": "full", "strategy": 0, "cap": 1 << 16, "record_steps": True, **options}
    space = SearchSpace(puzzle, 1 << 20, None, settings_["probing"], settings_["strategy"], settings_["cap"],
                        settings_["record_steps"])
    engine = space._engine
    found, calls = [], 0
    while True:
        calls += 1
        code = engine.run(seconds, -1, 1 << 30, 1 << 30)
        if code == 1:
            found.append((engine.cells(), tuple(engine.steps())))
        elif code == 2:
            break
    return found, engine.stats()[:5], calls


@pytest.mark.parametrize("options", [{}, {"probing": "contradiction"}, {"probing": "depth-2"},
                                     {"strategy": 1}, {"strategy": 3, "cap": 3}])
def test_slices_of_no_time_change_nothing_the_search_finds_or_counts(options):
    """A slice pauses mid-propagation, mid-probing (a sweep, depth 2) and resumes there:
    with slices of 0 s the engine returns after every few line solves, and must find the
    same solutions with the same step logs, nodes, probes and line solves as in one go."""
    for name in ("hakank/nonunique.non", "nonolab/probe-merge.non", "webpbn/webpbn-26167.non"):
        puzzle = load(PUZZLES / name)
        whole, counted, calls = _run(puzzle, 60.0, **options)
        cut, cut_counted, cut_calls = _run(puzzle, 0.0, **options)
        assert (cut, cut_counted) == (whole, counted), (name, options)
        assert cut_calls > calls + 3  # the slices of no time did pause it


@settings(max_examples=40, deadline=None)
@given(puzzles(), st.integers(1, 3), st.integers(0, 2), st.integers(0, 3))
def test_first_solutions_node_budgets_and_probe_depths_keep_to_the_whole_search(puzzle, wanted, probe_depth,
                                                                               sweeps):
    """The first solutions of a limited search are the first of the whole search (one
    style), whatever the probing depth; a node limit ends it early, never wrongly."""
    everything = NativeSolver(restarts=False, probe_depth=probe_depth, deep_sweeps=sweeps).solve(
        puzzle, Limits(max_solutions=None))
    first = NativeSolver(restarts=False, probe_depth=probe_depth, deep_sweeps=sweeps).solve(
        puzzle, Limits(max_solutions=wanted))
    assert first.solutions == everything.solutions[:wanted]
    limited = NativeSolver(restarts=False, node_limit=1 + probe_depth).solve(puzzle, Limits(max_solutions=None))
    assert set(limited.solutions) <= set(everything.solutions)
    if limited.complete:
        assert limited.solutions == everything.solutions


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(PUZZLES)))
def test_shipped_puzzles_both_styles_agree_with_one(path):
    puzzle = load(path)
    one = NativeSolver(restarts=False).solve(puzzle, Limits(max_solutions=None))
    both = NativeSolver().solve(puzzle, Limits(max_solutions=2))
    assert one.complete and (one.status is Status.UNSAT) == (not one.solutions)
    assert set(both.solutions) <= set(one.solutions) and len(both.solutions) == min(2, len(one.solutions))


def test_fixed_cells_narrow_the_count():
    puzzle = _permutations(5)
    fixed = {(0, 0): 0, (1, 2): 1}
    result = NativeSolver().solve(puzzle, Limits(max_solutions=None), Given.of(fixed))
    # Row 1 in column 2 (4! ways for the rest), less those with row 0 in column 0 (3!).
    assert result.count == 24 - 6 and result.complete
    assert all(s[1][2] == 1 and s[0][0] == 0 for s in result.solutions)


def _permutations(n: int) -> Puzzle:
    """n x n with one filled cell per row and column: n! solutions, no deduction at all."""
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def test_a_count_stops_at_the_time_limit():
    result = NativeSolver().solve(_permutations(10), Limits(max_solutions=None, time_limit=0.3))
    assert result.status is Status.TIMEOUT and not result.complete
    assert 0 < result.count < 3_628_800          # stopped by the limit, not by the end of the count


def test_a_count_stops_when_cancelled_from_another_thread():
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    result = NativeSolver().solve(_permutations(10), Limits(max_solutions=None, cancel=cancel))
    # Stopped by the cancel, not by the end of the count (the solutions found meanwhile are
    # verified before they are reported).
    assert result.status is Status.INTERRUPTED and not result.complete and result.count < 3_628_800


@pytest.mark.parametrize("options", ["{}", "{'record_steps': True}", "{'line': 'chain-range', 'record_steps': True}",
                                     "{'probing': 'depth-2'}"])
def test_the_engine_imports_no_numpy_whatever_it_is_asked(options):
    # grade, explain and render --steps ask for the step log, the other strategies and
    # depth 2: none of them may pull numpy (or compile anything) in.
    code = ("import sys; from nonolab.formats import load; from nonolab.solvers.native import NativeSolver; "
            f"r = NativeSolver(**{options}).solve(load({str(PUZZLES / 'webpbn' / 'webpbn-00006-cat.non')!r})); "
            "print(r.unique, [m for m in sys.modules if m.split('.')[0] in ('numba', 'numpy')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["True", "[]"]


def test_both_styles_count_every_solution_of_a_puzzle_that_branches():
    # 8x8 permutations branch at once and take more than one 50 ms slice: the second search
    # style (a fork of the root's search) runs too, and the union of both is all of them.
    # (LalaFrogKK's slot, a third style, is off here: tests/native/test_lalafrog_slot.py.)
    puzzle = _permutations(8)
    result = NativeSolver(lalafrog_after=None).solve(puzzle, Limits(max_solutions=None))
    assert result.count == 40320 and result.complete and len(set(result.solutions)) == 40320
    assert result.stats.counters["styles"] == 2


def test_the_remainder_of_a_stopped_search_holds_every_solution_it_did_not_reach():
    # One style, stopped by a node limit: the remainder (root deductions plus exhausted
    # first branches) agrees with every solution the stopped search has not found.
    for path in (PUZZLES / "nonolab" / "switch.non", PUZZLES / "hakank" / "nonunique.non"):
        puzzle = load(path)
        result = NativeSolver(restarts=False, node_limit=3).solve(puzzle, Limits(max_solutions=None))
        everything = NativeSolver().solve(puzzle, Limits(max_solutions=None)).solutions
        if result.complete:
            assert result.remainder is None
            continue
        grid = result.remainder
        assert len(grid.cells) == puzzle.width * puzzle.height
        for solution in (s for s in everything if s not in result.solutions):
            states = bytes(2 if v else 1 for v in solution.to_bytes())
            assert all(r == 3 or r == s for r, s in zip(grid.cells, states))


def test_a_count_stopped_at_its_limit_builds_its_remainder_only_when_read(monkeypatch):
    # check never reads the remainder of a count to 2: building it (two scans of the
    # grid) waits for the first read, and what is read then is still the open space.
    import nonolab.solvers.native as native_module

    built = []
    eager = native_module._narrowest
    monkeypatch.setattr(native_module, "_narrowest", lambda *args: built.append(1) or eager(*args))
    puzzle = _permutations(5)
    result = NativeSolver().solve(puzzle, Limits(max_solutions=2))
    assert result.count == 2 and not result.complete and built == []
    grid = result.remainder
    assert built == [1] and result.remainder is grid and built == [1]
    assert len(grid.cells) == puzzle.width * puzzle.height
    # The open space holds every solution the count did not reach: each of them agrees
    # with every decided cell of the remainder.
    others = [s for s in NativeSolver().solve(puzzle, Limits(max_solutions=None)).solutions
              if s not in result.solutions]
    assert len(others) == 118
    for solution in others:
        states = bytes(2 if v else 1 for v in solution.to_bytes())
        assert all(r == 3 or r == s for r, s in zip(grid.cells, states))
    assert NativeSolver().solve(puzzle, Limits(max_solutions=None)).remainder is None


def test_the_line_cache_is_made_only_when_a_solve_first_uses_it():
    """The first propagation never reads the cache, so a line-solvable grid must not pay
    for making it (32 MB of tables: 1.2 ms of a 19 ms solve of Gargantua); probing does
    use it, and then it is there."""
    line_solvable = Puzzle.from_solution(Solution.from_rows(["##.#", "#..#", ".##.", "#.##"]))
    space = SearchSpace(line_solvable)
    assert space._engine.cache_slots() == 0
    space.run(None)
    assert space.counters()["nodes"] == 1 and space.counters()["probes"] == 0
    assert space._engine.cache_slots() == 0
    probed = load(PUZZLES / "hakank" / "nonunique.non")   # root probing, then a search
    space = SearchSpace(probed)
    space.run(None)
    assert space.counters()["probes"] > 0
    assert space._engine.cache_slots() > 0
    assert SearchSpace(probed, cache_bytes=0)._engine.cache_slots() == 0


def test_the_line_cache_starts_small_and_grows_with_its_use_up_to_its_budget():
    """A slot's first touch is a page fault, so the tables start at 2**10 slots and grow
    only when a search keeps storing new lines (a 25x25 root probing: 2.2 ms with the
    full tables made at once, 0.7 ms this way).  Growing drops what was cached, never an
    answer: the counts stay those of an uncached search."""
    small = load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")  # root probing, few lines
    space = SearchSpace(small)
    space.run(None)
    assert space.counters()["probes"] > 0 and space._engine.cache_slots() == 1 << 10
    busy = load(PUZZLES / "hakank" / "nonunique.non")  # every solution: a search that stores thousands
    grown, uncached = SearchSpace(busy), SearchSpace(busy, cache_bytes=0)
    out, plain = grown.run(None), uncached.run(None)
    assert 1 << 10 < grown._engine.cache_slots() <= 1 << 16
    assert sorted(out.solutions) == sorted(plain.solutions) and out.complete and plain.complete
    budget = 1500 * (2 * max(busy.width, busy.height) + 32)  # room for 1,500 slots: 1,024 at most
    tight = SearchSpace(busy, cache_bytes=budget)
    tight.run(None)
    assert tight._engine.cache_slots() == 1 << 10 and tight.counters()["cache_hits"] > 0


def test_interrupt_pauses_the_running_slice_and_every_later_one():
    """auto stops native inside its slice when an engine answers: ``interrupt`` from
    another thread makes ``run`` pause at its next look at the clock, whatever its
    time budget (and every later ``run`` at its own next look: each does a little work
    first, so a search always moves)."""
    from nonolab.solvers.native.compiled import engine_module

    n = 12  # 12! solutions: without the interrupt every run returns the next one
    puzzle = _permutations(n)
    engine = engine_module().Engine(n, n, puzzle.rows, puzzle.columns, b"\x03" * (n * n), 1 << 20, 2)
    assert engine.run(60.0, -1, 1 << 30, 1) == 1
    threading.Timer(0.1, engine.interrupt).start()
    started = time.perf_counter()
    code = 1
    while code == 1 and time.perf_counter() - started < 30:
        code = engine.run(60.0, -1, 1 << 30, 1)
    assert code == 0                      # the interrupt, not the 30 s guard, ended the runs
    assert 0 in [engine.run(60.0, -1, 1 << 30, 1) for _ in range(50)]


class _Subscribable:
    """A cancel that says when it is set: records who subscribed and unsubscribed."""

    def __init__(self):
        self.calls, self.dropped = [], []

    def is_set(self):
        return False

    def on_set(self, call):
        self.calls.append(call)
        return lambda: self.dropped.append(call)


def test_a_cancel_that_says_when_it_is_set_gets_each_spaces_interrupt_until_the_end():
    cancel = _Subscribable()
    result = NativeSolver().solve(_permutations(7), Limits(max_solutions=None, cancel=cancel))
    assert result.count == 5040 and len(cancel.calls) == result.stats.counters["styles"]  # each style's space
    assert all(call.__name__ == "interrupt" for call in cancel.calls)
    assert cancel.dropped == cancel.calls  # nothing is interrupted after the solve


SIGNED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "webpbn-survey" / "webpbn-03541-signed.non"


@pytest.mark.skipif(not SIGNED.exists(), reason="../shared/corpus is not beside the repository")
def test_a_dear_line_strategy_still_honours_the_time_limit():
    """With enumerate, one probed cell of Signed (60x50) costs tens of milliseconds and a
    sweep minutes: the probing looks at the clock between probed cells, so the limit ends
    the solve (how soon after it is a benchmark's question)."""
    result = NativeSolver(line="enumerate").solve(load(SIGNED), Limits(max_solutions=2, time_limit=2))
    assert result.status.value == "timeout" or result.complete


def _two_solutions(puzzle: Puzzle, probing: str, skip: bool) -> tuple:
    """The first two solutions (each with its step log) one style of the engine finds,
    and its counters then."""
    space = SearchSpace(puzzle, 1 << 20, None, probing, 0, 1 << 16, True, skip_probes=skip)
    engine, found = space._engine, []
    while len(found) < 2 and (code := engine.run(60.0, -1, 1 << 30, 1 << 30)) != 2:
        if code == 1:
            found.append((engine.cells(), tuple(engine.steps())))
    return found, dict(zip(("line_solves", "cache_hits", "probes", "nodes", "max_depth", "rounds", "skipped"),
                           engine.stats()))


@pytest.mark.parametrize("probing", ["full", "contradiction", "depth-2"])
def test_skipped_probes_change_nothing_but_the_probes(probing):
    """A probe is skipped only when it would learn nothing again (no line its trials solved
    has changed since): the same search as without skipping, solution for solution (with
    its step log), node for node; only the trials drop, each skipped probe two of them."""
    from nonolab.bench.suites import items_of
    skipped = 0
    for item in items_of(["ndom:5,6", "taai:8"]):
        if probing == "depth-2" and item.name != "5-dom":
            continue
        plain, c0 = _two_solutions(item.puzzle, probing, False)
        skipping, c1 = _two_solutions(item.puzzle, probing, True)
        assert skipping == plain, item.name
        assert (c1["nodes"], c1["max_depth"]) == (c0["nodes"], c0["max_depth"]), item.name
        assert c0["skipped"] == 0
        assert c1["probes"] + 2 * c1["skipped"] == c0["probes"], item.name
        skipped += c1["skipped"]
    assert skipped > 0  # it did skip


def test_lalafrog_branching_is_another_search_of_the_same_solutions():
    """LalaFrogKK's score branches elsewhere (the naive oracle holds it to its score on
    small puzzles, tree for tree) and finds the same solutions."""
    puzzle = load(PUZZLES / "hakank/nonunique.non")
    wu = NativeSolver(restarts=False).solve(puzzle, Limits(max_solutions=None))
    frog = NativeSolver(restarts=False, branching="lalafrog").solve(puzzle, Limits(max_solutions=None))
    assert wu.complete and frog.complete
    assert set(frog.solutions) == set(wu.solutions)
    assert frog.solutions != wu.solutions or frog.stats.counters["nodes"] != wu.stats.counters["nodes"]
