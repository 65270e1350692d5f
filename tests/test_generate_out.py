"""generate --out DIR into a folder that holds an earlier generated set is refused, not clobbered.

It used to write there: index.csv was replaced by the new run's (the earlier puzzles, still
on disk, were no longer listed) and a puzzle of the same name (gen-5x5-seed1-001.non of other
options) was overwritten, silently, with exit code 0.
"""

from __future__ import annotations

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
    again = _generate(out, "-n", "1", "--density", "0.3")
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
