"""The native engine's C++ core against its numba kernels: the same tree, the same answers.

Both engines run one deterministic search style (``restarts=False``) or the default
interleaved styles; every solution, in order, and the node and probe counts must
agree (the line cache's hit counts may differ: the two tables hash differently).
Plus what the compiled path promises on its own: it imports neither numba nor numpy,
it honours time limits and cancellation, and it is the default only where it applies.
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

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.formats import load
from nonolab.solvers.base import Given, Limits, Status
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.compiled import available

pytestmark = pytest.mark.skipif(not available(), reason="the native engine's C++ core is not built")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SHIPPED = sorted(p for p in PUZZLES.rglob("*.non"))


def _answer(puzzle: Puzzle, engine: str, limits: Limits, **options) -> tuple:
    result = NativeSolver(engine=engine, **options).solve(puzzle, limits)
    counters = result.stats.counters
    assert counters["engine"] == engine
    return (result.status, result.solutions, result.complete, counters["nodes"], counters["probes"],
            counters["max_depth"], result.remainder)


def _same(puzzle: Puzzle, limits: Limits = Limits(max_solutions=None), **options) -> tuple:
    """Both engines' answers, which must be equal: all of them with one search style;
    with the default two styles, which alternate in 50 ms slices of wall time, what
    each style did depends on the clock, so then the solutions as a set (and the count,
    the status and exactness)."""
    compiled = _answer(puzzle, "compiled", limits, **options)
    numba = _answer(puzzle, "numba", limits, **options)
    if options.get("restarts") is False:
        assert compiled == numba
    else:
        assert (compiled[0], set(compiled[1]), compiled[2]) == (numba[0], set(numba[1]), numba[2])
    return compiled


@st.composite
def puzzles(draw):
    """Pictures up to 8x8, and clue sets that may have no solution (rows of one picture,
    columns of another with as many filled cells)."""
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(), st.sampled_from(("full", "contradiction", "none")), st.booleans())
def test_random_puzzles_same_tree_same_solutions(puzzle, probing, restarts):
    _same(puzzle, probing=probing, restarts=restarts)


@settings(max_examples=40, deadline=None)
@given(puzzles(), st.integers(1, 3), st.integers(0, 2), st.integers(0, 3))
def test_random_puzzles_with_first_solutions_node_budgets_and_depths(puzzle, wanted, probe_depth, sweeps):
    _same(puzzle, Limits(max_solutions=wanted), restarts=False, probe_depth=probe_depth, deep_sweeps=sweeps)
    _same(puzzle, Limits(max_solutions=None), restarts=False, node_limit=1 + probe_depth)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(PUZZLES)))
def test_shipped_puzzles_same_answers(path):
    puzzle = load(path)
    status, solutions, complete, *_ = _same(puzzle, restarts=False)
    _same(puzzle, Limits(max_solutions=2))
    assert complete and (status is Status.UNSAT) == (not solutions)


def test_fixed_cells_same_answers():
    puzzle = _permutations(5)
    fixed = {(0, 0): 0, (1, 2): 1}
    compiled = NativeSolver(engine="compiled").solve(puzzle, Limits(max_solutions=None), Given.of(fixed))
    numba = NativeSolver(engine="numba").solve(puzzle, Limits(max_solutions=None), Given.of(fixed))
    # Row 1 in column 2 (4! ways for the rest), less those with row 0 in column 0 (3!).
    assert compiled.count == numba.count == 24 - 6
    assert compiled.solutions == numba.solutions and compiled.stats.counters["engine"] == "compiled"


def _permutations(n: int) -> Puzzle:
    """n x n with one filled cell per row and column: n! solutions, no deduction at all."""
    return Puzzle(rows=((1,),) * n, columns=((1,),) * n)


def test_a_count_stops_at_the_time_limit():
    result = NativeSolver().solve(_permutations(10), Limits(max_solutions=None, time_limit=0.3))
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats.counters["engine"] == "compiled"
    assert 0 < result.count < 3_628_800          # stopped by the limit, not by the end of the count


def test_a_count_stops_when_cancelled_from_another_thread():
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    result = NativeSolver().solve(_permutations(10), Limits(max_solutions=None, cancel=cancel))
    # Stopped by the cancel, not by the end of the count (the solutions found meanwhile are
    # verified before they are reported).
    assert result.status is Status.INTERRUPTED and not result.complete and result.count < 3_628_800


def test_the_engine_is_chosen_where_it_applies():
    assert NativeSolver().compiled_applies()
    assert not NativeSolver(engine="numba").compiled_applies()
    for options in ({"line": "overlap"}, {"probing": "depth-2"}, {"record_steps": True}):
        assert not NativeSolver(**options).compiled_applies(), options


def test_the_compiled_path_imports_neither_numba_nor_numpy():
    code = ("import sys; from nonolab.formats import load; from nonolab.solvers.native import NativeSolver; "
            f"r = NativeSolver().solve(load({str(PUZZLES / 'webpbn' / 'webpbn-00006-cat.non')!r})); "
            "print(r.stats.counters['engine'], r.unique, [m for m in sys.modules if m.split('.')[0] in "
            "('numba', 'numpy')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["compiled", "True", "[]"]


def test_both_styles_count_the_same_on_a_puzzle_that_branches():
    # 8x8 permutations branch at once and take more than one 50 ms slice: the second search
    # style (a fork of the root's search) runs too, and the union of both is all of them.
    puzzle = _permutations(8)
    compiled = NativeSolver().solve(puzzle, Limits(max_solutions=None))
    numba = NativeSolver(engine="numba").solve(puzzle, Limits(max_solutions=None))
    assert compiled.count == numba.count == 40320 and compiled.complete and numba.complete
    assert set(compiled.solutions) == set(numba.solutions)
    assert compiled.stats.counters["styles"] == 2


def test_the_remainder_of_a_stopped_search_is_the_same():
    # One style, stopped by a node limit: the remainder (root deductions plus exhausted
    # first branches) must be the same partial grid.
    for path in (PUZZLES / "nonolab" / "switch.non", PUZZLES / "hakank" / "hard.non"):
        result = _same(load(path), Limits(max_solutions=None), restarts=False, node_limit=3)
        assert result[6] is None or len(result[6].cells) == load(path).width * load(path).height


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
    from nonolab.solvers.native.compiled import CompiledSpace
    line_solvable = Puzzle.from_solution(Solution.from_rows(["##.#", "#..#", ".##.", "#.##"]))
    space = CompiledSpace(line_solvable)
    assert space._engine.cache_slots() == 0
    space.run(None)
    assert space.counters()["nodes"] == 1 and space.counters()["probes"] == 0
    assert space._engine.cache_slots() == 0
    probed = load(PUZZLES / "hakank" / "nonunique.non")   # root probing, then a search
    space = CompiledSpace(probed)
    space.run(None)
    assert space.counters()["probes"] > 0
    assert space._engine.cache_slots() > 0
    assert CompiledSpace(probed, cache_bytes=0)._engine.cache_slots() == 0


def test_the_line_cache_starts_small_and_grows_with_its_use_up_to_its_budget():
    """A slot's first touch is a page fault, so the tables start at 2**10 slots and grow
    only when a search keeps storing new lines (a 25x25 root probing: 2.2 ms with the
    full tables made at once, 0.7 ms this way).  Growing drops what was cached, never an
    answer: the counts stay those of an uncached search."""
    from nonolab.solvers.native.compiled import CompiledSpace
    small = load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")  # root probing, few lines
    space = CompiledSpace(small)
    space.run(None)
    assert space.counters()["probes"] > 0 and space._engine.cache_slots() == 1 << 10
    busy = load(PUZZLES / "hakank" / "nonunique.non")  # every solution: a search that stores thousands
    grown, uncached = CompiledSpace(busy), CompiledSpace(busy, cache_bytes=0)
    out, plain = grown.run(None), uncached.run(None)
    assert 1 << 10 < grown._engine.cache_slots() <= 1 << 16
    assert sorted(out.solutions) == sorted(plain.solutions) and out.complete and plain.complete
    budget = 1500 * (2 * max(busy.width, busy.height) + 32)  # room for 1,500 slots: 1,024 at most
    tight = CompiledSpace(busy, cache_bytes=budget)
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
