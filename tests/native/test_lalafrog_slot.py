"""LalaFrogKK's slot (``lalafrog_after``): a search style branching by LalaFrogKK's score,
given as many nodes as the first style, held to the naive oracle and to its own promise.

With restarts off the search is deterministic by nodes (the first style's turns grow by a
quarter of its nodes, the slot catches up after each), so node counts can be asserted.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import naive
from nonolab.bench.suites import items_of
from nonolab.core import Puzzle
from nonolab.core.violations import clues_of
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.compiled import available

pytestmark = pytest.mark.skipif(not available(), reason="the native engine is not built")


@st.composite
def pictures(draw, side: int = 6):
    """The clues of a random picture up to side x side (at least one solution)."""
    h, w = draw(st.integers(1, side)), draw(st.integers(1, side))
    bits = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    rows = [[int(bits[r * w + c]) for c in range(w)] for r in range(h)]
    return Puzzle(rows=tuple(clues_of(r) for r in rows),
                  columns=tuple(clues_of([rows[r][c] for r in range(h)]) for c in range(w)))


def _solutions(result) -> set[bytes]:
    return {bytes(2 if v else 1 for v in s.to_bytes()) for s in result.solutions}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures(), st.booleans(), st.sampled_from((None, 1, 3)))
def test_the_slot_finds_what_the_naive_search_finds(puzzle, restarts, node_limit):
    """Every solution, exactly, when the search is complete; 'unique' only then; a node
    limit may stop it (timeout), never make it answer wrong."""
    truth = set(naive.search(puzzle, "full").solutions)
    result = NativeSolver(restarts=restarts, lalafrog_after=0, node_limit=node_limit).solve(
        puzzle, Limits(max_solutions=None))
    assert _solutions(result) <= truth
    if result.complete:
        assert _solutions(result) == truth and result.count == len(truth)
    else:
        assert node_limit is not None and result.status == Status.TIMEOUT
    if result.unique:
        assert result.complete and len(truth) == 1


def test_the_slot_runs_and_its_search_is_lalafrogs():
    """7-Dom: Wu's rule searches 499 nodes, LalaFrogKK's 335.  With the slot from the first
    node the slot's search is LalaFrogKK's whole tree, and the search ends when it is
    exhausted, before the first style's (fails if the slot never runs: then the slot has
    no nodes and the search is Wu's, 499 nodes)."""
    puzzle = items_of(["ndom:7"])[0].puzzle
    limits = Limits(max_solutions=None)
    wu = NativeSolver(restarts=False, lalafrog_after=None).solve(puzzle, limits)
    frog = NativeSolver(restarts=False, branching="lalafrog").solve(puzzle, limits)
    both = NativeSolver(restarts=False, lalafrog_after=0).solve(puzzle, limits)
    assert both.complete and both.count == wu.count == frog.count == 1
    assert set(both.solutions) == set(wu.solutions)
    assert both.stats.counters["styles"] == 2
    assert both.stats.counters["slot_nodes"] == frog.stats.counters["nodes"]
    assert both.stats.counters["nodes"] - both.stats.counters["slot_nodes"] < wu.stats.counters["nodes"]
    again = NativeSolver(restarts=False, lalafrog_after=0).solve(puzzle, limits)
    nodes = ("nodes", "slot_nodes", "styles", "max_depth")  # by nodes, not time (a slice may split a round)
    assert [again.stats.counters[k] for k in nodes] == [both.stats.counters[k] for k in nodes]


def test_the_slot_waits_for_its_node_count():
    """The slot joins only once the first style has searched ``lalafrog_after`` nodes:
    below that the search is the first style's alone, node for node."""
    puzzle = items_of(["ndom:7"])[0].puzzle
    limits = Limits(max_solutions=None)
    wu = NativeSolver(restarts=False, lalafrog_after=None).solve(puzzle, limits)
    late = NativeSolver(restarts=False, lalafrog_after=wu.stats.counters["nodes"] + 1).solve(puzzle, limits)
    assert late.stats.counters["slot_nodes"] == 0 and late.stats.counters["styles"] == 1
    assert late.stats.counters["nodes"] == wu.stats.counters["nodes"] and late.solutions == wu.solutions


def test_the_slot_is_in_the_default_search():
    """By default the slot joins once the first style has searched 1,024 nodes: 8-Dom (Wu's
    rule alone: 3,865 nodes) gets it, and the answer stays the first style's."""
    puzzle = items_of(["ndom:8"])[0].puzzle
    alone = NativeSolver(restarts=False, lalafrog_after=None).solve(puzzle, Limits(max_solutions=2))
    default = NativeSolver(restarts=False).solve(puzzle, Limits(max_solutions=2))
    assert default.stats.counters["slot_nodes"] > 0 and alone.stats.counters["slot_nodes"] == 0
    assert default.complete and set(default.solutions) == set(alone.solutions) and default.count == 1


@pytest.mark.parametrize("record_steps", [False, True])
def test_a_budget_that_holds_the_search_but_not_the_slot_runs_without_the_slot(record_steps):
    """The slot is a speed-up (one more complete search of the same space), so a memory
    budget just under its need switches it off and the run goes on, the answer that of the
    search without it; before, the whole run was refused (TooLarge: grade and explain of a
    10,000x10,000 grid under the default 8 GiB).  A budget under the search's own need
    still refuses.  No clock: a 7-Dom and budgets in bytes."""
    from nonolab.errors import TooLarge
    from nonolab.formats.limits import InputLimits, applied

    puzzle = items_of(["ndom:7"])[0].puzzle
    cells = puzzle.width * puzzle.height
    limits = Limits(max_solutions=None)
    with_slot = NativeSolver(restarts=False, lalafrog_after=0, record_steps=record_steps)
    without = NativeSolver(restarts=False, lalafrog_after=None, record_steps=record_steps)
    need, rest = with_slot.memory_per_cell(puzzle), without.memory_per_cell(puzzle)
    assert need > rest
    alone = without.solve(puzzle, limits)
    with applied(InputLimits(max_memory=cells * need - 1)):
        assert with_slot.memory_per_cell(puzzle) == rest                  # the declared cost, without the slot
        result = with_slot.solve(puzzle, limits)
    assert result.complete and result.count == alone.count == 1 and result.solutions == alone.solutions
    assert result.stats.counters["slot_nodes"] == 0 and result.stats.counters["styles"] == 1
    assert result.stats.counters["nodes"] == alone.stats.counters["nodes"]
    assert [s.cells for s in result.steps] == [s.cells for s in alone.steps]
    with applied(InputLimits(max_memory=cells * need)):                  # just enough: the slot runs
        assert with_slot.solve(puzzle, limits).stats.counters["slot_nodes"] > 0
    with applied(InputLimits(max_memory=cells * rest - 1)), pytest.raises(TooLarge, match="beyond the memory budget"):
        with_slot.solve(puzzle, limits)                                     # the budget is still the limit
