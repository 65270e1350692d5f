"""The native colour engine's probing and step log, grade on the colour corpus, and the
ambiguity report in colour."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from nonolab.core import Palette, Puzzle, Solution
from nonolab.core.grid import ValueGrid
from nonolab.harness.ambiguity import ambiguity_report
from nonolab.harness.classify import Grade, grade
from nonolab.solvers import Limits, get, replay
from nonolab.solvers.base import Given
from nonolab.solvers.steps import Step, Technique
from tests.colour import brute
from tests.colour.conftest import COLOUR, corpus_rows
from tests.colour.test_properties import colour_puzzles



LOGICAL = [r for r in corpus_rows() if "logical" in r["pbnsolve_verdict"]]


@pytest.mark.skipif(not LOGICAL, reason=f"the colour corpus is not at {COLOUR}")
@pytest.mark.parametrize("row", LOGICAL, ids=[r["file"] for r in LOGICAL])
def test_puzzles_pbnsolve_solves_by_logic_grade_line_or_probe_never_search(row):
    from nonolab.formats import load

    puzzle = load(COLOUR / row["file"])
    result = grade(puzzle)
    assert result.grade is not None and result.grade.rank <= Grade.FULL_PROBE.rank, result.as_dict()
    assert result.verdict.value == "unique"
    assert sum(result.steps.values()) > 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_the_colour_step_log_replayed_gives_the_solution_found(puzzle):
    result = get("native", record_steps=True).solve(puzzle, Limits(1))
    if result.solution is None:
        assert not brute.solutions(puzzle)
        return
    grid = ValueGrid(puzzle.height, puzzle.width)
    for _, grid in replay(puzzle, result.steps):
        pass
    assert grid.is_solved() and grid.to_solution() == result.solution
    assert all(0 <= v <= puzzle.colours for s in result.steps for _, _, v in s.cells)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=colour_puzzles(max_side=5))
def test_probing_never_removes_a_value_some_solution_takes(puzzle):
    # The root alone (one node): its domains after propagation and probing keep every
    # value of every solution.
    from nonolab.solvers.native.colour import colour_engine

    truth = brute.solutions(puzzle)
    for mode in (0, 1, 2):
        engine = colour_engine(puzzle, Given.of({}), mode)
        engine.run(60.0, 1)
        domains = engine.root_domains()
        if not domains:  # the root was a contradiction
            assert not truth, mode
            continue
        for solution in truth:
            for i, v in enumerate(solution.to_bytes()):
                assert domains[i] >> v & 1, (mode, i, v)


def test_probing_decides_what_line_logic_cannot_and_the_ladder_says_so():
    # Two solutions stay open to line logic on this picture (a one-colour 2x2 block that
    # may sit in two places is resolved by the second colour's column).
    puzzle = _probe_puzzle()
    line = get("native", probing="none", restarts=False, node_limit=1, record_steps=True).solve(puzzle, Limits(1))
    probed = get("native", probing="contradiction", restarts=False, node_limit=1,
                 record_steps=True).solve(puzzle, Limits(1))
    assert line.solution is None and probed.solution is not None
    assert any(s.technique is Technique.CONTRADICTION_PROBE for s in probed.steps)
    assert grade(puzzle).grade is Grade.CONTRADICTION_PROBE


def _probe_puzzle() -> Puzzle:
    """A unique colour puzzle that line logic alone leaves open: found once by a search
    over small random pictures (the test above checks both facts every run)."""
    import random

    rnd = random.Random(7)
    for _ in range(20000):
        h, w, k = rnd.randint(3, 5), rnd.randint(3, 5), rnd.randint(2, 3)
        cells = [[rnd.randint(1, k) if rnd.random() < 0.55 else 0 for _ in range(w)] for _ in range(h)]
        puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
        line = get("native", probing="none", restarts=False, node_limit=1).solve(puzzle, Limits(1))
        if line.solution is not None:
            continue
        probed = get("native", probing="contradiction", restarts=False, node_limit=1).solve(puzzle, Limits(1))
        if probed.solution is not None:
            return puzzle
    raise AssertionError("no puzzle that needs probing among the random pictures")


def test_a_colour_grade_stops_at_full_probing_then_searches():
    # Two solutions: no deduction finishes it; the colour engine has no depth-2 level.
    switch, _ = _two_colour_puzzle()
    result = grade(switch)
    assert result.grade is Grade.SEARCH and result.verdict.value == "multiple"
    assert result.harder_than is Grade.FULL_PROBE
    with pytest.raises(Exception, match="depth-2"):
        get("native", probing="depth-2").solve(switch, Limits(1))


def _two_colour_puzzle() -> tuple[Puzzle, set[tuple[int, int]]]:
    """A 4x4 picture with two solutions: two columns of colours 3 and 2 that trade places
    (found by a search over random pictures); and the cells where they differ."""
    goal = Solution.from_values([[3, 0, 1, 0], [2, 0, 1, 0], [0, 3, 0, 3], [0, 2, 0, 0]])
    puzzle = Puzzle.from_solution(goal, palette=Palette.default_for(3))
    first, second = brute.solutions(puzzle)
    differing = set(first.diff(second))
    assert {first[r][c] for r, c in differing} >= {2, 3}      # cells of several colours differ
    return puzzle, differing


@pytest.mark.parametrize("backend", ["cnf", "cpsat", "native"])
def test_the_ambiguity_report_in_colour_covers_exactly_the_cells_two_solutions_differ_in(backend):
    puzzle, differing = _two_colour_puzzle()
    report = ambiguity_report(puzzle, backend)
    assert report.verdict.value == "multiple" and report.solution_count == 2 and report.count_exact
    assert set(report.free) == differing
    assert {cell for region in report.regions for cell in region.cells} == differing
    assert [r.arrangements for r in report.regions] == [2] and report.regions_exact
    assert len(report.backbone) == 16 - len(differing)
    # The givens are colour values of the reference, and make the puzzle unique.
    assert report.givens_unique and all(report.reference[r][c] == v for r, c, v in report.givens)


def test_the_ambiguity_report_regions_cover_exactly_the_differing_cells_of_random_colour_puzzles():
    import random

    rnd = random.Random(11)
    checked = 0
    for _ in range(400):
        h, w, k = rnd.randint(2, 4), rnd.randint(2, 4), rnd.randint(2, 3)
        cells = [[rnd.randint(1, k) if rnd.random() < 0.6 else 0 for _ in range(w)] for _ in range(h)]
        puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))
        truth = brute.solutions(puzzle)
        if len(truth) < 2:
            continue
        report = ambiguity_report(puzzle)
        differ = {(i // w, i % w) for i in range(h * w) if len({s.to_bytes()[i] for s in truth}) > 1}
        assert set(report.free) == differ
        assert {cell for region in report.regions for cell in region.cells} == differ
        assert report.count_exact and report.solution_count == len(truth)
        checked += 1
        if checked == 25:
            break
    assert checked >= 10


def test_a_colour_step_names_its_colour_value():
    step = Step(Technique.LINE, ("row", 0), ((0, 0, 3),))
    puzzle = Puzzle.from_solution(Solution.from_values([[3]]), palette=Palette.default_for(3))
    (_, grid), = replay(puzzle, [step])
    assert grid.to_solution() == puzzle.goal
    with pytest.raises(ValueError):
        list(replay(puzzle, [step, Step(Technique.LINE, ("column", 0), ((0, 0, 2),))]))
