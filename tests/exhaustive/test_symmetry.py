"""The census's symmetry reduction: one picture per orbit, weighted by its orbit's size.

The reduced census must equal the full one count for count (pictures, distinct clue
sets, unique, line-solvable, every grade) on every size up to 4x4 and on rectangles;
the group, the clue mapping and the choice of the kept picture are each checked
against brute force on the pictures themselves.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner

import nonolab
from nonolab.cli.main import cli
from nonolab.exhaustive.count import census_chunk
from nonolab.exhaustive.pictures import Plan
from nonolab.exhaustive.symmetry import Symmetries

SIZES = [(w, h) for w in range(1, 5) for h in range(1, 5)] + [(5, 3), (3, 5), (6, 2), (2, 6), (7, 2), (6, 3)]


def _counts(result):
    return (result.pictures, result.clue_sets, result.unique, result.line, result.grades, result.complete)


@pytest.mark.parametrize("width,height", SIZES)
def test_the_reduced_census_is_the_full_census(width, height):
    full = nonolab.census(width, height, symmetry=False)
    reduced = nonolab.census(width, height, symmetry=True)
    assert _counts(reduced) == _counts(full)
    assert full.orbits == full.pictures == 2 ** (width * height)
    assert reduced.orbits == _orbit_count(width, height)


def _images(picture: int, width: int, height: int) -> set[int]:
    """Every image of a picture under the grid's symmetries, by the cells' coordinates."""
    cells = [(r, c) for r in range(height) for c in range(width) if picture >> (r * width + c) & 1]
    maps = [lambda r, c: (r, c), lambda r, c: (r, width - 1 - c), lambda r, c: (height - 1 - r, c),
            lambda r, c: (height - 1 - r, width - 1 - c)]
    if width == height:
        maps += [lambda r, c, f=f: f(c, r) for f in maps]
    return {sum(1 << (a * width + b) for a, b in (f(r, c) for r, c in cells)) for f in maps}


def _orbit_count(width: int, height: int) -> int:
    """Burnside: the mean over the symmetries of the pictures each leaves alone (2 to the
    number of its cycles on the cells)."""
    cells = width * height
    fixed = 0
    for f in range(8 if width == height else 4):
        cycles = 0
        mapped = [_apply(f, i, width, height) for i in range(cells)]
        seen = set()
        for i in range(cells):
            if i not in seen:
                cycles += 1
                while i not in seen:
                    seen.add(i)
                    i = mapped[i]
        fixed += 2 ** cycles
    return fixed // (8 if width == height else 4)


def _apply(f: int, cell: int, width: int, height: int) -> int:
    r, c = divmod(cell, width)
    if f >= 4:
        r, c = c, r
    a = height - 1 - r if f & 2 else r
    b = width - 1 - c if f & 1 else c
    return a * width + b


@pytest.mark.parametrize("width,height", [(4, 4), (3, 3), (4, 3), (3, 5), (1, 3), (2, 2)])
def test_the_group_and_its_clue_mapping_agree_with_the_pictures(width, height):
    plan = Plan(width, height)
    group = Symmetries.of(plan)
    assert group.order == (8 if width == height else 4)
    pictures = plan.pictures(())
    images = [group.image_pictures(g, pictures) for g in group.elements]
    assert np.array_equal(images[0], pictures)
    # Each symmetry is a permutation of the pictures, and the images are those of the
    # coordinate maps above; the image's clues are the mapped clues.
    for g, image in zip(group.elements, images):
        assert len(np.unique(image)) == len(pictures)
        assert np.array_equal(group.image_numbers(g, plan.line_numbers(pictures)), plan.line_numbers(image)), g.name
    for p in range(0, len(pictures), max(1, len(pictures) // 300)):
        assert {int(image[p]) for image in images} == _images(p, width, height)


@pytest.mark.parametrize("width,height", [(3, 3), (4, 3), (2, 4), (4, 4)])
def test_the_kept_picture_is_its_orbits_least_by_clue_key_then_picture(width, height):
    plan = Plan(width, height)
    group = Symmetries.of(plan)
    pictures = plan.pictures(())
    kept, weight = group.orbits(pictures, plan.line_numbers(pictures))
    key = dict(zip(pictures.tolist(), plan.keys(plan.line_numbers(pictures)).tolist()))
    for p in range(0, len(pictures), 1 + len(pictures) // 5000):
        orbit = _images(p, width, height)
        least = min(orbit, key=lambda q: (key[q], q))
        assert bool(kept[p]) == (p == least), p
        assert weight[p] == (len(orbit) if p == least else 0)


def test_skipped_chunks_hold_no_kept_picture():
    plan = Plan(4, 4, chunk_pictures=1 << 8)
    group = Symmetries.of(plan)
    skipped = [c for c in plan.chunks() if group.prefix_excluded(c)]
    assert len(skipped) > 10
    for chunk in skipped:
        pictures = plan.pictures(chunk)
        assert not group.orbits(pictures, plan.line_numbers(pictures))[0].any(), chunk
        assert census_chunk(4, 4, chunk, symmetry=True)["pictures"] == 0


def test_small_chunks_give_the_same_reduced_census():
    result = nonolab.census(5, 3, chunk_pictures=1 << 8, symmetry=True)
    assert result.chunks > 20
    assert _counts(result) == _counts(nonolab.census(5, 3, symmetry=False))


def test_the_command_checks_one_picture_an_orbit_unless_told_not_to():
    reduced = CliRunner().invoke(cli, ["census", "--size", "4x4"])
    full = CliRunner().invoke(cli, ["census", "--size", "4x4", "--no-symmetry"])
    assert reduced.exit_code == full.exit_code == 0, reduced.output + full.output
    assert "checked            8,548" in reduced.output and "checked" not in full.output
    for line in ("unique             52,362", "line-solvable      51,234", "contradiction-probe  1,128"):
        assert line in reduced.output and line in full.output


def test_a_results_file_is_resumed_only_as_it_was_made(tmp_path):
    reduced, full, old = tmp_path / "s.json", tmp_path / "f.json", tmp_path / "old.json"
    assert CliRunner().invoke(cli, ["census", "--size", "3x3", "--out", str(reduced)]).exit_code == 0
    assert CliRunner().invoke(cli, ["census", "--size", "3x3", "--no-symmetry", "--out", str(full)]).exit_code == 0
    assert json.loads(reduced.read_text())["symmetry"] is True
    # A file from before the reduction has no "symmetry": it counted every picture.
    data = json.loads(full.read_text())
    del data["symmetry"]
    old.write_text(json.dumps(data))
    for path, option in ((reduced, "--no-symmetry"), (full, "--symmetry"), (old, "--symmetry")):
        before = path.read_text()
        result = CliRunner().invoke(cli, ["census", "--size", "3x3", option, "--out", str(path)])
        assert result.exit_code == 2 and "--symmetry" in result.output, result.output
        assert path.read_text() == before
    again = CliRunner().invoke(cli, ["census", "--size", "3x3", "--no-symmetry", "--out", str(old)])
    assert again.exit_code == 0 and "unique             384" in again.output


def test_every_orbit_size_divides_the_group():
    plan = Plan(4, 4)
    group = Symmetries.of(plan)
    pictures = plan.pictures(())
    kept, weight = group.orbits(pictures, plan.line_numbers(pictures))
    assert set(np.unique(weight[kept]).tolist()) == {1, 2, 4, 8}
    assert int(weight.sum()) == 2 ** 16
    assert all(len(_images(int(p), 4, 4)) == w for p, w in itertools.islice(zip(pictures[kept], weight[kept]), 500))


def test_chunks_with_nothing_to_check_are_tallied_without_a_worker(monkeypatch):
    from nonolab.exhaustive import run as run_module
    sent = []
    real = run_module.census_chunk

    def counted(width, height, chunk, *args):
        sent.append(tuple(chunk))
        return real(width, height, chunk, *args)

    monkeypatch.setattr(run_module, "census_chunk", counted)
    seen = []
    result = nonolab.census(4, 4, chunk_pictures=1 << 10, progress=seen.append)
    plan = Plan(4, 4, chunk_pictures=1 << 10)
    group = Symmetries.of(plan)
    assert sorted(sent) == sorted(c for c in plan.chunks() if not group.prefix_excluded(c))
    assert len(sent) < result.chunks == len(seen)
    # Each progress report is the totals at that moment, not a view of later ones.
    assert [r.chunks_done for r in seen] == list(range(1, result.chunks + 1))
    assert (seen[-1].pictures, seen[-1].unique, seen[-1].line) == (65536, 52362, 51234)
