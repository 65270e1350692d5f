"""The ambiguity report: backbone, regions and givens against brute force over all solutions."""

from __future__ import annotations

import doctest
import importlib
import json
from math import prod
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.errors import BackendUnavailable
from nonolab.formats import load
from nonolab.harness.ambiguity import AmbiguityReport, ambiguity_report
from nonolab.harness.uniqueness import Verdict
from nonolab.solvers import get
from nonolab.solvers.base import Given, Limits

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
NATIVE = get("native")
CPSAT = get("cpsat")

# Two solutions, which differ in one 2x2 block: rows 3-4, columns 4-5 (1-based).
ONE_SWITCH = Solution.from_rows(["###.##", ".##..#", "##.#..", "##..#.", "###...", ".###.."])
SWITCH_CELLS = ((2, 3), (2, 4), (3, 3), (3, 4))


def _all_solutions(puzzle: Puzzle) -> list[Solution]:
    result = NATIVE.solve(puzzle, Limits(max_solutions=None))
    assert result.complete
    return list(result.solutions)


def _brute_force(puzzle: Puzzle):
    """All solutions, and the backbone as their intersection."""
    solutions = _all_solutions(puzzle)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    backbone = {rc for rc in cells if len({s[rc[0]][rc[1]] for s in solutions}) == 1}
    return solutions, backbone


def _patterns(solutions, cells) -> int:
    return len({tuple(s[r][c] for r, c in cells) for s in solutions})


def _assert_regions_are_the_finest_product(report, solutions, backbone):
    """By the definition: the regions partition the free cells, the solutions are all
    the combinations of their arrangements, and no region splits into two parts that
    combine freely (every split of every region of up to 12 cells is tried).
    """
    free = [rc for rc in report.free]
    assert sorted(rc for r in report.regions for rc in r.cells) == sorted(free)
    assert not set(free) & backbone
    for region in report.regions:
        assert region.indivisible and region.arrangements_exact
        assert region.arrangements == _patterns(solutions, region.cells)
        cells = region.cells
        if len(cells) <= 12:
            first, rest = cells[0], cells[1:]
            for mask in range(2 ** len(rest) - 1):        # every proper part that holds the first cell
                part = [first] + [rc for k, rc in enumerate(rest) if mask >> k & 1]
                other = [rc for rc in cells if rc not in part]
                assert _patterns(solutions, part) * _patterns(solutions, other) != region.arrangements, part
    assert prod(r.arrangements for r in report.regions) == len(solutions)


def _assert_givens_make_it_unique(puzzle, report, solutions):
    fixed = {(r, c): v for r, c, v in report.givens}
    assert all(report.reference[r][c] == v for (r, c), v in fixed.items())
    check = CPSAT.solve(puzzle, Limits(max_solutions=None), given=Given.of(fixed))  # another backend
    assert check.unique and check.solution == report.reference
    for cell in fixed:              # irredundant: without any one of them, not unique
        rest = {k: v for k, v in fixed.items() if k != cell}
        assert sum(all(s[r][c] == v for (r, c), v in rest.items()) for s in solutions) >= 2


@st.composite
def pictures(draw):
    h = draw(st.integers(1, 5))
    w = draw(st.integers(1, 5))
    density = draw(st.sampled_from((0.3, 0.5, 0.7)))
    cells = draw(st.lists(st.floats(0, 1), min_size=h * w, max_size=h * w))
    return Solution(tuple(tuple(int(cells[r * w + c] < density) for c in range(w)) for r in range(h)))


@st.composite
def stacked(draw):
    """Two pictures of one width, one above the other, kept apart by an empty, a full and
    an empty row: their ambiguities are often independent, so there are several regions.
    """
    w = draw(st.integers(2, 4))
    parts = []
    for _ in range(2):
        h = draw(st.integers(2, 4))
        cells = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
        parts.append([tuple(int(v) for v in cells[r * w:(r + 1) * w]) for r in range(h)])
    return Solution(parts[0] + [(0,) * w, (1,) * w, (0,) * w] + parts[1])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(pictures(), stacked()), st.sampled_from((1, 3, 256)))
def test_backbone_and_regions_equal_brute_force(picture, enumerate_up_to):
    # enumerate_up_to=1 or 3 makes almost every answer come from a SAT question,
    # 256 from the enumerated solutions: both paths must give the same exact answer.
    puzzle = Puzzle.from_solution(picture).with_(goal=None)
    report = ambiguity_report(puzzle, "cnf", enumerate_up_to=enumerate_up_to)
    solutions, backbone = _brute_force(puzzle)
    assert set(report.backbone) == backbone and report.undecided == () and report.backbone_exact
    assert set(report.free) == {(r, c) for r in range(puzzle.height) for c in range(puzzle.width)} - backbone
    assert report.verdict is (Verdict.UNIQUE if len(solutions) == 1 else Verdict.MULTIPLE)
    assert report.reference in solutions
    assert report.solution_count <= len(solutions)
    assert report.complete and report.givens_unique
    if report.count_exact:
        assert report.solution_count == len(solutions)
    else:   # a group with more arrangements than enumerate_up_to: a bound, said so
        assert enumerate_up_to < len(solutions)
    if report.regions_exact and report.count_exact:
        _assert_regions_are_the_finest_product(report, solutions, backbone)
    for region in report.regions:
        assert region.arrangements <= _patterns(solutions, region.cells)
        assert region.arrangements_exact == (region.arrangements == _patterns(solutions, region.cells)) or (
            not region.arrangements_exact)
        if region.indivisible and not region.arrangements_exact:   # one linked component: one region
            assert len(report.regions) == 1 or _patterns(solutions, region.cells) > enumerate_up_to
    if enumerate_up_to == 256:
        assert report.count_exact and report.regions_exact
    _assert_givens_make_it_unique(puzzle, report, solutions)


def test_one_elementary_switch_is_named_at_its_cells():
    puzzle = Puzzle.from_solution(ONE_SWITCH).with_(goal=None)
    for enumerate_up_to in (1, 256):
        report = ambiguity_report(puzzle, enumerate_up_to=enumerate_up_to)
        assert report.verdict is Verdict.MULTIPLE and report.complete
        assert [(r.kind, r.cells, r.adjacent, r.arrangements) for r in report.regions] == [
            ("switch", SWITCH_CELLS, True, 2, )]
        assert report.regions[0].describe() == "2x2 switch at rows 3-4, columns 4-5"
        assert len(report.backbone) == 32 and len(report.givens) == 1
        _assert_givens_make_it_unique(puzzle, report, _all_solutions(puzzle))


def test_two_independent_switches_are_two_regions_and_need_two_givens():
    # The switch picture twice, one above the other, kept apart by a full row: 4 solutions.
    # The switches share columns, so they are one group; enumerating it splits it exactly.
    rows = [*ONE_SWITCH, (0,) * 6, (1,) * 6, (0,) * 6, *ONE_SWITCH]
    puzzle = Puzzle.from_solution(Solution(rows)).with_(goal=None)
    assert len(_all_solutions(puzzle)) == 4
    lower = tuple((r + 9, c) for r, c in SWITCH_CELLS)
    report = ambiguity_report(puzzle)
    assert report.stats["groups"] == 1 and report.count_exact and report.solution_count == 4
    assert [(r.kind, r.cells) for r in report.regions] == [("switch", SWITCH_CELLS), ("switch", lower)]
    assert report.regions_exact and len(report.givens) == 2 and report.givens_unique and report.complete
    # With too few arrangements enumerated the group stays whole, and the report says
    # it may split (the linked cells form two components), without calling it exact.
    capped = ambiguity_report(puzzle, enumerate_up_to=2)
    assert not capped.count_exact and 2 <= capped.solution_count <= 4
    (region,) = capped.regions
    assert region.cells == tuple(sorted(SWITCH_CELLS + lower)) and region.kind == "region"
    assert not region.indivisible and region.max_parts == 2 and not region.arrangements_exact
    assert not capped.regions_exact and capped.complete
    assert "may split into up to 2 independent parts" in region.describe()
    assert len(capped.givens) == 2 and capped.givens_unique


def test_a_rectangle_switch_is_a_switch_but_not_adjacent():
    puzzle = Puzzle(rows=((1,), (1,)), columns=((1,), (), (1,)))
    report = ambiguity_report(puzzle)
    assert [(r.kind, r.adjacent, r.cells) for r in report.regions] == [
        ("switch", False, ((0, 0), (0, 2), (1, 0), (1, 2)))]
    assert report.regions[0].describe() == "rectangle switch at rows 1-2, columns 1-3"
    assert report.backbone == ((0, 1), (1, 1))


def test_a_unique_puzzle_has_every_cell_in_its_backbone():
    puzzle = load(PUZZLES / "webpbn" / "webpbn-00023-edge.non")
    report = ambiguity_report(puzzle)
    assert report.verdict is Verdict.UNIQUE and report.complete and report.count_exact
    assert len(report.backbone) == puzzle.width * puzzle.height
    assert report.free == report.regions == report.givens == ()
    assert report.reference == CPSAT.solve(puzzle).solution


def test_a_contradiction_is_said_so():
    report = ambiguity_report(load(PUZZLES / "nonolab" / "contradiction.non"))
    assert report.verdict is Verdict.CONTRADICTION and report.complete
    assert report.reference is None and report.backbone == () and report.as_dict()["reference"] is None


def test_the_shipped_43_solution_puzzle_with_one_question():
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")
    report = ambiguity_report(puzzle)
    # Bounded work, not time: its 43 solutions fit under the cap, so one count answers
    # every later question from the pool.
    assert report.stats["questions"] == 1 and report.stats["solutions_kept"] == 43
    solutions, backbone = _brute_force(puzzle)
    assert len(solutions) == 43 and report.solution_count == 43 and report.count_exact and report.complete
    assert set(report.backbone) == backbone
    _assert_regions_are_the_finest_product(report, solutions, backbone)
    assert len(report.regions) == 1        # 43 is prime: no product of smaller parts
    _assert_givens_make_it_unique(puzzle, report, solutions)


def test_cpsat_gives_the_same_report_as_cnf():
    puzzle = load(PUZZLES / "hakank" / "t2.non")
    mine, theirs = ambiguity_report(puzzle, "cnf"), ambiguity_report(puzzle, CPSAT, enumerate_up_to=1)
    assert theirs.backend == "cpsat" and theirs.complete
    assert (mine.backbone, mine.free, [r.cells for r in mine.regions]) == (
        theirs.backbone, theirs.free, [r.cells for r in theirs.regions])


def test_the_goal_is_the_reference_and_the_givens_follow_it():
    puzzle = Puzzle.from_solution(ONE_SWITCH)          # the goal is the first picture
    report = ambiguity_report(puzzle)
    assert report.reference == ONE_SWITCH
    (r, c, v), = report.givens
    assert ONE_SWITCH[r][c] == v


def test_a_time_limit_never_passes_partial_data_as_exact():
    # 20x20 permutation matrices: 20! solutions, no backbone cell, one region.
    puzzle = Puzzle(rows=((1,),) * 20, columns=((1,),) * 20)
    report = ambiguity_report(puzzle, time_limit=0.2)
    # Without the limit this report would never end (20! solutions): that it ended,
    # incomplete, is the limit honoured.
    assert not report.complete
    assert report.backbone == ()                           # no cell is backbone: none claimed
    assert report.verdict in (Verdict.MULTIPLE, Verdict.TIMEOUT)
    assert not (report.backbone_exact and report.regions_exact and report.givens_unique)
    if not report.backbone_exact:
        assert report.undecided and not report.regions_exact
    data = report.as_dict()
    assert data["complete"] is False


def test_as_dict_is_json_with_every_field():
    data = json.loads(json.dumps(ambiguity_report(Puzzle.from_solution(ONE_SWITCH)).as_dict()))
    assert {"verdict", "complete", "backend", "reference", "solution_count", "count_exact", "backbone",
            "free_cells", "undecided_cells", "regions", "givens", "stats"} <= set(data)
    assert data["backbone"]["exact"] and data["backbone"]["size"] == 32
    assert data["regions"]["items"][0]["kind"] == "switch"
    assert data["givens"]["method"] == "greedy" and data["givens"]["unique"] is True


def test_bad_arguments_are_typed_errors():
    puzzle = Puzzle.from_solution(ONE_SWITCH)
    with pytest.raises(BackendUnavailable, match="does not take given cells"):
        ambiguity_report(puzzle, "backtrack")
    with pytest.raises(ValueError, match="reference"):
        ambiguity_report(puzzle, reference=Solution.from_rows(["#"]))
    with pytest.raises(ValueError, match="time_limit"):
        ambiguity_report(puzzle, time_limit=0)
    assert isinstance(ambiguity_report(puzzle, get("cnf", solver="glucose4")), AmbiguityReport)


@pytest.mark.parametrize("name", ["nonolab.harness.ambiguity", "nonolab.render", "nonolab.solvers.base",
                                  "nonolab.solvers.cnf.solver"])
def test_doctests(name):
    assert doctest.testmod(importlib.import_module(name)).failed == 0


def test_a_cap_equal_to_the_count_still_gives_an_exact_count():
    # hakank/t2 has exactly 2 solutions: enumerating up to 2 must prove there is no 3rd.
    from nonolab.formats import load
    puzzle = load(Path(__file__).resolve().parents[2] / "puzzles" / "hakank" / "t2.non")
    report = ambiguity_report(puzzle, "cnf", enumerate_up_to=2)
    assert report.count_exact and report.solution_count == 2


def test_a_report_stopped_before_any_solution_leaves_every_cell_undecided():
    # Nothing was learnt, so nothing may look classified: every cell is undecided.
    puzzle = Puzzle(rows=((1,),) * 20, columns=((1,),) * 20)
    report = ambiguity_report(puzzle, time_limit=0.001)
    assert report.reference is None and not report.complete
    assert report.verdict is Verdict.TIMEOUT
    assert len(report.undecided) == 400 and not report.backbone_exact and report.backbone == ()
