"""No command writes its output onto a file it reads, even with --force: the one check of
the output types (nonolab.cli.options.OutputFile and InputPath), and batch's own for the
files it finds in a folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nonolab.batch import run_batch
from nonolab.errors import BatchError
from tests.one_line import one_line_error

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
CAR = PUZZLES / "hakank" / "car.non"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    shutil.copy(CAR, tmp_path / "d" / "a.non")
    shutil.copy(PUZZLES / "hakank" / "hard.non", tmp_path / "d" / "b.non")
    return tmp_path / "d"


def _kept(folder: Path) -> None:
    assert (folder / "a.non").read_bytes() == CAR.read_bytes()


@pytest.mark.parametrize("args", [
    ("batch", "d", "--out", "d/a.non", "--force"),           # the audit's case: found in the folder
    ("batch", "d/a.non", "--out", "./d/a.non", "--force"),   # named, by another spelling
    ("batch", "--out", "d/a.non", "--force", "d/a.non"),     # the output read first
    ("solve", "d/a.non", "--to", "non", "-o", "d/a.non"),
    ("solve", "-o", "d/link.non", "--to", "non", "d/a.non"),  # a link to it, read first
    ("render", "d/b.non", "d/a.non", "-o", "d/a.non"),
    ("repair", "d/a.non", "-o", "d/a.non"),
    ("export", "d/a.non", "--to", "dzn", "-o", "d/a.non"),
    ("check", "d/a.non", "--why-image", "d/a.non"),
    ("convert", "d/a.non", "d/link.non"),
])
def test_an_output_onto_an_input_is_refused_naming_the_option(run, folder, args):
    (folder / "link.non").symlink_to("a.non")
    option = next((a for a in args if a.startswith("-") and args[args.index(a) + 1].startswith(("d/", "./"))),
                  "TARGET")
    line = one_line_error(run(*args), option, "input" if args[0] != "batch" or "d" not in args else "puzzle")
    assert "replace" in line
    _kept(folder)


def test_batch_still_replaces_or_resumes_its_own_results_in_the_folder(run, folder):
    assert run("batch", "d", "--out", "d/results.json").exit_code == 0
    assert run("batch", "d", "--out", "d/results.json", "--force").exit_code == 0   # results, not a puzzle
    resumed = run("batch", "d", "--out", "d/results.json", "--resume")
    assert resumed.exit_code == 0 and "2 puzzles already in the results file" in resumed.stderr


def test_run_batch_raises_a_typed_error_for_a_puzzle_as_results_file(folder):
    with pytest.raises(BatchError, match=r"^out d/a.non: is one of the puzzle files"):
        run_batch(["d"], "check", "d/a.non", force=True)
    _kept(folder)


def test_a_results_file_in_the_folder_whose_only_line_is_torn_is_resumed(run, folder):
    # Before, a batch killed while writing its first record left a file the next --resume
    # refused as "one of the puzzle files of the batch"; a torn line after others was dropped.
    (folder / "results.json").write_text('{"schema_version": 4, "file": "d/a.n')
    result = run("batch", "d", "--out", "d/results.json", "--resume")
    assert result.exit_code == 0, result.output
    assert "d/results.json:1: dropped a torn last line" in result.stderr
    assert len((folder / "results.json").read_text().splitlines()) == 2


@pytest.mark.parametrize("text, results", [
    ('{"schema_version": 4, "file": "d/a.n', True),     # torn while writing the first record
    ('{"file": "d/a.non", "ta', True),                   # as a version 1 batch wrote it
    ('{"schema_version": 4, "file": "d/a.n\n', False),  # its newline written: no interrupted append
    ('{"schema_version": 4, "fi\n{"file": "d/a.non", "task": "check"}\n', False),   # not the last line
    ('{"rows": [[1]], "col', False),                     # a puzzle cut short is still a puzzle
    ('{"title": "x", "file": "a', False),
])
def test_holds_results_takes_a_torn_lone_line_and_nothing_else(tmp_path, text, results):
    from nonolab.batch.results import holds_results
    (tmp_path / "out.json").write_text(text)
    assert holds_results(tmp_path / "out.json") is results
