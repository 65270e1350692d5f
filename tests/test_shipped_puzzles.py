"""Every shipped puzzle has the solution count its index records."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from reference import count_by_rows

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
INDEX = list(csv.DictReader((PUZZLES / "index.csv").open(encoding="utf-8")))


def test_index_lists_every_file():
    assert {row["file"] for row in INDEX} == {str(p.relative_to(PUZZLES)) for p in PUZZLES.rglob("*.non")}


@pytest.mark.parametrize("row", INDEX, ids=[r["file"] for r in INDEX])
def test_exact_solution_count(row):
    puzzle = load(PUZZLES / row["file"])
    assert (puzzle.width, puzzle.height) == (int(row["width"]), int(row["height"]))
    expected = int(row["solutions"])
    # Ask for one more than expected: finding it, or not exhausting the space, would fail.
    result = NativeSolver().solve(puzzle, Limits(max_solutions=expected + 1))
    assert result.complete and result.count == expected
    if "row-product enumeration" in row["evidence"]:
        assert count_by_rows(puzzle.rows, puzzle.columns) == expected


@pytest.mark.parametrize("row", INDEX, ids=[r["file"] for r in INDEX])
def test_licence_allows_redistribution(row):
    assert row["license"] in {"MIT", "Apache-2.0", "CC-BY-3.0", "CC-BY-4.0", "CC0-1.0"}
    assert "license" in load(PUZZLES / row["file"]).metadata
