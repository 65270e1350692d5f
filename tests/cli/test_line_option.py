"""`--line` on the solving commands, the labelled step log of `explain`, and the listing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonolab.cli.main import cli
from nonolab.core import Puzzle, Solution
from nonolab.formats import dumps
from nonolab.solvers.native.modes import STRATEGIES

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
NONUNIQUE = str(PUZZLES / "hakank" / "nonunique.non")


@pytest.fixture
def overlap_puzzle(tmp_path):
    # Row 1 is "####." (a 4 in 5 cells: simple overlap fixes three cells at once),
    # row 2 a lone 1 next to a space, so its ends are out of every block's reach.
    picture = Solution.from_rows(["####.", "..#..", ".###.", "#.#.#"])
    path = tmp_path / "overlap.non"
    path.write_text(dumps(Puzzle.from_solution(picture), "non"))
    return str(path)


@pytest.mark.parametrize("line", tuple(STRATEGIES))
def test_count_with_each_line_strategy(run, line):
    result = run("count", NONUNIQUE, "--backend", "native", "--line", line, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["count"] == 43


def test_line_as_a_backend_option_and_through_auto(run):
    for args in (("-b", "native", "-O", "line=chain-range"), ("--line", "overlap")):
        result = run("check", NONUNIQUE, *args)
        assert result.exit_code == 1 and result.stdout.splitlines()[0] == "multiple"


def test_unknown_strategy_is_one_line_exit_2(run):
    result = run("solve", NONUNIQUE, "--line", "bogus")
    assert result.exit_code == 2 and "bogus" in result.output
    result = run("solve", NONUNIQUE, "-b", "native", "-O", "line=bogus")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "nonolab: error: backend 'native': option line=bogus: expected one of dp, chain-range, overlap, enumerate"]


def test_explain_chain_range_shows_the_human_techniques(run, overlap_puzzle):
    result = run("explain", overlap_puzzle, "--line", "chain-range", "-b", "native", "--no-grid")
    assert result.exit_code == 0
    assert "simple-overlap: row 1 sets 3 cells" in result.stdout
    assert "clue-exhaustion: " in result.stdout
    data = json.loads(run("explain", overlap_puzzle, "--line", "chain-range", "--json").stdout)
    techniques = {s["technique"] for s in data["steps"]}
    assert {"simple-overlap", "clue-exhaustion"} <= techniques and "line" not in techniques
    # The reference DP keeps its single label.
    data = json.loads(run("explain", overlap_puzzle, "--json").stdout)
    assert {s["technique"] for s in data["steps"]} == {"line"}


def test_backends_lists_the_strategies_and_variants(run):
    out = run("backends").stdout
    assert "native:line=chain-range" in out
    for name, strategy in STRATEGIES.items():
        assert name in out
    assert "dp           complete" in out and "overlap      incomplete" in out
