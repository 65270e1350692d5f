"""Long runs report progress (decided cells) and honour deadlines inside propagation."""

from __future__ import annotations

from nonolab.cli.progress import DecidedCells
from nonolab.core.grid import UNKNOWN
from nonolab.generate import puzzle_from_array, smooth_grid
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.native import NativeSolver


def test_progress_is_reported_and_grows_on_a_large_grid(monkeypatch):
    # Slices of no time: the engine pauses after each block of work, so the callback is
    # called however fast the machine (a 20 ms slice could hold the whole propagation).
    from nonolab.solvers.native import search
    monkeypatch.setattr(search, "SLICE_SECONDS", 0.0)
    puzzle = puzzle_from_array(smooth_grid(600, 600, seed=5))
    seen = []
    result = NativeSolver(progress=lambda decided, total: seen.append((decided, total))).solve(puzzle)
    assert result.status is Status.SOLVED
    assert len(seen) > 1, "a 600x600 propagation pauses between blocks of work"
    assert all(total == 600 * 600 for _, total in seen)
    decided = [d for d, _ in seen]
    assert decided == sorted(decided) and 0 < decided[-1] <= 600 * 600


def test_deadline_stops_a_long_propagation():
    puzzle = puzzle_from_array(smooth_grid(1500, 1500, seed=6))
    result = NativeSolver().solve(puzzle, Limits(time_limit=0.05))
    assert result.status is Status.TIMEOUT and not result.complete
    # Stopped inside the propagation, not after it: line logic alone decides this picture.
    assert result.remainder is not None and UNKNOWN in result.remainder.cells


def test_progress_bar_draws_only_when_asked(capsys):
    quiet = DecidedCells(delay=0.0, force=False)
    quiet.enabled = False
    quiet(5, 10)
    assert quiet._bar is None
    bar = DecidedCells(delay=0.0, force=True)
    bar(5, 10)
    assert bar._bar is not None
    bar.close()
    assert bar._bar is None


def test_long_searches_of_cheap_nodes_run_to_the_limit():
    # Many short slices grow the node and line budgets; they are capped to stay int64
    # (an uncapped line budget once overflowed on a random 30x30 after millions of nodes).
    from nonolab.core import Puzzle
    puzzle = Puzzle(rows=((1,),) * 9, columns=((1,),) * 9)  # 9! solutions, cheap nodes
    result = NativeSolver(restarts=False, probing="none").solve(puzzle, Limits(max_solutions=None, time_limit=3))
    assert result.status in (Status.SOLVED, Status.TIMEOUT)
    assert len(set(result.solutions)) == result.count > 0
