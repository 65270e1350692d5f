"""Probing paused by a budget and resumed does exactly what one uninterrupted probing does.

The search pauses a probing sweep after a budget of probed cells, so that it can look
at the clock between slices; the sweep goes on from its cursor.  The result (the
grid, the trail, the branching scores, the counters) must not depend on where it
was cut.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from nonolab.core import Puzzle
from nonolab.core.violations import clues_of
from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.probe import probe
from nonolab.solvers.native.propagate import propagate
from nonolab.solvers.native.search import Workspace

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def _random_puzzle(seed: int, side: int = 8) -> Puzzle:
    rng = random.Random(seed)
    bits = [[int(rng.random() < 0.5) for _ in range(side)] for _ in range(side)]
    return Puzzle(rows=tuple(clues_of(r) for r in bits),
                  columns=tuple(clues_of([r[c] for r in bits]) for c in range(side)))


def _probe_in_calls(puzzle: Puzzle, mode: int, budget: int):
    """Root propagation, then probing called until it ends; what it left, and the calls."""
    space = Workspace(puzzle).arrays
    h, w = puzzle.height, puzzle.width
    space.lines.dirty[:] = 1
    ok = propagate(space.cells, h, w, space.lines, space.trail, space.log, -1, True)
    calls = 0
    while ok == 1 or ok == 2:
        calls += 1
        ok = probe(space.cells, h, w, mode, space.lines, space.probes, space.trail, space.log, 1 << 30, budget)
        if ok != 2:
            break
    unknown = space.cells == 3
    scores = (np.where(unknown, space.probes.score0, 0), np.where(unknown, space.probes.score1, 0))
    trail = space.trail.cells[: space.trail.n[0]].tobytes()
    return ok, space.cells.tobytes(), trail, scores, space.lines.stats.copy(), calls


CASES = [load(PUZZLES / "hakank" / "nonunique.non"), load(PUZZLES / "nonolab" / "probe-merge.non"),
         load(PUZZLES / "nonolab" / "probe-contradiction.non"), load(PUZZLES / "webpbn" / "webpbn-26167.non")] + [
    _random_puzzle(seed) for seed in range(12)]


@pytest.mark.parametrize("mode", [1, 2])
@pytest.mark.parametrize("index", range(len(CASES)))
def test_a_paused_probing_ends_where_an_uninterrupted_one_does(index, mode):
    puzzle = CASES[index]
    whole = _probe_in_calls(puzzle, mode, -1)
    assert whole[-1] == 1
    for budget in (1, 3):
        cut = _probe_in_calls(puzzle, mode, budget)
        assert cut[:3] == whole[:3]
        assert all((a == b).all() for a, b in zip(cut[3], whole[3]))
        assert (cut[4] == whole[4]).all()  # the same probes and line solves, counted once


def test_some_case_really_pauses():
    # The cases above must exercise the pause: with a budget of one cell, several calls.
    assert any(_probe_in_calls(p, 2, 1)[-1] > 2 for p in CASES)


def test_the_search_gives_the_same_counts_with_tiny_slices(monkeypatch):
    """The search driver's slices start at 256 probes; with 1 every node pauses and resumes."""
    import importlib

    search_module = importlib.import_module("nonolab.solvers.native.search")

    expected = [NativeSolver().solve(p, Limits(max_solutions=None, time_limit=60)).count for p in CASES[:6]]
    original = search_module.search_run

    def tiny_slices(space, h, w, mode, budget, probe_depth, deep_sweeps, line_budget):
        # line_budget 1: one line solve / one probed cell per call
        return original(space, h, w, mode, budget, probe_depth, deep_sweeps, 1)

    monkeypatch.setattr(search_module, "search_run", tiny_slices)
    got = [NativeSolver().solve(p, Limits(max_solutions=None, time_limit=60)).count for p in CASES[:6]]
    assert got == expected


SIGNED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "webpbn-survey" / "webpbn-03541-signed.non"


@pytest.mark.skipif(not SIGNED.exists(), reason="../shared/corpus is not beside the repository")
def test_a_dear_line_strategy_still_honours_the_time_limit():
    """With enumerate, one probed cell of Signed (60x50) costs tens of milliseconds and a
    sweep minutes: before probing paused, a 2 s limit ended after one 256-cell slice
    (over 10 s).  Now the slices are a few cells, so the clock is seen in time."""

    solver = NativeSolver(line="enumerate")
    solver.solve(CASES[0], Limits(2, 30))  # compile outside the timed part
    result = solver.solve(load(SIGNED), Limits(max_solutions=2, time_limit=2))
    # How soon after the limit it ends is a benchmark's question; here, that the limit ends it.
    assert result.status.value == "timeout" or result.complete
