"""lcg's ``conflict_limit``: a work limit on the whole call, the same on any machine.

A search that needs more conflicts than the limit ends as at a deadline (``timeout``,
the solutions found kept, nothing claimed about the rest); the same search without it
gives its true word.  The limit holds across every slice and every engine of one call
(a count resumes its engine after each solution; ``interleave`` and ``rescue`` run
several engines): N conflicts in all, never N a run.  Everything here is counted in
conflicts, nothing timed.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.core import Palette, Puzzle, Solution
from nonolab.generate.grids import puzzle_from_array, random_grid
from nonolab.harness.uniqueness import Verdict, count, outcome_of
from nonolab.solvers import build, get
from nonolab.solvers.base import Limits, Status
from reference import n_dom

lcg = pytest.importorskip("nonolab.solvers.lcg")
try:
    lcg.engine_module()
except Exception as exc:  # noqa: BLE001 - the reason is shown in the skip
    pytest.skip(f"the lcg engine is not built: {exc}", allow_module_level=True)

NINE_DOM = Puzzle(*n_dom(9))   # unique; its count to 2 takes about 2,500 conflicts
HARD_FIRST = puzzle_from_array(random_grid(25, 25, 0.5, seed=0))   # 400 conflicts to its first solution


def _sparse(size: int, seed: int, colours: int = 1) -> Puzzle:
    """A sparse random picture's puzzle: many solutions, each found after a few conflicts."""
    if colours == 1:
        return puzzle_from_array(random_grid(size, size, 0.3, seed=seed))
    rnd = random.Random(seed)
    cells = [[rnd.randint(1, colours) if rnd.random() < 0.3 else 0 for _ in range(size)] for _ in range(size)]
    return Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(colours))


def test_a_count_that_needs_more_conflicts_says_timeout_and_unlimited_its_word():
    free = get("lcg").solve(NINE_DOM)
    needed = free.stats.counters["conflicts"]
    assert outcome_of(free) is Verdict.UNIQUE and needed > 200
    cut = get("lcg", conflict_limit=100).solve(NINE_DOM)
    assert cut.status is Status.TIMEOUT and not cut.complete and outcome_of(cut) is Verdict.TIMEOUT
    assert cut.stats.counters["conflicts"] == 100
    # What it found before the limit is kept, as at a deadline (9-Dom's solution needs no conflict).
    assert cut.solutions == free.solutions[:1] and cut.remainder is not None
    # The conflict that ends the search is inside the limit: exactly enough gives the word.
    assert outcome_of(get("lcg", conflict_limit=needed).solve(NINE_DOM)) is Verdict.UNIQUE
    assert outcome_of(get("lcg", conflict_limit=needed - 1).solve(NINE_DOM)) is Verdict.TIMEOUT


@pytest.mark.parametrize("slice_seconds", [0.03, 0.001])
def test_the_limit_holds_across_the_runs_of_one_count(slice_seconds):
    # Each solution ends one Engine.run, and 1 ms slices end many more: a limit given
    # to each run afresh would let this count go on to its 200 solutions.
    puzzle = _sparse(30, seed=1)
    free = get("lcg").solve(puzzle, Limits(200))
    assert free.count == 200 and free.stats.counters["conflicts"] > 300
    cut = get("lcg", conflict_limit=300, slice_seconds=slice_seconds).solve(puzzle, Limits(200))
    assert cut.status is Status.TIMEOUT and 0 < cut.count < 200
    assert cut.stats.counters["conflicts"] == 300 and cut.stats.counters["slices"] > 10
    # A reproducible search: the solutions before the limit are the unlimited search's first ones.
    assert cut.solutions == free.solutions[:cut.count]


def test_the_harness_count_is_held_to_it():
    puzzle = _sparse(30, seed=1)
    counted = count(puzzle, build("lcg:conflict_limit=300"))
    assert not counted.exact and counted.reason == "timeout"
    assert counted.result.stats.counters["conflicts"] == 300


@pytest.mark.parametrize("schedule", [{"interleave": 3}, {"rescue": 3}, {"rescue": 3, "rescue_with": "stable+hints"}])
@pytest.mark.parametrize("first", [True, False])
def test_the_limit_counts_every_engine_of_the_call(schedule, first):
    # interleave and rescue run two or three engines in turns until one finds the first
    # solution (this puzzle's takes them 242-913 conflicts), then the winner alone: N
    # conflicts in all of them, in the turns and after.
    puzzle, limits, limit = (HARD_FIRST, Limits(1), 150) if first else (NINE_DOM, Limits(2), 600)
    free = get("lcg", **schedule).solve(puzzle, limits)
    assert free.status is Status.SOLVED and free.stats.counters["conflicts"] > limit
    cut = get("lcg", conflict_limit=limit, **schedule).solve(puzzle, limits)
    counters = cut.stats.counters
    assert cut.status is Status.TIMEOUT and counters["conflicts"] == limit
    assert sum(v for k, v in counters.items() if k.startswith("conflicts_")) == limit


def test_colour_searches_are_held_to_it():
    puzzle = _sparse(12, seed=3, colours=2)
    free = get("lcg", probing=False).solve(puzzle, Limits(200))
    assert free.count == 200 and free.stats.counters["conflicts"] > 20
    cut = get("lcg", probing=False, conflict_limit=20).solve(puzzle, Limits(200))
    assert cut.status is Status.TIMEOUT and cut.count < 200 and cut.stats.counters["conflicts"] == 20
    assert cut.solutions == free.solutions[:cut.count]


def test_a_proof_under_the_limit_claims_nothing(tmp_path):
    proof = tmp_path / "proof.drat"
    cut = get("lcg", conflict_limit=50).prove(NINE_DOM, proof=proof)
    assert cut.status is Status.TIMEOUT and not cut.complete and cut.stats.counters["conflicts"] == 50


def test_the_cli_says_timeout_with_its_exit_code_and_refuses_bad_values(tmp_path):
    from nonolab.formats import dump
    path = tmp_path / "9-dom.non"
    dump(NINE_DOM, path)
    runner = CliRunner()
    cut = runner.invoke(cli, ["check", "-b", "lcg", "-O", "conflict_limit=100", str(path)])
    assert (cut.exit_code, cut.stdout.split()) == (1, ["timeout"])
    free = runner.invoke(cli, ["check", "-b", "lcg", str(path)])
    assert (free.exit_code, free.stdout.split()) == (0, ["unique"])
    for bad in ("abc", "-5", "0", "1.5"):
        refused = runner.invoke(cli, ["check", "-b", "lcg", "-O", f"conflict_limit={bad}", str(path)])
        lines = refused.stderr.splitlines()
        assert refused.exit_code == 2 and len(lines) == 1 and f"option conflict_limit={bad}" in lines[0], refused.stderr


def test_auto_takes_no_conflict_limit():
    # auto races engines on the clock; a work limit is one engine's (docs/limits.md): refused in one line.
    result = CliRunner().invoke(cli, ["check", "-b", "auto", "-O", "conflict_limit=5", "puzzles/nonolab/heart.non"])
    assert result.exit_code == 2 and "unknown option 'conflict_limit'" in result.stderr
