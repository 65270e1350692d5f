"""Native's hand-off waits for the end of the root's probing (``root_done``), with
``handoff_by`` as its upper bound; ``on_root`` reports the root's end."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver

# Root probing fixes 105 of its 165 cells and leaves a search (43 solutions).
PARTLY = Path(__file__).resolve().parents[2] / "puzzles" / "hakank" / "nonunique.non"
# Root probing takes about 0.5 s on a quiet machine, ten times a slice of the search.
GETTYS = (Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "webpbn-survey"
          / "webpbn-22336-gettys.non")


def _root_cells(puzzle) -> bytes:
    """The grid after the root's propagation and probing, by running one node."""
    space = NativeSolver()._space(puzzle, None)
    assert not space.root_done()
    space.run(None, None, 1)
    assert space.root_done()
    return space.remainder()


def test_root_done_says_when_the_root_is_over():
    puzzle = load(PARTLY)
    cells = _root_cells(puzzle)
    assert sum(state != 3 for state in cells) == 105


def test_handoff_comes_after_the_root_with_its_cells():
    puzzle = load(PARTLY)
    handed, rooted = [], []
    result = NativeSolver(handoff=handed.append, handoff_after=0, on_root=rooted.append).solve(
        puzzle, Limits(max_solutions=None))
    # The search goes on after both calls, to the same count as without them.
    assert result.complete and result.count == NativeSolver().solve(puzzle, Limits(max_solutions=None)).count > 1
    assert len(handed) == 1 and len(rooted) == 1
    assert bytes(handed[0].cells) == bytes(rooted[0].cells) == _root_cells(puzzle)


def test_on_root_is_not_called_when_the_root_settles_the_puzzle():
    rooted = []
    result = NativeSolver(on_root=rooted.append, handoff=rooted.append).solve(
        load("puzzles/webpbn/webpbn-00006-cat.non"))
    assert result.unique and rooted == []


def _handed_cells(puzzle, **options) -> int:
    """Known cells in what the hand-off gets; the search stops at the hand-off."""
    stop, handed = threading.Event(), []

    def handoff(grid):
        handed.append(grid)
        stop.set()

    NativeSolver(handoff=handoff, **options).solve(puzzle, Limits(max_solutions=2, cancel=stop))
    assert len(handed) == 1
    return sum(state != 3 for state in handed[0].cells)


@pytest.mark.skipif(not GETTYS.exists(), reason="../shared/corpus is not here")
def test_a_long_root_is_waited_for_and_handoff_by_bounds_the_wait():
    puzzle = load(GETTYS)
    root = sum(state != 3 for state in _root_cells(puzzle))
    # A zero budget still waits for the root's probing (0.5-2 s), not one slice of it.
    assert _handed_cells(puzzle, handoff_after=0) == root
    # handoff_by hands over whatever the root has proved by then.
    assert _handed_cells(puzzle, handoff_after=0, handoff_by=0) < root


# Settled by the first style within its first slice, so the search is deterministic
# (puzzles whose styles take turns by the clock are not).
_SEARCHED = ("hakank-classic/difficult.non", "webpbn-survey/webpbn-03541-signed.non")


@pytest.mark.parametrize("name", _SEARCHED)
def test_the_hooks_do_not_change_the_search(name):
    """Watching the root (auto's on_stuck and on_root) cuts the first style's slices
    short; the search must be the one native makes unwatched.  A cut once handed the
    rest of difficult.non to the second style: 2,175 nodes against 7."""
    path = GETTYS.parents[1] / name
    if not path.exists():
        pytest.skip("../shared/corpus is not here")
    puzzle = load(path)
    plain = NativeSolver().solve(puzzle, Limits(max_solutions=2))
    calls = []
    watched = NativeSolver(on_stuck=lambda grid: calls.append("stuck"),
                           on_root=lambda grid: calls.append("root")).solve(puzzle, Limits(max_solutions=2))
    assert "stuck" in calls
    for key in ("nodes", "styles", "probes"):
        assert watched.stats.counters[key] == plain.stats.counters[key], key
    assert watched.solutions == plain.solutions


def test_the_alarm_rings_once_between_slices_when_the_search_outlasts_it():
    rang = []
    started = time.perf_counter()
    result = NativeSolver(alarm=(0.05, lambda: rang.append(time.perf_counter() - started))).solve(
        Puzzle(rows=((1,),) * 10, columns=((1,),) * 10), Limits(max_solutions=None, time_limit=0.4))
    assert not result.complete and len(rang) == 1 and rang[0] >= 0.05     # once, and not before its time
    quiet = []
    assert NativeSolver(alarm=(60.0, lambda: quiet.append(1))).solve(load(PARTLY)).count == 2 and not quiet
