"""``-o FILE`` whose suffix names no format is refused before any work: solve and repair
ran their whole search (minutes on a hard puzzle, up to its --time-limit) and only then
said "cannot tell the format from the suffix"."""

from __future__ import annotations

from pathlib import Path

import pytest

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SWITCH = PUZZLES / "nonolab" / "switch.non"


@pytest.mark.parametrize("command", [["solve"], ["solve", "--check"], ["repair"]])
def test_an_output_suffix_that_names_no_format_is_refused_first(run, tmp_path, command):
    out = tmp_path / "out.xyz"
    result = run(*command, SWITCH, "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert f"{out}: cannot tell the format from the suffix '.xyz'; name it with --to" in result.output
    # No search ran: solve's summary says what it found, repair's what it repaired.
    assert "found" not in result.output and "repaired" not in result.output


def test_with_to_the_same_name_is_written(run, tmp_path):
    out = tmp_path / "out.xyz"
    assert run("solve", SWITCH, "-o", out, "--to", "non").exit_code == 0
    assert "width 2" in out.read_text()
