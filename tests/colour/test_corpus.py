"""Every puzzle of the shared colour corpus (read by path, never copied), on every
colour backend: the verdict is pbnsolve's, the solution is the goal where unique, and
every solution passes the independent checker."""

from __future__ import annotations


import pytest

from nonolab.core import violations
from nonolab.errors import InvalidArgument
from nonolab.formats import load
from nonolab.solvers import Limits, get
from tests.colour.conftest import COLOUR, COLOUR_BACKENDS, OTHER_BACKENDS, corpus_rows



ROWS = corpus_rows()
pytestmark = pytest.mark.skipif(not ROWS, reason=f"the colour corpus is not at {COLOUR}")


def test_the_corpus_has_its_28_puzzles_and_both_verdicts():
    assert len(ROWS) == 28
    assert {r["pbnsolve_verdict"].split()[-1] if "unique" in r["pbnsolve_verdict"] else r["pbnsolve_verdict"]
            for r in ROWS} >= {"multiple"}
    assert COLOUR_BACKENDS, "no backend declares colour"


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_every_colour_backend_gives_pbnsolves_verdict(row, colour_backend):
    puzzle = load(COLOUR / row["file"])
    assert puzzle.is_colour and puzzle.size == (int(row["width"]), int(row["height"]))
    assert puzzle.colours == int(row["colours"])
    result = get(colour_backend).solve(puzzle, Limits(max_solutions=2))
    assert result.complete or result.count == 2
    for solution in result.solutions:
        assert violations(puzzle, solution) == []
    if "unique" in row["pbnsolve_verdict"]:
        assert result.unique
        if puzzle.goal is not None:
            assert result.solution == puzzle.goal
    else:
        assert row["pbnsolve_verdict"] == "multiple" and result.count == 2


def test_viceres_has_four_solutions_on_every_colour_backend(colour_backend):
    puzzle = load(COLOUR / "olsak-grid" / "viceres.xml")
    result = get(colour_backend).solve(puzzle, Limits(max_solutions=None))
    assert result.complete and result.count == 4


@pytest.mark.parametrize("name", OTHER_BACKENDS)
def test_backends_without_colour_refuse_it_naming_those_with_it(name):
    puzzle = load(COLOUR / "nonny" / "test.xml")
    with pytest.raises(InvalidArgument) as info:
        get(name).solve(puzzle)
    message = str(info.value)
    assert f"backend {name!r}" in message and all(n in message for n in COLOUR_BACKENDS)


def test_given_cells_restrict_colour_counts_on_every_colour_backend(colour_backend):
    from nonolab.solvers import Given

    puzzle = load(COLOUR / "olsak-grid" / "viceres.xml")
    every = get("cpsat").solve(puzzle, Limits(max_solutions=None)).solutions
    assert len(every) == 4
    for cell in ((0, 0), (1, 2), (3, 3)):
        for value in range(puzzle.colours + 1):
            expected = sum(s[cell[0]][cell[1]] == value for s in every)
            result = get(colour_backend).solve(puzzle, Limits(max_solutions=None), Given.of({cell: value}))
            assert result.complete and result.count == expected, (cell, value)


@pytest.mark.parametrize("cdcl", [None, "cpsat"])
def test_auto_gives_colour_puzzles_to_a_cdcl_backend_that_declares_colour(cdcl):
    # Its own cdcl engine when that declares colour, else CP-SAT.
    auto = get("auto", cdcl=cdcl) if cdcl else get("auto")
    result = auto.solve(load(COLOUR / "nonny" / "rainbow.xml"))
    expected = auto.cdcl if auto.cdcl in COLOUR_BACKENDS else "cpsat"
    assert result.unique and result.stats.counters["phase"] == expected


def test_auto_takes_a_colour_step_log_from_native():
    puzzle = load(COLOUR / "nonny" / "rainbow.xml")
    result = get("auto", record_steps=True).solve(puzzle)
    assert result.unique and result.stats.counters["phase"] == "native"
    assert result.steps and result.steps == get("native", record_steps=True).solve(puzzle).steps


def test_crosscheck_of_a_colour_puzzle_runs_the_backends_that_take_it():
    from nonolab.harness.crosscheck import Agreement, crosscheck

    puzzle = load(COLOUR / "nonny" / "tree.xml")
    default = crosscheck(puzzle)
    assert default.agreement is Agreement.AGREE
    assert {a.backend for a in default.answers} == set(COLOUR_BACKENDS) - {"backtrack", "dlx"}
    named = ["dlx", *COLOUR_BACKENDS]
    assert crosscheck(puzzle, named, capable_only=True).agreement is Agreement.AGREE
    assert crosscheck(puzzle, named).agreement is not Agreement.AGREE    # dlx answers with its refusal
