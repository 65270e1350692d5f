"""`nonolab generate`: files, index, reproducibility, the summary, exit codes and one-line errors."""

from __future__ import annotations

import csv
import functools

import numpy as np
import pytest

from nonolab.cli.main import cli
from nonolab.formats import load, loads_all
from nonolab.harness.uniqueness import count
from nonolab.solvers import get


@pytest.fixture
def run(run):
    return functools.partial(run, "generate")


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_an_out_that_is_a_file_is_refused_in_words_and_kept(run, tmp_path):
    (tmp_path / "notes").write_text("mine")
    result = run("--size", "5x5", "--out", tmp_path / "notes")
    assert (result.exit_code, result.stderr) == (2, f"nonolab: error: {tmp_path / 'notes'}: --out names a folder for "
                                                    "the puzzles and index.csv, and this is a file\n")
    assert (tmp_path / "notes").read_text() == "mine"


def test_writes_puzzles_and_an_index(run, tmp_path):
    result = run("--size", "12x10", "--seed", 7, "--count", 3, "--unique", "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    names = [f"gen-12x10-seed7-00{i}.non" for i in (1, 2, 3)]
    assert sorted(p.name for p in tmp_path.iterdir()) == names + ["index.csv"]
    rows = list(csv.DictReader((tmp_path / "index.csv").open()))
    assert [r["file"] for r in rows] == names
    for row in rows:
        puzzle = load(tmp_path / row["file"])
        assert (puzzle.width, puzzle.height) == (12, 10) and puzzle.goal is not None
        assert count(puzzle, get("native"), 2).count == 1
        assert 0.2 <= float(row["density"]) <= 0.7 and int(row["candidates"]) >= 1
        assert row["grade"] in ("line", "contradiction-probe", "full-probe", "depth-2", "search")
    assert "accepted 3 of 3" in result.stderr and "per accepted puzzle" in result.stderr


def test_same_seed_same_files(run, tmp_path):
    for folder in ("a", "b", "c"):
        seed = 11 if folder != "c" else 12
        assert run("--size", "10x10", "--style", "noise", "--seed", seed, "--count", 3, "--unique",
                   "--repair", "--out", tmp_path / folder).exit_code == 0
    a, b, c = (_files(tmp_path / f) for f in "abc")
    strip_time = lambda files: {k: v for k, v in files.items() if k != "index.csv"}
    assert strip_time(a) == strip_time(b)
    assert [r["seed"] for r in csv.DictReader((tmp_path / "a" / "index.csv").open())] == \
           [r["seed"] for r in csv.DictReader((tmp_path / "b" / "index.csv").open())]
    assert list(strip_time(a).values()) != list(strip_time(c).values())


@pytest.mark.parametrize("fmt", ["json", "webpbn", "taai"])
def test_prints_to_stdout_without_out_a_set_that_reads_back(run, fmt):
    # Audit 7: json and webpbn got one document after another (unreadable: "Extra data").
    result = run("--size", "6x6", "--seed", 1, "--count", 2, "--max-grade", "line", "--format", fmt)
    assert result.exit_code == 0
    puzzles = loads_all(result.stdout, fmt)
    assert len(puzzles) == 2 and all((p.width, p.height) == (6, 6) for p in puzzles)
    assert "accepted 2 of 2" in result.stderr


@pytest.mark.parametrize("fmt", ["tatham", "g", "nin", "emoji", "ctu", "toml", "non"])
def test_several_puzzles_to_stdout_in_a_format_of_one_are_refused_before_any_work(run, fmt):
    # Audit 7: these printed puzzles one after another, which read back as one puzzle (g, nin,
    # ctu: the first; emoji: both stacked into a 6x12 grid) or not at all (tatham, toml).
    # non (left-13): nonolab reads such a stream, pbnsolve a mix of its puzzles, in silence.
    result = run("--size", "6x6", "--count", 2, "--format", fmt)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"nonolab: error: --format {fmt} holds one puzzle a file"), result.stderr
    assert "--out DIR" in result.stderr and "accepted" not in result.stderr
    one = run("--size", "6x6", "--count", 1, "--format", fmt)   # one puzzle is fine
    assert one.exit_code == 0 and len(loads_all(one.stdout, fmt)) == 1


def test_other_format_carries_the_goal(run, tmp_path):
    assert run("--size", "8x8", "--count", 1, "--format", "webpbn", "--out", tmp_path).exit_code == 0
    puzzle = load(tmp_path / "gen-8x8-seed0-001.xml")
    assert puzzle.goal is not None


def test_from_image(run, tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    picture = np.zeros((16, 16), dtype=np.uint8)
    picture[2:14, 4:8] = 1
    picture[6:10, 2:14] = 1
    image_module.fromarray(np.where(picture == 1, 0, 255).astype(np.uint8), "L").save(tmp_path / "cross.png")
    density = picture.mean()
    result = run("--size", "16x16", "--from-image", tmp_path / "cross.png", "--density", density,
                 "--min-density", 0.1, "--unique", "--repair", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    puzzle = load(tmp_path / "out" / "cross-16x16-seed0-001.non")
    goal = np.array(puzzle.goal.cells)
    assert (goal != picture).sum() <= 20  # the cross, give or take the repairs
    assert count(puzzle, get("native"), 2).count == 1


@pytest.mark.parametrize("args,message", [
    (["--size", "0x5"], "grid size must be positive"),
    (["--size", "5by5"], "size must be WIDTHxHEIGHT"),
    (["--size", "5x5", "--density", "1.5"], "--density must be strictly between 0 and 1"),
    (["--size", "5x5", "--density", "0"], "--density must be strictly between 0 and 1"),
    (["--size", "5x5", "--density", "0.9"], "outside the accepted range"),
    (["--size", "5x5", "--count", "0"], "--count must be a positive integer"),
    (["--size", "5x5", "--format", "nope"], "unknown format 'nope'"),
    (["--size", "5x5", "--from-image", "/nonexistent/x.png"], "cannot read the image"),
    (["--size", "5x5", "--unique", "--backend", "nope"], "unknown backend 'nope'"),
    # the recipe's, naming the option: it was smooth_grid's at the first draw ("smooth_grid: radius must be ...")
    (["--size", "5x5", "--radius", "-1"], "nonolab: error: --radius must be a non-negative integer, not -1"),
])
def test_bad_usage_is_one_line_and_exit_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("nonolab: error:") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unreadable_image_exit_2(run, tmp_path):
    (tmp_path / "x.png").write_bytes(b"\x89PNG broken")
    result = run("--size", "5x5", "--from-image", tmp_path / "x.png")
    assert result.exit_code == 2 and "x.png" in result.stderr and len(result.stderr.splitlines()) == 1


def test_not_enough_puzzles_exit_1(run, tmp_path):
    result = run("--size", "30x30", "--style", "noise", "--unique", "--count", 3, "--max-candidates", 2,
                 "--candidate-time-limit", 0.5, "--out", tmp_path)
    assert result.exit_code == 1
    assert "found 0 of 3 puzzles: --max-candidates was reached" in result.stderr
    assert (tmp_path / "index.csv").exists() is False  # nothing accepted, nothing written


def test_progress_bar_on_request(run, tmp_path):
    result = run("--size", "8x8", "--count", 3, "--progress", "--out", tmp_path)
    assert result.exit_code == 0 and "accepted 3 of 3" in result.stderr


def test_progress_bar_draws_accepted_puzzles(capsys):
    from nonolab.cli.progress import GeneratedPuzzles
    from nonolab.generate import GenerateReport

    report = GenerateReport(asked=4, candidates=7)
    with GeneratedPuzzles(4, delay=0, force=True) as bar:
        bar(report)
        assert bar._bar is not None and bar._bar.tasks[0].fields["candidates"] == 7
    assert bar._bar is None  # stopped on exit


def test_the_cli_offers_the_library_words():
    from nonolab.generate import MAX_GRADES, STYLES

    params = {p.name: p for p in cli.get_command(None, "generate").params}
    assert tuple(params["style"].type.choices) == STYLES
    assert tuple(params["max_grade"].type.choices) == tuple(MAX_GRADES)


def test_the_summary_counts_one_candidate_in_the_singular(run):
    # core.words.counted: the summary said "1 candidates tried" (a 3x3 picture with uniform
    # lines allowed is accepted at its first candidate).
    result = run("--size", "3x3", "--count", "1", "--seed", "1", "--allow-uniform-lines", "--format", "non")
    assert result.exit_code == 0, result.stderr
    assert "accepted 1 of 1; 1 candidate tried (1.00 per accepted puzzle); 0 repairs;" in result.stderr


def test_a_1x1_grid_says_no_picture_fits_and_tries_none(run):
    result = run("--size", "1x1")
    assert result.exit_code == 1
    assert "0 candidates tried" in result.stderr
    assert ("found 0 of 1 puzzle: no 1x1 picture has a filled fraction within the density range 0.2-0.7"
            in result.stderr)


@pytest.mark.parametrize("args, message", [
    (["--style", "noise", "--radius", "3"], "--radius blurs the smooth style's noise: not with style noise"),
    (["--from-image", "{image}", "--radius", "3"], "--radius blurs the smooth style's noise: not with an image"),
    (["--from-image", "{image}", "--style", "noise"], "--style draws a picture of noise, and --from-image takes"),
    (["--max-repairs", "3"], "--max-repairs bounds the flips of --repair: give --repair too"),
    (["-b", "nope"], "--backend names the backend that judges candidates: give --unique or --max-grade too"),
    (["-b", "native", "-O", "probing=none"], "--backend and -O name the backend that judges candidates"),
    (["-O", "nope=1", "--repair"], "-O names the backend that judges candidates: give --unique or --max-grade"),
], ids=["radius-noise", "radius-image", "style-image", "max-repairs", "backend-typo", "backend-options", "option"])
def test_an_option_the_run_would_drop_is_refused(run, tmp_path, args, message):
    # Audit 10: each was taken and dropped: `--style noise --radius 3` and `--from-image X --style noise`
    # drew what they draw without them, `--max-repairs 3` without --repair repaired nothing.
    # Audit 18: without a judge (--unique, --max-grade) no backend runs: `-b nope` was taken in silence.
    image_module = pytest.importorskip("PIL.Image")
    image = tmp_path / "dot.png"
    image_module.fromarray(np.full((4, 4), 255, dtype=np.uint8), "L").save(image)
    result = run("--size", "5x5", *[str(a).replace("{image}", str(image)) for a in args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("nonolab: error: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, said", [
    (("--min-density", "nan"), "--min-density': 'nan' is not a number in the range 0<=x<=1"),
    (("--max-density", "nan"), "--max-density': 'nan' is not a number in the range 0<=x<=1"),
    (("--density", "nan"), "--density must be strictly between 0 and 1, got nan"),   # (the library's, as for 0)
    (("--min-density", "1.5"), "--min-density': 1.5 is not in the range 0<=x<=1"),
    (("--min-density", "0.8", "--max-density", "0.7"), "--min-density 0.8 is above --max-density 0.7"),
])
def test_a_density_option_out_of_its_range_is_named_with_what_it_takes(run, args, said):
    # Before, nan passed the type (every comparison with it is false) to the library's
    # "density range must satisfy 0 <= low <= high <= 1, got nan-0.7", naming no option.
    from tests.one_line import one_line_error
    one_line_error(run("--size", "5x5", *args), said)
