"""The checks every lcg search option is held to with its settings pushed hard (a mode switch,
a rephase, a vivification round or a shake at nearly every conflict): the same answers as the
brute force, or as lcg's default search.  Shared by test_lcg_modes, test_lcg_vivify and
test_lcg_seed, whose option sets differ and whose checks must not; and what a search did
(:func:`counters`), which test_lcg_seed and test_lcg_lookahead compare across runs; and a bad value
of an option refused in one line, by the library and the CLI (:func:`assert_refused_in_one_line`)."""

from __future__ import annotations

from typing import Any, Iterable

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers import build
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.lcg import LcgSolver
from reference import count_by_rows
from tests.certify.test_proving import PUZZLES
from tests.colour import brute

ALL = Limits(max_solutions=None)


def assert_counts_equal_brute_force(puzzle: Puzzle, settings: Iterable[dict[str, Any]]) -> None:
    """A black-and-white puzzle counted exactly, under each of ``settings``, as the rows' brute force counts it."""
    truth = count_by_rows(puzzle.rows, puzzle.columns)
    for options in settings:
        result = LcgSolver(**options).solve(puzzle, ALL)
        assert result.complete and result.count == truth, options
        assert result.status is (Status.SOLVED if truth else Status.UNSAT)


def assert_colour_solutions_equal_brute_force(puzzle: Puzzle, settings: Iterable[dict[str, Any]]) -> None:
    """A colour puzzle's solutions, under each of ``settings``, those of the colour brute force."""
    truth = brute.solutions(puzzle)
    for options in settings:
        result = LcgSolver(**options).solve(puzzle, ALL)
        assert result.complete and set(result.solutions) == truth, options


def assert_solutions_equal_the_default(puzzle: Puzzle, settings: Iterable[dict[str, Any]]) -> None:
    """Every solution, under each of ``settings``, those of lcg's default search."""
    alone = LcgSolver().solve(puzzle, ALL)
    for options in settings:
        result = LcgSolver(**options).solve(puzzle, ALL)
        assert result.complete and set(result.solutions) == set(alone.solutions), options


def counters(spec: str, puzzle: Puzzle, solutions: int | None, keys: Iterable[str]) -> dict[str, Any]:
    """The counters ``keys`` of the backend ``spec``'s search of ``puzzle`` to ``solutions``
    (conflicts, decisions, ...): deterministic for a given spec, so two runs compare equal."""
    found = build(spec).solve(puzzle, Limits(max_solutions=solutions)).stats.counters
    return {k: found[k] for k in keys}


def assert_refused_in_one_line(option: str, value: str, needs: str = "shake=5") -> None:
    """``option=value`` (beside ``needs``, the option it needs) refused by the library with the
    option named, and by ``nonolab check -b lcg`` in one line on stderr, exit 2."""
    with pytest.raises(InvalidArgument, match=f"backend 'lcg': option {option}={value}: expected"):
        build(f"lcg:{needs},{option}={value}")
    result = CliRunner().invoke(cli, ["check", "-b", "lcg", "-O", needs, "-O", f"{option}={value}",
                                      str(PUZZLES / "hakank" / "lambda.non")])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and f"option {option}={value}" in lines[0], result.stderr
