"""Colour generation: drawn colour pictures, colour images quantised with pillow, colour
repairs, and uniqueness proven by the backends that declare colour."""

from __future__ import annotations

import numpy as np
import pytest

from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument
from nonolab.generate import (MAX_COLOURS, Recipe, colour_picture_from_image, make_puzzles, random_grid,
                              smooth_grid)
from nonolab.generate.repair import choose_change, choose_flip
from nonolab.harness.uniqueness import count
from nonolab.solvers import backends_with, capabilities_of, get
from nonolab.solvers.base import Capability

PIL = pytest.importorskip("PIL.Image")

# Two backends that declare colour, found by capability; ``auto`` only hands over to one of them.
COLOUR_BACKENDS = [b for b in backends_with(Capability.COLOUR) if b != "auto"][:2]


def _key(report):
    return [(g.puzzle.rows, g.puzzle.columns, g.puzzle.row_colours, g.puzzle.column_colours, g.puzzle.goal,
             g.seed, g.repairs) for g in report.puzzles]


@pytest.mark.parametrize("style", ["smooth", "noise"])
@pytest.mark.parametrize("colours", [2, 4])
def test_colour_grids_keep_the_black_and_white_mask_and_use_every_colour(style, colours):
    draw = smooth_grid if style == "smooth" else (lambda h, w, seed, colours=1: random_grid(h, w, 0.5, seed, colours))
    for seed in range(5):
        plain = draw(12, 15, seed=seed)
        coloured = draw(12, 15, seed=seed, colours=colours)
        assert ((coloured > 0) == (plain > 0)).all()   # the same filled cells as in black and white
        assert coloured.max() <= colours
        assert (draw(12, 15, seed=seed, colours=colours) == coloured).all()
    assert len(set(np.unique(draw(30, 30, seed=1, colours=colours)).tolist())) == colours + 1


@pytest.mark.parametrize("style", ["smooth", "noise"])
def test_colour_puzzles_are_reproducible_and_their_goals_satisfy_their_clues(style):
    recipe = Recipe(9, 8, style=style, colours=3, unique=True, repair=True)
    first, again, other = (make_puzzles(3, recipe, seed=s) for s in (4, 4, 5))
    assert first.complete and _key(first) == _key(again) and _key(first) != _key(other)
    for g in first.puzzles:
        p = g.puzzle
        assert p.is_colour and p.colours == 3 and p.palette.names == ("white", "black", "red", "green")
        assert violations(p, p.goal) == []
        assert set(np.unique(np.array(p.goal.cells)).tolist()) == {0, 1, 2, 3}   # every colour is used


def test_unique_colour_puzzles_have_one_solution_by_two_colour_backends():
    assert len(COLOUR_BACKENDS) == 2, backends_with(Capability.COLOUR)
    report = make_puzzles(4, Recipe(10, 10, style="noise", colours=4, unique=True, repair=True), seed=2)
    assert report.complete
    for g in report.puzzles:
        for backend in COLOUR_BACKENDS:
            counted = count(g.puzzle, get(backend), 2)
            assert counted.exact and counted.count == 1, (backend, g.puzzle.name)


def test_without_unique_ambiguous_colour_puzzles_come_through_and_unique_rejects_them():
    loose = make_puzzles(6, Recipe(8, 8, style="noise", colours=2), seed=3)
    counts = [count(g.puzzle, get(COLOUR_BACKENDS[0]), 2).count for g in loose.puzzles]
    assert 2 in counts   # noise is often ambiguous: the criterion has something to reject
    strict = make_puzzles(6, Recipe(8, 8, style="noise", colours=2, unique=True), seed=3)
    assert strict.rejected["multiple"] > 0


def test_colour_repair_changes_cells_to_other_colours():
    report = make_puzzles(3, Recipe(10, 10, style="noise", colours=3, unique=True, repair=True), seed=9)
    assert report.complete and report.repairs > 0
    unrepaired = {g.seed: random_grid(10, 10, 0.5, seed=g.seed, colours=3) for g in report.puzzles}
    changed = [(unrepaired[g.seed] != np.array(g.puzzle.goal.cells)).sum() for g in report.puzzles]
    assert [int(c) for c in changed] == [g.repairs for g in report.puzzles]


def test_choose_change_is_choose_flip_in_black_and_white_and_keeps_every_colour():
    rng = lambda: np.random.default_rng(3)
    picture = (random_grid(6, 6, 0.5, seed=1)).astype(np.uint8)
    cells = [(r, c) for r in range(6) for c in range(6)]
    change = choose_change(picture, cells, rng(), (0.0, 1.0), False)
    assert change[0] == choose_flip(picture, cells, rng(), (0.0, 1.0), False)
    assert change[1] == 1 - picture[change[0]]
    colour = np.array([[1, 2, 2], [2, 2, 0], [0, 0, 2]], dtype=np.uint8)
    # Colour 1 has one cell: changing it would drop the colour, so it is never chosen.
    for seed in range(20):
        cell, value = choose_change(colour, [(0, 0), (1, 1)], np.random.default_rng(seed), (0.0, 1.0), True, 2)
        assert cell == (1, 1) and value in (0, 1)
    assert choose_change(colour, [(0, 0)], rng(), (0.0, 1.0), True, 2) is None


def _blocks_png(path, size=(40, 30)):
    """White, with a red, a green and a blue rectangle: three colours plus the background."""
    image = PIL.new("RGB", size, "white")
    image.paste((200, 30, 30), (4, 4, 16, 26))
    image.paste((30, 160, 30), (16, 4, 28, 14))
    image.paste((30, 30, 200), (20, 16, 36, 26))
    image.save(path)
    return {(255, 255, 255), (200, 30, 30), (30, 160, 30), (30, 30, 200)}


def test_a_colour_image_is_quantised_to_its_colours(tmp_path):
    path = tmp_path / "blocks.png"
    image_colours = _blocks_png(path)
    picture, palette = colour_picture_from_image(path, 20, 15, colours=3)
    assert len(palette) == 4 and palette.background.rgb == (255, 255, 255)
    assert {c.rgb for c in palette} == image_colours
    assert picture.shape == (15, 20) and set(np.unique(picture).tolist()) == {0, 1, 2, 3}
    # Fewer colours asked than the image has: the palette is that size; median cut may merge two of
    # the image's colours into their (weighted) mean, so each lies within the image's colours.
    picture, palette = colour_picture_from_image(path, 20, 15, colours=2)
    assert len(palette) == 3 and set(np.unique(picture).tolist()) == {0, 1, 2}
    for colour in palette:
        assert all(min(c[i] for c in image_colours) <= colour.rgb[i] <= max(c[i] for c in image_colours)
                   for i in range(3))
    assert len({c.rgb for c in palette} & image_colours) >= 2   # the background and an unmerged one


def test_the_background_is_the_commonest_border_colour(tmp_path):
    path = tmp_path / "dark.png"
    image = PIL.new("RGB", (20, 20), (20, 20, 60))            # a dark frame around light shapes
    image.paste((250, 250, 250), (4, 4, 16, 10))
    image.paste((250, 200, 0), (4, 10, 16, 16))
    image.save(path)
    picture, palette = colour_picture_from_image(path, 10, 10, colours=2)
    assert palette.background.rgb == (20, 20, 60)
    assert picture[0].tolist() == [0] * 10 and picture[3, 3] != 0


def test_a_colour_image_becomes_a_unique_colour_puzzle(tmp_path):
    path = tmp_path / "blocks.png"
    image_colours = _blocks_png(path)
    report = make_puzzles(1, Recipe(20, 15, image=path, colours=3, unique=True, repair=True), seed=0)
    assert report.complete, report.summary()
    p = report.puzzles[0].puzzle
    assert p.name.startswith("blocks-20x15") and p.colours == 3
    assert {c.rgb for c in p.palette} == image_colours
    assert violations(p, p.goal) == []
    assert count(p, get(COLOUR_BACKENDS[0]), 2).count == 1


@pytest.mark.parametrize("colours", [0, -1, MAX_COLOURS + 1, 40, True, 2.5])
def test_bad_colour_counts_are_refused(colours):
    with pytest.raises(InvalidArgument, match="colours"):
        Recipe(8, 8, colours=colours)


def test_max_grade_line_in_colour_accepts_only_puzzles_line_logic_solves():
    from nonolab.harness.classify import Grade, grade

    report = make_puzzles(2, Recipe(10, 10, colours=3, max_grade="line", repair=True), seed=3)
    assert len(report.puzzles) == 2
    for made in report.puzzles:
        graded = grade(made.puzzle, "native")
        assert graded.grade is Grade.LINE and graded.verdict == "unique"
        assert count(made.puzzle, get(COLOUR_BACKENDS[0]), limit=2).count == 1


def test_a_black_and_white_backend_is_refused_for_colour():
    plain = next(b for b in ("dlx", "backtrack") if Capability.COLOUR not in capabilities_of(b))
    with pytest.raises(InvalidArgument, match="black-and-white puzzles only"):
        make_puzzles(1, Recipe(8, 8, colours=2, unique=True, backend=plain))
