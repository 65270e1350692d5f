"""The designer's report and the repair: fields, warnings, difficulty, and the fewest flips against brute force."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument
from nonolab.formats import load
from nonolab.harness.classify import Grade, GradeResult
from nonolab.harness.repair import repair
from nonolab.harness.report import clue_decides, clue_only_cells, clue_only_count, difficulty_of, report
from nonolab.solvers import get
from nonolab.harness.uniqueness import Verdict
from nonolab.solvers.base import Limits

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
NATIVE = get("native")
CNF = get("cnf")


def _unique(picture: bytes, width: int, solver=NATIVE) -> bool:
    puzzle = Puzzle.from_solution(Solution.from_bytes(picture, width))
    return solver.solve(puzzle, Limits(2)).unique


def _flip(picture: bytes, cells) -> bytes:
    out = bytearray(picture)
    for i in cells:
        out[i] ^= 1
    return bytes(out)


def _ambiguous_pictures(size: int, count: int, seed: int) -> list[Solution]:
    """Random pictures whose clues have several solutions."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        cells = rng.random((size, size)) < 0.5
        picture = Solution(cells.astype(np.uint8).tolist())
        if not _unique(picture.to_bytes(), size):
            found.append(picture)
    return found


@pytest.mark.parametrize("picture", _ambiguous_pictures(5, 6, seed=7), ids=lambda p: p.to_text().replace("\n", "/"))
def test_the_repair_flips_the_fewest_cells_brute_force_over_sets_of_up_to_two(picture):
    data, width = picture.to_bytes(), picture.width
    cells = range(len(data))
    by_size = {k: {frozenset(s) for s in itertools.combinations(cells, k) if _unique(_flip(data, s), width)}
               for k in (1, 2)}
    fewest = next((k for k in (1, 2) if by_size[k]), None)
    result = repair(Puzzle.from_solution(picture), max_flips=2, suggestions=50)
    assert result.status == "repaired" and result.source == "goal"
    if fewest is None:                     # no repair of one or two flips exists: the search proves it
        assert not result.minimal and result.lower_bound >= 3 and len(result.best.flips) >= 3
    else:
        assert result.minimal and result.method == "exact"
        assert {len(s.flips) for s in result.suggestions} == {fewest}
        found = {frozenset(r * width + c for r, c, _ in s.flips) for s in result.suggestions}
        assert found <= by_size[fewest]
        # asked for up to 50, it lists every repair of the fewest flips (when there are fewer)
        assert len(found) == min(50, len(by_size[fewest]))
    for s in result.suggestions:
        assert s.unique and CNF.solve(s.puzzle, Limits(None)).count == 1   # another backend, an exhaustive count
        assert all(picture[r][c] != v for r, c, v in s.flips)
        assert s.puzzle.goal.diff(picture) == sorted((r, c) for r, c, _ in s.flips)


def test_a_repair_beyond_max_flips_is_greedy_proven_unique_and_not_called_minimal():
    pictures = _ambiguous_pictures(6, 12, seed=3)
    for picture in pictures:
        exact = repair(Puzzle.from_solution(picture), max_flips=2)
        if exact.minimal and len(exact.best.flips) == 2:
            break
    else:
        pytest.fail("no picture needing two flips among the samples")
    greedy = repair(Puzzle.from_solution(picture), max_flips=1)
    assert greedy.method == "greedy" and not greedy.minimal and greedy.lower_bound == 2
    assert greedy.best.unique and len(greedy.best.flips) >= 2
    assert CNF.solve(greedy.best.puzzle, Limits(None)).count == 1


def test_repair_statuses_and_bad_input():
    car = load(PUZZLES / "hakank" / "car.non")
    assert repair(car).status == "unique" and repair(car).suggestions == ()
    none = repair(load(PUZZLES / "nonolab" / "contradiction.non"))
    assert none.status == "contradiction" and none.picture is None and none.source is None   # no picture, no source
    simple = load(PUZZLES / "hakank" / "simple2.non")
    assert repair(simple).source == "first solution"
    with pytest.raises(InvalidArgument):
        repair(simple, picture=Solution.from_rows(["####"] * 4))
    with pytest.raises(InvalidArgument):
        repair(simple, max_flips=0)


def test_the_report_of_a_unique_puzzle():
    car = load(PUZZLES / "hakank" / "car.non")
    r = report(car, backend="native")
    assert r.verdict == "unique" and r.alternative is None and r.repair is None and r.ambiguity is None
    assert r.grade.grade is Grade.LINE and 0 <= r.difficulty < 1 and r.complete
    data = r.as_dict()
    assert data["verdict"] == "unique" and data["solution"] == r.solution.to_text().splitlines()
    assert "not-unique" not in {w.code for w in r.warnings}


def test_the_report_of_a_puzzle_with_several_solutions():
    simple = load(PUZZLES / "hakank" / "simple2.non")
    r = report(simple, backend="native")
    assert r.verdict == "multiple" and r.alternative is not None and r.alternative != r.solution
    assert set(r.differing) == set(r.solution.diff(r.alternative))
    assert r.ambiguity.regions and r.givens
    assert r.repair.status == "repaired" and r.repair.best.unique and r.repair.minimal
    assert r.grade.grade is Grade.SEARCH and 4 <= r.difficulty < 5
    assert "not-unique" in {w.code for w in r.warnings}
    data = r.as_dict()
    assert data["repair"]["flips"] == len(r.repair.best.flips) and data["givens"]["unique"]


def test_the_report_of_a_contradiction_and_without_repair():
    r = report(load(PUZZLES / "nonolab" / "contradiction.non"), backend="native")
    assert r.verdict == "contradiction" and r.solution is None and "no-solution" in {w.code for w in r.warnings}
    r = report(load(PUZZLES / "hakank" / "simple2.non"), backend="native", repair=False)
    assert r.verdict == "multiple" and r.repair is None


def test_givens_that_contradict_solvable_clues_are_said_to_be_the_cause():
    # It said "the clues have no solution" of clues that have one (##/..): the given excludes it.
    from nonolab.core import Puzzle
    clues = dict(rows=((2,), ()), columns=((1,), (1,)))
    assert report(Puzzle(**clues), backend="native").verdict is Verdict.UNIQUE
    r = report(Puzzle(**clues, givens={(1, 0): 1}), backend="native")
    said = {w.code: w.message for w in r.warnings}
    assert r.verdict is Verdict.CONTRADICTION
    assert said["no-solution"] == "the clues and the 1 given cell have no solution together"


@pytest.mark.parametrize("backend", ["native", "auto"])
def test_a_contradiction_is_not_graded(backend):
    # a2cd917 said "none", then graded it "line" with difficulty 0.111.
    r = report(load(PUZZLES / "nonolab" / "contradiction.non"), backend=backend)
    assert r.verdict is Verdict.CONTRADICTION and r.grade is None and r.difficulty is None and r.complete
    data = r.as_dict()
    assert (data["verdict"], data["grade"], data["difficulty"], data["count"], data["exact"]) == (
        "contradiction", None, None, 0, True)


def test_every_part_of_the_report_shows_and_starts_from_one_solution():
    # A backend whose witnesses change from call to call (as a race's do with timing):
    # a2cd917 repaired "the first solution" of another count than the one it printed.
    import fake_backends
    from nonolab.solvers import _REGISTRY

    _REGISTRY["rotating"] = ("fake_backends", "RotatingPairSolver", None, "solver")
    try:
        puzzle = load(PUZZLES / "hakank" / "nonunique.non")
        for _ in range(4):
            r = report(puzzle, backend="rotating")
            assert r.verdict == Verdict.MULTIPLE and r.solution != r.alternative
            assert r.repair.picture == r.solution == r.ambiguity.reference
            assert r.repair.best.puzzle.goal.diff(r.solution) == [(a, b) for a, b, _ in r.repair.best.flips]
            data = r.as_dict()
            assert data["solution"] == r.solution.to_text().splitlines()
            assert set(map(tuple, data["differing_cells"])) == set(r.solution.diff(r.alternative))
    finally:
        del _REGISTRY["rotating"]
    assert fake_backends.RotatingPairSolver.calls >= 4


def test_with_a_goal_every_part_shows_the_goal():
    goal = Solution.from_rows(["#.", ".#"])
    r = report(Puzzle.from_solution(goal), backend="native")
    assert r.solution == goal == r.repair.picture == r.ambiguity.reference and r.repair.source == "goal"
    assert r.alternative == Solution.from_rows([".#", "#."])


def test_a_time_limited_report_says_only_what_it_proved(monkeypatch):
    # a2cd917 printed two solutions, then "at least 0 solutions; 0 regions".  Here the
    # ambiguity report's every question is cut by its limit (a first count that
    # enumerated all 43 would answer every later question from its pool).
    import nonolab.harness.report as module

    from fake_backends import QuestionsCut
    monkeypatch.setattr(module, "questioner", lambda solver, puzzle=None: QuestionsCut(0))
    r = report(load(PUZZLES / "hakank" / "nonunique.non"), backend="native", repair=False)
    from nonolab.cli.report_commands import report_lines
    text = "\n".join(report_lines(r))
    assert "at least 0" not in text and "0 regions" not in text
    assert "at least" in text and "timeout" in text
    assert r.verdict == Verdict.MULTIPLE and not r.complete and r.stopped is Verdict.TIMEOUT
    count, exact = r.solutions_known()
    assert count >= 2 and not exact
    assert r.ambiguity.solution_count >= 2 and r.ambiguity.reference == r.solution
    data = r.as_dict()
    assert data["count"] >= 2 and data["exact"] is False and data["stopped"] == "timeout"
    if not r.ambiguity.backbone_exact:       # the regions were not computed: none is claimed
        assert data["regions"] is None


def test_the_difficulty_follows_the_ladder_and_the_work_inside_a_class():
    puzzle = Puzzle(rows=((1,), ()), columns=((1,), ()))
    for grade in Grade:
        values = [difficulty_of(GradeResult(grade, "unique", steps={"line": n, "contradiction-probe": n},
                                            undecided=min(n, 4)), puzzle) for n in (1, 2, 3, 50, 10 ** 6)]
        assert all(grade.rank <= v < grade.rank + 1 for v in values)
        assert values == sorted(values) and values[0] < values[-1]
    assert difficulty_of(GradeResult(None, "timeout"), puzzle) is None
    shipped = [load(PUZZLES / "hakank" / name) for name in ("car.non", "hard.non")]
    for p in shipped:
        r = report(p, backend="native", repair=False)
        assert int(r.difficulty) == r.grade.grade.rank


def test_warnings_trivial_too_little_white_and_clue_only_lines():
    full = Puzzle.from_solution(Solution.from_rows(["#####", "####.", "#####", "#####", "#####"]))
    codes = {w.code: w for w in report(full, backend="native").warnings}
    assert {"trivial", "too-little-white", "clue-only-lines"} <= set(codes)
    assert ("row", 0) in codes["clue-only-lines"].lines and ("row", 1) not in codes["clue-only-lines"].lines
    car = report(load(PUZZLES / "hakank" / "car.non"), backend="native")
    assert not {"trivial", "too-little-white"} & {w.code for w in car.warnings}


@pytest.mark.parametrize("n", [1, 4, 7])
def test_what_a_clue_alone_decides_is_what_every_placement_agrees_on(n):
    for bits in itertools.product((0, 1), repeat=n):
        clue = _runs(bits)
        placements = [p for p in itertools.product((0, 1), repeat=n) if _runs(p) == clue]
        agreed = {j for j in range(n) if len({p[j] for p in placements}) == 1}
        assert clue_decides(clue, n) == agreed


def test_clue_only_cells_and_lines_of_a_puzzle():
    puzzle = Puzzle.from_solution(Solution.from_rows(["###", "#..", "..."]))
    cells, whole = clue_only_cells(puzzle)
    assert whole == [("row", 0), ("row", 2)]
    assert cells == {0, 1, 2, 6, 7, 8} | {3}     # column 1 (clue 2 in 3 cells) decides its middle cell
    assert clue_only_count(puzzle) == (len(cells), whole)


@pytest.mark.parametrize("seed", range(6))
def test_the_count_of_clue_only_cells_is_the_size_of_their_set(seed):
    # The report's warnings count them from a byte mask (a large grid's set of indices
    # took gigabytes); the set is the reference.
    import random
    rng = random.Random(seed)
    w, h = rng.randint(1, 9), rng.randint(1, 9)
    puzzle = Puzzle.from_solution(Solution.from_rows(
        ["".join(rng.choice("#.##" if seed % 2 else "#...") for _ in range(w)) for _ in range(h)]))
    cells, whole = clue_only_cells(puzzle)
    assert clue_only_count(puzzle) == (len(cells), whole)


def _noise_puzzle(side: int, seed: int) -> Puzzle:
    rng = np.random.default_rng(seed)
    return Puzzle.from_solution(Solution((rng.random((side, side)) < 0.5).astype(np.uint8).tolist()))


def test_what_the_clues_alone_decide_costs_steps_a_line_not_a_block():
    """Audit 13: ``check --report --time-limit 5`` of a 3000x3000 noise puzzle ended at 9.3 s:
    after the limit its warnings walked all 4.5 million clue numbers in Python (as ``(length,
    colour)`` pairs, then block by block), 1.3 CPU s.  A line whose longest block is within
    its slack decides nothing, which ``max`` says in C: the Python steps are counted here
    (traced lines), a few a line, not a few a block."""
    import sys

    puzzle = _noise_puzzle(200, 1)        # ~10,000 blocks a side, most lines deciding nothing
    blocks = sum(map(len, puzzle.rows)) + sum(map(len, puzzle.columns))
    steps = [0]

    def trace(frame, event, arg):
        steps[0] += 1
        return trace

    sys.settrace(trace)
    try:
        decided = clue_only_count(puzzle)
    finally:
        sys.settrace(None)
    assert decided == (len(clue_only_cells(puzzle)[0]), clue_only_cells(puzzle)[1])
    assert blocks > 19_000 and steps[0] < 30 * (puzzle.width + puzzle.height) < blocks


def test_the_report_reads_what_the_clues_alone_decide_once(monkeypatch):
    """Audit 13: every report so far (``on_result``, the workbench's after each part) counted
    the clue-only cells again, each after the clock had run out: now once, before the check."""
    import nonolab.harness.report as module

    calls = []
    counted = module.clue_only_count
    monkeypatch.setattr(module, "clue_only_count", lambda p: calls.append(p) or counted(p))
    done = report(load(PUZZLES / "hakank" / "nonunique.non"), "native", time_limit=60,
                  on_result=lambda part, so_far: None)
    assert done.verdict is Verdict.MULTIPLE and done.repair is not None and len(calls) == 1


def _runs(bits) -> tuple[int, ...]:
    return tuple(len(run) for run in "".join(map(str, bits)).split("0") if run)


def test_a_notebook_shows_the_map_or_the_solution():
    several = report(load(PUZZLES / "hakank" / "simple2.non"), backend="native")
    unique = report(load(PUZZLES / "hakank" / "car.non"), backend="native")
    for r in (several, unique):
        assert r._repr_svg_().startswith("<svg")
    assert several._repr_svg_() != unique._repr_svg_()


def test_a_size_guard_refusing_the_ambiguity_part_leaves_it_out_and_the_rest_answers(monkeypatch):
    import nonolab.harness.report as report_module
    from nonolab.solvers import get

    # cnf's model guard at 1 state: it refuses any grid, before it builds a clause.
    monkeypatch.setattr(report_module, "questioner", lambda solver, puzzle=None: get("cnf", max_states=1))
    switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    found = report_module.report(switch, "native")
    assert found.verdict.value == "multiple" and found.grade is not None and found.ambiguity is None
    left = [w for w in found.warnings if w.code == "ambiguity-left-out"]
    assert len(left) == 1 and "beyond its limit of 1" in left[0].message
    assert found.repair is not None and found.stopped is None
