"""`nonolab generate --colours K`: colour puzzles in files and on standard output, from noise,
smooth pictures and colour images; the refusals are one line with exit 2."""

from __future__ import annotations

import csv
import functools

import numpy as np
import pytest

from nonolab.core.violations import violations
from nonolab.formats import load, loads_all
from nonolab.harness.uniqueness import count
from nonolab.solvers import backends_with, get
from nonolab.solvers.base import Capability

COLOUR_BACKENDS = [b for b in backends_with(Capability.COLOUR) if b != "auto"][:2]


@pytest.fixture
def run(run):
    return functools.partial(run, "generate")


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "index.csv"}


@pytest.mark.parametrize("style", ["smooth", "noise"])
def test_colour_puzzles_in_files_reproducible_and_unique(run, tmp_path, style):
    for folder, seed in (("a", 3), ("b", 3), ("c", 4)):
        result = run("--size", "10x8", "--style", style, "--colours", 3, "--seed", seed, "--count", 2,
                     "--unique", "--repair", "-t", "webpbn", "--out", tmp_path / folder)
        assert result.exit_code == 0, result.stderr
    a, b, c = (_files(tmp_path / f) for f in "abc")
    assert a == b and a != c
    rows = list(csv.DictReader((tmp_path / "a" / "index.csv").open()))
    assert [r["file"] for r in rows] == sorted(a)
    for row in rows:
        puzzle = load(tmp_path / "a" / row["file"])
        assert puzzle.is_colour and puzzle.colours == 3 and (puzzle.width, puzzle.height) == (10, 8)
        assert violations(puzzle, puzzle.goal) == []
        for backend in COLOUR_BACKENDS:
            assert count(puzzle, get(backend), 2).count == 1, backend


@pytest.mark.parametrize("fmt", ["webpbn", "json", "png"])
def test_colour_formats_carry_the_palette(run, tmp_path, fmt):
    result = run("--size", "8x8", "--colours", 2, "--seed", 1, "--unique", "-t", fmt, "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    (written,) = [p for p in tmp_path.iterdir() if p.name != "index.csv"]
    puzzle = load(written)
    assert puzzle.is_colour and len(puzzle.palette) == 3 and violations(puzzle, puzzle.goal) == []
    assert {c.rgb for c in puzzle.palette.foreground} == {(0, 0, 0), (255, 0, 0)}


def test_colour_puzzles_on_standard_output(run):
    result = run("--size", "7x7", "--colours", 4, "--seed", 2, "-t", "json")
    assert result.exit_code == 0, result.stderr
    (puzzle,) = loads_all(result.stdout, "json")
    assert puzzle.colours == 4 and violations(puzzle, puzzle.goal) == []


def test_default_is_black_and_white(run):
    plain = run("--size", "8x8", "--seed", 5, "--unique")
    explicit = run("--size", "8x8", "--seed", 5, "--unique", "--colours", 1)
    assert plain.exit_code == 0 and plain.stdout == explicit.stdout
    assert "color " not in plain.stdout


def test_from_a_colour_image(run, tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.new("RGB", (24, 24), "white")
    image.paste((220, 40, 40), (3, 3, 13, 21))
    image.paste((40, 40, 220), (13, 8, 21, 18))
    image.save(tmp_path / "flag.png")
    result = run("--size", "12x12", "--from-image", tmp_path / "flag.png", "--colours", 2, "--unique",
                 "--repair", "--allow-uniform-lines", "-t", "webpbn", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    (written,) = [p for p in (tmp_path / "out").iterdir() if p.suffix == ".xml"]
    puzzle = load(written)
    assert written.name.startswith("flag-12x12")
    assert [c.rgb for c in puzzle.palette] == [(255, 255, 255), (220, 40, 40), (40, 40, 220)]
    goal = np.array(puzzle.goal.cells)
    assert goal[0].tolist() == [0] * 12 and goal[4, 3] == 1 and goal[7, 8] == 2


@pytest.mark.parametrize("args,message", [
    (["--colours", "0"], "--colours must be an integer from 1 to 12"),
    (["--colours", "40"], "--colours must be an integer from 1 to 12"),
    (["--colours", "3", "-t", "tatham"], "--format tatham holds black-and-white puzzles only"),
    (["--colours", "3", "--unique", "-b", "dlx"], "solves black-and-white puzzles only"),
    (["-t", "png"], "--format png writes binary files: give --out DIR"),
])
def test_colour_refusals_are_one_line_and_exit_2(run, args, message):
    result = run("--size", "6x6", *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("nonolab: error:") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
