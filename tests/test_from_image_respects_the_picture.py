"""generate --from-image keeps the picture: no stray cells on its background (issue 28, item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from nonolab.generate import Recipe, make_puzzles, picture_from_image

Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")


@pytest.fixture
def disc(tmp_path):
    """A black disc with a stem on white: a simple shape, most rows of it background."""
    image = Image.new("RGB", (200, 200), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((50, 60, 150, 160), fill="black")
    draw.rectangle((96, 30, 104, 62), fill="black")
    path = tmp_path / "disc.png"
    image.save(path)
    return path


def _far_from(picture: np.ndarray, cells: np.ndarray) -> list[tuple[int, int]]:
    """Filled ``cells`` with no filled cell of ``picture`` in their 3x3 neighbourhood."""
    padded = np.pad(picture, 1)
    near = sum(padded[1 + dr:1 + dr + picture.shape[0], 1 + dc:1 + dc + picture.shape[1]]
               for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return [tuple(map(int, rc)) for rc in zip(*np.nonzero(cells & (near == 0)))]


def test_uniform_lines_are_allowed_for_an_image_by_default(disc):
    assert Recipe(20, 20, image=disc).uniform_lines_allowed
    assert not Recipe(20, 20).uniform_lines_allowed
    assert not Recipe(20, 20, image=disc, allow_uniform_lines=False).uniform_lines_allowed


def test_a_unique_puzzle_from_a_shape_has_no_stray_cells(disc):
    recipe = Recipe(20, 20, image=disc, density=0.3, density_range=(0.05, 0.9), unique=True, repair=True)
    found = make_puzzles(1, recipe, seed=1, max_candidates=3)
    assert found.complete, found
    goal = np.array(found.puzzles[0].puzzle.goal.cells, dtype=np.uint8)
    drawn = picture_from_image(disc, 20, 20, 0.3)
    assert not _far_from(drawn, goal), "a repair drew a cell on the background, away from the picture"
    # The background rows of the image stay empty: nothing was added to fill them.
    empty_rows = [r for r in range(20) if not drawn[r].any()]
    assert empty_rows and not goal[empty_rows].any()


def test_repairs_prefer_the_edges_of_the_picture():
    from nonolab.generate.repair import choose_change
    picture = np.zeros((5, 5), dtype=np.uint8)
    picture[1:4, 1:4] = 1
    every = [(r, c) for r in range(5) for c in range(5)]
    for seed in range(20):
        (r, c), _ = choose_change(picture, every, np.random.default_rng(seed), (0.0, 1.0), True, edges=True)
        assert (r, c) != (2, 2) and not (r in (0, 4) and c in (0, 4)), (r, c)   # on the outline


def test_a_density_beyond_the_ink_fills_no_background(disc):
    # a2cd917 filled the lightest cells in reading order when the density asked for more
    # than the drawing's ink: a stray top row on the white background.
    picture = picture_from_image(disc, 20, 20, 0.9)
    assert not picture[0].any() and not picture[-1].any() and picture.any()


def _near(rgb, target, distance=60) -> bool:
    return sum((a - b) ** 2 for a, b in zip(rgb, target)) ** 0.5 < distance


@pytest.mark.parametrize("side", [120, 480])
def test_each_ink_of_an_image_is_a_colour_of_the_puzzle(tmp_path, side):
    # Audit 18: a red disc crossed by a blue bar, on white, asked in 2 colours, gave one
    # purple ink, (157, 0, 98): a black-and-white puzzle.  The image is reduced with a box
    # filter, which blends the inks at their edges, and median cut (three boxes: the white and
    # two) split the inks' blends, not the inks; an octree keeps the colours the image shows.
    from nonolab.generate import colour_picture_from_image
    image = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(image)
    s = side / 120
    draw.ellipse((20 * s, 20 * s, 100 * s, 100 * s), fill=(255, 0, 0))
    draw.rectangle((50 * s, 10 * s, 70 * s, 110 * s), fill=(0, 0, 255))
    path = tmp_path / "disc.png"
    image.save(path)
    picture, palette = colour_picture_from_image(path, 15, 15, 2)
    rgbs = [colour.rgb for colour in palette]
    assert len(rgbs) == 3 and _near(rgbs[0], (255, 255, 255))
    assert sorted(_near(rgb, ink) for rgb in rgbs[1:] for ink in ((255, 0, 0), (0, 0, 255))).count(True) == 2
    assert set(np.unique(picture)) == {0, 1, 2}   # both inks drawn
    made = make_puzzles(1, Recipe(15, 15, image=path, colours=2, unique=True, repair=True), seed=0).puzzles
    assert made and made[0].puzzle.is_colour and made[0].puzzle.colours == 2
