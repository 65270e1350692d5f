"""Long runs report progress (decided cells) and honour deadlines inside propagation."""

from __future__ import annotations

from nonolab.cli.progress import DecidedCells
from nonolab.generate import puzzle_from_array, smooth_grid
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.native import NativeSolver


def test_progress_is_reported_and_grows_on_a_large_grid():
    puzzle = puzzle_from_array(smooth_grid(600, 600, seed=5))
    seen = []
    result = NativeSolver(progress=lambda decided, total: seen.append((decided, total))).solve(puzzle)
    assert result.status is Status.SOLVED
    assert seen, "a 600x600 propagation should pause at least once"
    assert all(total == 600 * 600 for _, total in seen)
    decided = [d for d, _ in seen]
    assert decided == sorted(decided) and 0 < decided[-1] <= 600 * 600


def test_deadline_stops_a_long_propagation():
    puzzle = puzzle_from_array(smooth_grid(1500, 1500, seed=6))
    result = NativeSolver().solve(puzzle, Limits(time_limit=0.05))
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.stats.wall_time < 2.0


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
