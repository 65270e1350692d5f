"""generate --out DIR into a folder that holds an earlier generated set is refused, not clobbered.

It used to write there: index.csv was replaced by the new run's (the earlier puzzles, still
on disk, were no longer listed) and a puzzle of the same name (gen-5x5-seed1-001.non of other
options) was overwritten, silently, with exit code 0.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli


def _generate(out, *args):
    return CliRunner().invoke(cli, ["generate", "--size", "5x5", "--seed", "1", "--out", str(out), *args])


def test_an_earlier_set_in_the_out_folder_is_refused_and_kept(tmp_path):
    out = tmp_path / "set"
    first = _generate(out, "-n", "3")
    assert first.exit_code == 0, first.output
    index = (out / "index.csv").read_bytes()
    puzzle = (out / "gen-5x5-seed1-001.non").read_bytes()
    again = _generate(out, "-n", "1", "--density", "0.6")
    assert again.exit_code == 2, again.output
    (line,) = again.stderr.strip().splitlines()
    assert "index.csv" in line and "earlier" in line
    assert (out / "index.csv").read_bytes() == index and (out / "gen-5x5-seed1-001.non").read_bytes() == puzzle


def test_a_folder_without_a_set_is_written_into(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("kept", encoding="utf-8")
    assert _generate(out, "-n", "1").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["gen-5x5-seed1-001.non", "index.csv", "notes.txt"]


def _files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _earlier_set(tmp_path):
    out = tmp_path / "set"
    assert _generate(out, "-n", "3").exit_code == 0
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    return out, _files(out)


def test_force_replaces_the_earlier_set_whole_and_keeps_other_files(tmp_path):
    out, before = _earlier_set(tmp_path)
    again = _generate(out, "-n", "2", "--density", "0.6", "--force")
    assert again.exit_code == 0, again.output
    after = _files(out)
    # the earlier set's third puzzle is gone with it; the two new ones replace its first two
    assert sorted(after) == ["gen-5x5-seed1-001.non", "gen-5x5-seed1-002.non", "index.csv", "notes.txt"]
    assert after["notes.txt"] == b"mine"
    index = after["index.csv"].decode().splitlines()
    assert len(index) == 3 and all(",0.6," in line or "density" in line for line in index), index
    assert after["gen-5x5-seed1-001.non"] != before["gen-5x5-seed1-001.non"]


def test_a_force_that_fails_midway_leaves_the_earlier_set_as_it_was(tmp_path, monkeypatch):
    import nonolab.generate.output as output

    out, before = _earlier_set(tmp_path)
    written = []
    dump = output.dump_bytes

    def full_disk_at_the_second(puzzle, fmt):
        written.append(puzzle.name)
        if len(written) == 2:
            raise OSError(28, "No space left on device")
        return dump(puzzle, fmt)

    monkeypatch.setattr(output, "dump_bytes", full_disk_at_the_second)
    again = _generate(out, "-n", "3", "--density", "0.6", "--force")
    assert again.exit_code != 0 and len(written) == 2
    assert _files(out) == before   # no puzzle of the new set, no temporary file, the earlier set whole


def test_an_interrupt_before_the_new_set_lands_leaves_the_earlier_one(tmp_path):
    from nonolab.errors import LimitReached
    from nonolab.formats import _files as files
    from nonolab.generate import Recipe, SetWriter, make_puzzles

    out, before = _earlier_set(tmp_path)
    writer = SetWriter(out, "non", force=True)
    for generated in make_puzzles(2, Recipe(5, 5, density=0.6), seed=1).puzzles:
        writer.add(generated)
    assert _files(out).keys() - before.keys()   # staged beside their targets, hidden
    files.close_writes()   # what the Ctrl-C handler does
    try:
        with pytest.raises(LimitReached):
            writer.finish()
    finally:
        files.open_writes()
    assert _files(out) == before


def test_force_never_overwrites_a_file_the_earlier_index_does_not_list(tmp_path):
    out, _ = _earlier_set(tmp_path)
    (out / "gen-5x5-seed1-004.non").write_text("not of the set", encoding="utf-8")
    again = _generate(out, "-n", "4", "--force")
    assert again.exit_code == 2 and "not of this set" in again.stderr
    assert (out / "gen-5x5-seed1-004.non").read_text(encoding="utf-8") == "not of the set"
    assert len((out / "index.csv").read_text().splitlines()) == 4   # the earlier set, untouched


def test_force_needs_out():
    outcome = CliRunner().invoke(cli, ["generate", "--size", "5x5", "--force"])
    assert outcome.exit_code == 2 and outcome.stderr.strip().splitlines() == [
        "nonolab: error: --force replaces the set in --out DIR: give --out too"]


# Every candidate of these is all filled (a filled fraction of 0.99 or more in 25 cells), so
# every line is uniform: each is rejected, and no puzzle is ever found.
NONE_FOUND = ("--density", "0.99", "--min-density", "0.99", "--max-density", "1", "--max-candidates", "3")


def test_a_folder_made_for_a_set_that_found_no_puzzle_is_removed_again(tmp_path):
    # Before, `generate --out NEW` that found nothing left NEW, empty (and its new parents).
    result = _generate(tmp_path / "new" / "set", *NONE_FOUND)
    assert result.exit_code == 1 and "found 0 of 1 puzzle" in result.stderr
    assert list(tmp_path.iterdir()) == [] and " in " not in result.stderr.splitlines()[0]


def test_a_folder_that_existed_stays_even_empty(tmp_path):
    (tmp_path / "mine").mkdir()
    assert _generate(tmp_path / "mine" / "set", *NONE_FOUND).exit_code == 1
    assert [p.name for p in tmp_path.iterdir()] == ["mine"] and list((tmp_path / "mine").iterdir()) == []
    assert _generate(tmp_path / "mine", *NONE_FOUND).exit_code == 1
    assert (tmp_path / "mine").is_dir()


def test_an_interrupt_before_the_first_puzzle_removes_the_folder_made_for_it(tmp_path):
    from nonolab.formats import _files as files
    from nonolab.generate import SetWriter

    writer = SetWriter(tmp_path / "new" / "set", "non")
    assert (tmp_path / "new" / "set").is_dir()
    files.discard_pending()   # what the Ctrl-C handler does, the worker still searching
    assert list(tmp_path.iterdir()) == []
    writer.discard()   # the worker, stopping after: nothing left to remove, no error
    assert list(tmp_path.iterdir()) == []
