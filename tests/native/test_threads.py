"""The root's first line propagation on one thread and on several (search/sweep.cpp):
the same solutions, remainders, step logs and counters whatever the number of threads
and wherever the clock pauses it (issue 30 item 4).  The counters bound the work: more
threads never solve a line more."""

from __future__ import annotations

import random

import pytest

from nonolab.core import Puzzle
from nonolab.generate import puzzle_from_array, smooth_grid
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.compiled import engine_module
from nonolab.solvers.base import available_cores
from nonolab.solvers.native.search import SearchSpace

_FOUND, _EXHAUSTED = 1, 2


def _smooth(height: int, width: int, seed: int) -> Puzzle:
    return puzzle_from_array(smooth_grid(height, width, seed=seed))


def _speckled(height: int, width: int, seed: int, filled: float) -> Puzzle:
    """A random picture, ``filled`` of it filled (short blocks: probing and search)."""
    rng = random.Random(seed)
    return puzzle_from_array([[rng.random() < filled for _ in range(width)] for _ in range(height)])


# Lines of 128 cells or more are swept on several threads; narrow grids, rectangles
# both ways, and pictures that need probing and search.
PUZZLES = [_smooth(140, 200, 1), _smooth(200, 130, 2), _smooth(160, 160, 3), _smooth(150, 300, 4),
           _speckled(140, 130, 5, 0.7), _speckled(60, 140, 5, 0.6), _speckled(12, 150, 6, 0.5), _smooth(40, 30, 7)]


def _search(puzzle: Puzzle, threads: int, seconds: float = 1e9, record_steps: bool = False):
    """Up to three solutions, then the engine's counters, remainder and step log."""
    space = SearchSpace(puzzle, threads=threads, record_steps=record_steps)
    engine = space._engine
    solutions = []
    while len(solutions) < 3:
        code = engine.run(seconds, -1, 1 << 30, 1 << 30)
        if code == _FOUND:
            solutions.append(engine.cells())
        elif code == _EXHAUSTED:
            break
    log = engine.steps(0, engine.step_rows()) if record_steps else None
    return solutions, engine.stats(), engine.decided(), space.remainder(), log


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.width}x{p.height}")
def test_two_threads_do_what_one_does(puzzle):
    one = _search(puzzle, 1)
    assert one[0], "every puzzle here has a solution"
    assert _search(puzzle, 2) == one
    assert _search(puzzle, 3) == one


@pytest.mark.parametrize("puzzle", PUZZLES[:3], ids=lambda p: f"{p.width}x{p.height}")
def test_a_paused_sweep_goes_on_where_it_stopped(puzzle):
    # Slices of 0: the clock stops every sweep after its first blocks; the line solves
    # are the same (a paused sweep neither skips a line nor solves one again).
    whole = _search(puzzle, 1)
    for threads in (1, 2):
        solutions, stats, decided, _, _ = _search(puzzle, threads, seconds=0.0)
        assert solutions == whole[0] and decided == whole[2]
        assert stats[0] == whole[1][0]


def test_the_step_log_is_the_same_on_two_threads():
    puzzle = PUZZLES[0]
    one = _search(puzzle, 1, record_steps=True)
    two = _search(puzzle, 2, record_steps=True)
    assert one[4] and two == one
    rows = one[4]
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)  # steps in order


def test_a_contradiction_at_the_root_is_found_on_two_threads():
    # One more block in one row (the engine takes clues whose totals differ, which
    # Puzzle refuses): no arrangement, found by the root's line propagation.
    good = PUZZLES[2]
    rows = list(good.rows)
    rows[80] = rows[80] + (1,) if sum(rows[80]) + len(rows[80]) + 1 <= good.width else (good.width,)
    for threads in (1, 2):
        engine = engine_module().Engine(good.height, good.width, rows, good.columns, b"", 32 << 20, 2, 0,
                                        1 << 16, False, threads)
        assert engine.run(1e9, -1, 1 << 30, 1 << 30) == _EXHAUSTED
        assert engine.stats()[3] == 1  # no branch: the root's propagation failed


def test_the_threads_option_defaults_to_the_cores_and_is_checked(monkeypatch):
    with pytest.raises(ValueError):
        SearchSpace(PUZZLES[-1], threads=0)
    import nonolab.solvers.native as native
    made = []
    monkeypatch.setattr(native, "available_cores", lambda: 5)
    monkeypatch.setattr("nonolab.solvers.native.search.SearchSpace.__init__",
                        lambda self, *args, threads=1, **kw: made.append(threads))
    NativeSolver()._space(PUZZLES[-1], None)
    NativeSolver(threads=1)._space(PUZZLES[-1], None)
    assert made == [5, 1]
    assert available_cores() >= 1
    from nonolab.errors import InvalidArgument
    with pytest.raises(InvalidArgument):
        NativeSolver(threads=0)
