"""nonolab.generate.make and friends: the generator loop, its filters, proofs and repairs."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument, MissingDependency, ParseError
from nonolab.formats import load
from nonolab.generate import (GeneratedPuzzle, Recipe, SetWriter, make_puzzles, parse_size,
                              picture_from_image, undecided_cells)
from nonolab.generate.output import INDEX_NAME
from nonolab.generate.repair import choose_change, choose_flip, uniform_lines
from nonolab.harness.classify import grade
from nonolab.harness.uniqueness import count
from nonolab.solvers import get

PIL = pytest.importorskip("PIL.Image")


def _picture(generated: GeneratedPuzzle) -> np.ndarray:
    return np.array(generated.puzzle.goal.cells, dtype=np.uint8)


def test_same_seed_same_puzzles_other_seed_others():
    recipe = Recipe(10, 9, style="noise", unique=True, repair=True)
    first, again, other = (make_puzzles(4, recipe, seed=s) for s in (5, 5, 6))
    key = lambda r: [(g.puzzle.rows, g.puzzle.columns, g.puzzle.goal, g.seed, g.repairs, g.candidates)
                     for g in r.puzzles]
    assert key(first) == key(again)
    assert [g.puzzle.rows for g in first.puzzles] != [g.puzzle.rows for g in other.puzzles]
    assert first.candidates == again.candidates and first.rejected == again.rejected


def test_the_goal_is_the_picture_and_solves_the_clues():
    report = make_puzzles(3, Recipe(9, 7, unique=True), seed=2)
    for g in report.puzzles:
        p = g.puzzle
        assert (p.width, p.height) == (9, 7)
        assert p.goal is not None and violations(p, p.goal) == []
        assert p.metadata["seed"] == str(g.seed) and p.metadata["candidates"] == str(g.candidates)
        assert g.density == round(float(_picture(g).mean()), 4)


def test_density_filter_is_respected_and_used():
    recipe = Recipe(10, 10, density=0.3, style="noise", density_range=(0.27, 0.33))
    report = make_puzzles(8, recipe, seed=1)
    assert report.complete
    assert all(0.27 <= g.density <= 0.33 for g in report.puzzles)
    assert report.rejected["density"] > 0  # noise strays out of so narrow a band


def test_repairs_keep_the_density_in_range():
    recipe = Recipe(12, 12, density=0.5, style="noise", density_range=(0.49, 0.51), unique=True, repair=True)
    report = make_puzzles(4, recipe, seed=3, max_candidates=400)
    assert report.puzzles and report.repairs > 0
    assert all(0.49 <= g.density <= 0.51 for g in report.puzzles)


def test_no_full_or_empty_lines_unless_asked():
    strict = make_puzzles(10, Recipe(8, 8), seed=4)
    assert strict.rejected["uniform-lines"] > 0
    assert all(uniform_lines(_picture(g)) == [] for g in strict.puzzles)
    loose = make_puzzles(10, Recipe(8, 8, allow_uniform_lines=True), seed=4)
    assert loose.rejected["uniform-lines"] == 0
    assert any(uniform_lines(_picture(g)) for g in loose.puzzles)


@pytest.mark.parametrize("backend", ["native", "cpsat", "cnf"])
def test_unique_puzzles_are_unique_for_every_backend(backend, unique_set):
    for g in unique_set.puzzles:
        counted = count(g.puzzle, get(backend), 2)
        assert counted.exact and counted.count == 1, (backend, g.puzzle.name)


@pytest.fixture(scope="module")
def unique_set():
    report = make_puzzles(5, Recipe(12, 12, style="noise", unique=True), seed=1)
    assert report.complete and report.rejected["multiple"] > 0  # the check did reject some
    return report


def test_unique_rejects_what_is_not_unique(unique_set):
    # The same candidates without the criterion: some of them have two solutions.
    loose = make_puzzles(5 + unique_set.rejected["multiple"], Recipe(12, 12, style="noise"), seed=1)
    counts = [count(g.puzzle, get("native"), 2).count for g in loose.puzzles]
    assert 2 in counts


def test_max_grade_line_gives_line_puzzles():
    report = make_puzzles(5, Recipe(12, 12, style="noise", max_grade="line"), seed=1)
    assert report.complete and report.rejected["too-hard"] > 0
    for g in report.puzzles:
        assert g.grade == "line"
        assert grade(g.puzzle).grade.value == "line"
        assert undecided_cells(g.puzzle) == []


def test_max_grade_probe_accepts_probing_levels_only():
    report = make_puzzles(5, Recipe(12, 12, style="noise", max_grade="probe", repair=True), seed=1)
    assert report.complete
    assert {g.grade for g in report.puzzles} <= {"line", "contradiction-probe", "full-probe", "depth-2"}
    assert "contradiction-probe" in {g.grade for g in report.puzzles}


def test_repair_needs_fewer_candidates():
    plain = make_puzzles(5, Recipe(12, 12, style="noise", unique=True), seed=1)
    repaired = make_puzzles(5, Recipe(12, 12, style="noise", unique=True, repair=True), seed=1)
    assert plain.complete and repaired.complete
    assert repaired.repairs > 0 and plain.repairs == 0
    assert repaired.candidates_per_puzzle < plain.candidates_per_puzzle
    assert all(count(g.puzzle, get("native"), 2).count == 1 for g in repaired.puzzles)


def test_max_repairs_zero_is_no_repair():
    report = make_puzzles(5, Recipe(12, 12, style="noise", unique=True, repair=True, max_repairs=0), seed=1)
    assert report.repairs == 0 and report.rejected["repair-failed"] > 0


def test_a_timeout_is_discarded_never_accepted():
    recipe = Recipe(12, 12, style="noise", unique=True, candidate_time_limit=1e-9)
    report = make_puzzles(2, recipe, seed=1, max_candidates=6)
    assert report.puzzles == [] and report.rejected["timeout"] == 6
    assert report.stopped == "max-candidates" and not report.complete


def test_the_total_time_limit_ends_the_loop():
    report = make_puzzles(10 ** 6, Recipe(6, 6), seed=1, time_limit=0.3)
    assert report.stopped == "time-limit" and 0 < len(report.puzzles) < 10 ** 6


def test_the_report_counts_candidates_per_puzzle():
    report = make_puzzles(4, Recipe(12, 12, style="noise", unique=True), seed=1)
    assert sum(g.candidates for g in report.puzzles) == report.candidates  # the last one ends on an accept
    assert report.candidates == len(report.puzzles) + sum(report.rejected.values())
    assert "per accepted puzzle" in report.summary() and f"{report.candidates} candidates" in report.summary()


def _png(path, array):
    image = PIL.fromarray(np.where(np.asarray(array) == 1, 0, 255).astype(np.uint8), "L")
    image = image.resize((image.width * 4, image.height * 4), PIL.Resampling.NEAREST)
    image.save(path)


# A 6x6 shape with 18 dark cells: density 0.5, no full or empty line, line-solvable.
SHAPE = [[1, 1, 1, 0, 0, 0],
         [1, 1, 0, 0, 0, 1],
         [1, 0, 0, 0, 1, 1],
         [1, 0, 0, 0, 1, 1],
         [0, 0, 0, 1, 1, 1],
         [0, 1, 1, 1, 0, 0]]


def test_picture_from_image_thresholds_dark_cells(tmp_path):
    path = tmp_path / "shape.png"
    _png(path, SHAPE)
    assert picture_from_image(path, 6, 6, 0.5).tolist() == SHAPE
    assert int(picture_from_image(path, 6, 6, 0.25).sum()) == 9  # the filled fraction is the density


def test_from_image_gives_the_picture(tmp_path):
    path = tmp_path / "shape.png"
    _png(path, SHAPE)
    report = make_puzzles(3, Recipe(6, 6, image=path, unique=True), seed=0)
    assert len(report.puzzles) == 1 and report.stopped == "image"  # one picture, no repair: one candidate
    g = report.puzzles[0]
    assert _picture(g).tolist() == SHAPE and g.source == "image" and g.puzzle.name.startswith("shape-6x6-")


def test_from_image_repairs_an_ambiguous_picture(tmp_path):
    checker = (np.indices((8, 8)).sum(axis=0) % 2).astype(np.uint8)  # all 1,1,1,1 clues: very ambiguous
    path = tmp_path / "checker.png"
    _png(path, checker)
    assert make_puzzles(1, Recipe(8, 8, image=path, unique=True), seed=0).puzzles == []
    report = make_puzzles(1, Recipe(8, 8, image=path, unique=True, repair=True, max_repairs=60), seed=0,
                          max_candidates=20)
    assert report.complete and report.puzzles[0].repairs > 0
    assert count(report.puzzles[0].puzzle, get("cnf"), 2).count == 1


def test_from_image_errors(tmp_path, monkeypatch):
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    with pytest.raises(ParseError, match="bad.png"):
        picture_from_image(bad, 5, 5)
    with pytest.raises(ParseError, match="no such file"):
        picture_from_image(tmp_path / "missing.png", 5, 5)
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if pillow were not installed
    with pytest.raises(MissingDependency, match="pillow"):
        picture_from_image(bad, 5, 5)


@pytest.mark.parametrize("bad", [dict(width=0), dict(height=-1), dict(density=0.0), dict(density=1.0),
                                 dict(density=0.8), dict(density_range=(0.6, 0.4)), dict(style="plaid"),
                                 dict(max_grade="easy"), dict(max_repairs=-1), dict(candidate_time_limit=0),
                                 dict(radius=-1), dict(radius=1.5)])
def test_recipe_rejects_bad_values(bad):
    args = {"width": 5, "height": 5, **bad}
    with pytest.raises(InvalidArgument):
        Recipe(**args)


@pytest.mark.parametrize("call", [lambda: make_puzzles(0, Recipe(5, 5)),
                                  lambda: make_puzzles(1, Recipe(5, 5), seed=-2),
                                  lambda: make_puzzles(1, Recipe(5, 5), max_candidates=0),
                                  lambda: parse_size("30"), lambda: parse_size("0x4")])
def test_bad_arguments_raise_typed_errors(call):
    with pytest.raises(InvalidArgument):
        call()


def test_choose_flip_keeps_lines_and_density():
    picture = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.uint8)
    rng = np.random.default_rng(0)
    # Flipping (0, 0) empties row 0 and column 0: never chosen unless uniform lines are allowed.
    assert choose_flip(picture, [(0, 0)], rng, (0.0, 1.0), False) is None
    assert choose_flip(picture, [(0, 0)], rng, (0.0, 1.0), True) == (0, 0)
    # Filling (0, 1) raises the density to 4/9: outside a range that stops at 0.4.
    assert choose_flip(picture, [(0, 1)], rng, (0.0, 0.4), True) is None


def test_set_writer_files_and_index(tmp_path):
    report = make_puzzles(3, Recipe(7, 7, unique=True), seed=9)
    writer = SetWriter(tmp_path / "set", "webpbn")
    paths = [writer.add(g) for g in report.puzzles]
    assert [p.name for p in paths] == [f"gen-7x7-seed9-00{i}.xml" for i in (1, 2, 3)]
    for path, g in zip(paths, report.puzzles):
        loaded = load(path)
        assert (loaded.rows, loaded.columns, loaded.goal) == (g.puzzle.rows, g.puzzle.columns, g.puzzle.goal)
    index = (tmp_path / "set" / INDEX_NAME).read_text().splitlines()
    assert index[0].startswith("file,name,width,height") and len(index) == 4
    assert index[1].startswith("gen-7x7-seed9-001.xml,gen-7x7-seed9-001,7,7,smooth,")


def test_set_writer_leaves_no_partial_file(tmp_path, monkeypatch):
    report = make_puzzles(2, Recipe(7, 7), seed=9)
    writer = SetWriter(tmp_path, "non")
    writer.add(report.puzzles[0])

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr("nonolab.formats._files.os.fsync", broken_fsync)
    with pytest.raises(OSError):
        writer.add(report.puzzles[1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen-7x7-seed9-001.non", INDEX_NAME]
    assert len((tmp_path / INDEX_NAME).read_text().splitlines()) == 2  # header and the first puzzle


def test_an_interrupt_between_a_puzzle_and_its_index_line_leaves_them_matching(tmp_path, monkeypatch):
    # Ctrl-C during generate --out left gen-...-0602.non and an index of 601 lines: the
    # puzzle's write had landed and the interrupt's gate then refused the index's.
    import os

    from nonolab.errors import LimitReached
    from nonolab.formats import _files
    report = make_puzzles(2, Recipe(7, 7), seed=9)
    writer = SetWriter(tmp_path, "non")
    writer.add(report.puzzles[0])
    replace = os.replace

    def signal_after_the_first_file_lands(source, target):
        replace(source, target)
        _files.close_writes()          # what the Ctrl-C handler does
    monkeypatch.setattr("nonolab.formats._files.os.replace", signal_after_the_first_file_lands)
    try:
        writer.add(report.puzzles[1])
    except LimitReached:
        pass
    finally:
        _files.open_writes()
    listed = [line.split(",")[0] for line in (tmp_path / INDEX_NAME).read_text().splitlines()[1:]]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != INDEX_NAME) == sorted(listed)
    _files.close_writes()              # a signal before the write: neither lands
    try:
        with pytest.raises(LimitReached):
            writer.add(make_puzzles(3, Recipe(7, 7), seed=9).puzzles[2])
    finally:
        _files.open_writes()
    assert len(list(tmp_path.iterdir())) == len(listed) + 1


def test_max_grade_search_accepts_any_unique_puzzle():
    report = make_puzzles(4, Recipe(12, 12, style="noise", max_grade="search"), seed=1)
    assert report.complete and report.rejected["multiple"] > 0
    assert all(count(g.puzzle, get("native"), 2).count == 1 for g in report.puzzles)


def test_repair_flips_where_two_solutions_differ(monkeypatch):
    import nonolab.generate.make as make
    from nonolab.generate.criteria import differing_cells
    from nonolab.generate.grids import puzzle_from_array
    from nonolab.solvers.base import Limits
    from nonolab.solvers.native import NativeSolver

    picture = np.eye(4, dtype=np.uint8)  # clues 1 everywhere: 24 solutions
    puzzle = puzzle_from_array(picture)
    differing = differing_cells(puzzle)
    assert differing and set(differing) <= set(undecided_cells(puzzle))
    offered = []

    def recording_choose_change(picture, cells, *args, **kwargs):
        offered.append(list(cells))
        return choose_change(picture, offered[-1], *args, **kwargs)
    monkeypatch.setattr(make, "choose_change", recording_choose_change)
    recipe = Recipe(4, 4, density=0.25, density_range=(0.0, 1.0), allow_uniform_lines=True, unique=True,
                    repair=True, max_repairs=1)
    make._judge_with_repairs(picture.copy(), None, recipe, 0, None, {})
    # The judge's two solutions are whichever its backend found first (auto races two
    # engines): the first region offered is where some two solutions differ.
    every = NativeSolver().solve(puzzle, Limits(max_solutions=None)).solutions
    assert any(offered[0] == a.diff(b) for a in every for b in every)
