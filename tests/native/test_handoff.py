"""Native's hand-off waits for the end of the root's probing (``root_done``), with
``hand_off_by`` as its upper bound; its observer's ``rooted`` reports the root's end."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from nonolab.core import Puzzle
from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.observer import HandOff, SearchObserver

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


class _Recorder(SearchObserver):
    """An observer that records what it is told, as (event, remainder) pairs."""

    def __init__(self, **watching):
        super().__init__(**watching)
        self.events = []

    def stuck(self, remainder):
        self.events.append(("stuck", remainder))

    def rooted(self, remainder):
        self.events.append(("root", remainder))

    def alarm(self):
        self.events.append(("alarm", time.perf_counter()))

    def hand_off(self, remainder):
        self.events.append(("hand-off", remainder))

    def seen(self, event):
        return [what for name, what in self.events if name == event]


def test_handoff_comes_after_the_root_with_its_cells():
    puzzle = load(PARTLY)
    observer = _Recorder(follows_root=True, hand_off_after=0)
    result = NativeSolver(observer=observer).solve(puzzle, Limits(max_solutions=None))
    handed, rooted = observer.seen("hand-off"), observer.seen("root")
    # The search goes on after both calls, to the same count as without them.
    assert result.complete and result.count == NativeSolver().solve(puzzle, Limits(max_solutions=None)).count > 1
    assert len(handed) == 1 and len(rooted) == 1
    assert bytes(handed[0].cells) == bytes(rooted[0].cells) == _root_cells(puzzle)


def test_rooted_is_not_called_when_the_root_settles_the_puzzle():
    observer = _Recorder(follows_root=True, hand_off_after=0.5)
    result = NativeSolver(observer=observer).solve(load("puzzles/webpbn/webpbn-00006-cat.non"))
    assert result.unique and observer.events == []


def _handed_cells(puzzle, **options) -> int:
    """Known cells in what the hand-off gets; the search stops at the hand-off."""
    stop, handed = threading.Event(), []

    def handoff(grid):
        handed.append(grid)
        stop.set()

    NativeSolver(observer=HandOff(handoff, **options)).solve(puzzle, Limits(max_solutions=2, cancel=stop))
    assert len(handed) == 1
    return sum(state != 3 for state in handed[0].cells)


@pytest.mark.skipif(not GETTYS.exists(), reason="../shared/corpus is not here")
def test_a_long_root_is_waited_for_and_handoff_by_bounds_the_wait():
    puzzle = load(GETTYS)
    root = sum(state != 3 for state in _root_cells(puzzle))
    # A zero budget still waits for the root's probing (0.5-2 s), not one slice of it.
    assert _handed_cells(puzzle, hand_off_after=0) == root
    # hand_off_by hands over whatever the root has proved by then.
    assert _handed_cells(puzzle, hand_off_after=0, hand_off_by=0) < root


# Settled by the first style within its first slice, so the search is deterministic
# (puzzles whose styles take turns by the clock are not).
_SEARCHED = ("hakank-classic/difficult.non", "webpbn-survey/webpbn-03541-signed.non")


@pytest.mark.parametrize("name", _SEARCHED)
def test_watching_does_not_change_the_search(name):
    """Watching the root (auto's observer: stuck and rooted) cuts the first style's slices
    short; the search must be the one native makes unwatched.  A cut once handed the
    rest of difficult.non to the second style: 2,175 nodes against 7."""
    path = GETTYS.parents[1] / name
    if not path.exists():
        pytest.skip("../shared/corpus is not here")
    puzzle = load(path)
    plain = NativeSolver().solve(puzzle, Limits(max_solutions=2))
    observer = _Recorder(follows_propagation=True, follows_root=True)
    watched = NativeSolver(observer=observer).solve(puzzle, Limits(max_solutions=2))
    assert observer.seen("stuck")
    for key in ("nodes", "styles", "probes"):
        assert watched.stats.counters[key] == plain.stats.counters[key], key
    assert watched.solutions == plain.solutions


def test_the_alarm_rings_once_between_slices_when_the_search_outlasts_it():
    # Counting the 10! solutions outlasts any limit here, and the limit is 40 times the
    # alarm's time: at 0.4 s, under load, checking the solutions found before the alarm
    # once used the search's time up before the alarm was looked at.
    observer = _Recorder(alarm_after=0.05)
    started = time.perf_counter()
    result = NativeSolver(observer=observer).solve(
        Puzzle(rows=((1,),) * 10, columns=((1,),) * 10), Limits(max_solutions=None, time_limit=2.0))
    rang = [at - started for at in observer.seen("alarm")]
    assert not result.complete and len(rang) == 1 and rang[0] >= 0.05     # once, and not before its time
    quiet = _Recorder(alarm_after=60.0)
    assert NativeSolver(observer=quiet).solve(load(PARTLY)).count == 2 and not quiet.events


def test_an_observer_that_watches_nothing_changes_nothing():
    puzzle = load(PARTLY)
    plain = NativeSolver().solve(puzzle, Limits(max_solutions=None))
    observer = _Recorder()
    watched = NativeSolver(observer=observer).solve(puzzle, Limits(max_solutions=None))
    assert observer.events == [] and watched.solutions == plain.solutions
    for key in ("nodes", "styles", "probes"):
        assert watched.stats.counters[key] == plain.stats.counters[key], key
