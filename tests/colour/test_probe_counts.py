"""Native's colour probing keeps every solution (issue 23, item 1).

Full probing once narrowed a cell to the union of what only *some* of a probed cell's
three or more values left it (``colour_probe.probe`` took "changed by the latest trial"
for "changed by every trial"), so ``count`` undercounted with ``exact: true``: 4 for 6
on one 5x4 puzzle, 2 for 7 on another.  These tests hold native's colour count, at every
probing level it offers and through both step-log paths, to the wall's independent
brute force (:mod:`tests.wall.brute`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.formats import load
from nonolab.solvers import Limits, get
from nonolab.solvers.base import Given
from nonolab.solvers.native import NativeSolver
from tests.wall import brute
from tests.wall.puzzles import picture_case

DATA = Path(__file__).resolve().parents[1] / "data" / "colour"


def _truth(puzzle) -> set:
    return brute.solutions(puzzle.coloured_rows, puzzle.coloured_columns, puzzle.colours + 1)


def _count(puzzle, **options) -> set:
    result = get("native", **options).solve(puzzle, Limits(max_solutions=None))
    assert result.complete, options
    return {s.cells for s in result.solutions}


@pytest.mark.parametrize("name, expected", [("probe-six.xml", 6), ("probe-seven.xml", 7)])
def test_the_two_issue_puzzles_count_exactly_at_every_probing_level(name, expected):
    puzzle = load(DATA / name)
    truth = _truth(puzzle)
    assert len(truth) == expected
    for probing in NativeSolver.probings(puzzle):
        for record_steps in (False, True):
            options = dict(probing=probing.value, record_steps=record_steps)
            assert _count(puzzle, **options) == truth, options


@pytest.mark.parametrize("name, expected", [("probe-six.xml", "6"), ("probe-seven.xml", "7")])
def test_count_on_the_command_line(name, expected):
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    result = CliRunner().invoke(cli, ["count", "-b", "native", str(DATA / name)], catch_exceptions=False)
    assert result.exit_code == 0 and result.output.strip() == expected


def test_full_probing_at_the_root_leaves_every_solution_its_values():
    # The engine's root alone, below the search: after the line fixpoint (no probing)
    # the cell (2, 2) has three values, all consistent; after full probing each cell of
    # each solution must still be among its cell's values.
    from nonolab.solvers.native.colour import colour_engine

    puzzle = load(DATA / "probe-six.xml")
    line_only = colour_engine(puzzle, Given.of({}), 0)
    line_only.run(60.0, 1)
    assert bin(line_only.root_domains()[2 * puzzle.width + 2]).count("1") == 3
    engine = colour_engine(puzzle, Given.of({}), 2)
    engine.run(60.0, 1)
    dom = engine.root_domains()
    assert dom  # the root is consistent
    for solution in _truth(puzzle):
        flat = [v for row in solution for v in row]
        assert all(dom[i] >> v & 1 for i, v in enumerate(flat)), solution


def test_native_counts_random_colour_pictures_exactly_at_every_probing_level():
    # 400 sparse 6x6 pictures of 2-3 colours: the regime where the flaw showed most
    # (before the fix, about 10 of them lost solutions under full probing).
    wrong = []
    for i in range(400):
        case = picture_case(f"probe-{i}", 6, 6, 2 + i % 2, 0.3 + 0.1 * (i % 3 == 0))
        puzzle = case.puzzle()
        truth = brute.solutions(case.rows, case.columns, case.values)
        for probing in NativeSolver.probings(puzzle):
            if _count(puzzle, probing=probing.value) != truth:
                wrong.append((case.seed, probing.value))
    assert not wrong
