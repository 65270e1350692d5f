"""Colour puzzles on the command line: solve, count, check, verify, pictures; the
commands that need the native engine (grade, explain) refuse them in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.formats import load

COLOUR = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus-colour"
RAINBOW = COLOUR / "nonny" / "rainbow.xml"
VICERES = COLOUR / "olsak-grid" / "viceres.xml"
pytestmark = pytest.mark.skipif(not RAINBOW.is_file(), reason=f"the colour corpus is not at {COLOUR}")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_solve_prints_the_picture_in_the_palettes_chars():
    puzzle = load(RAINBOW)
    result = run("solve", RAINBOW)
    assert result.exit_code == 0
    assert result.output.splitlines()[:5] == puzzle.goal.to_text(chars=puzzle.palette.chars).splitlines()
    assert "unique" in result.output


def test_count_check_and_verify():
    assert run("count", VICERES).output.strip() == "4"
    assert run("check", RAINBOW).output.strip() == "unique"
    result = run("verify", RAINBOW)
    assert result.exit_code == 0 and "AGREE" in result.output and "cpsat" in result.output


def test_the_svg_draws_the_palette(tmp_path):
    out = tmp_path / "r.svg"
    assert run("solve", RAINBOW, "--to", "svg", "-o", out).exit_code == 0
    svg = out.read_text()
    for colour in load(RAINBOW).palette.foreground:
        assert f'fill="#{"%02X%02X%02X" % colour.rgb}"' in svg


@pytest.mark.parametrize("command", ["grade", "explain"])
def test_grade_and_explain_refuse_colour_in_one_line(command):
    result = CliRunner().invoke(cli, [command, str(RAINBOW)])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and "colour" in result.output


def test_the_colour_puzzle_converts_between_formats(tmp_path):
    out = tmp_path / "r.non"
    assert run("convert", RAINBOW, out).exit_code == 0
    assert load(out) == load(RAINBOW)


@pytest.mark.parametrize("args", [("check", "--why", VICERES), ("export", "--to", "dimacs", RAINBOW),
                                  ("export", "--to", "dzn", RAINBOW), ("convert", RAINBOW, "out.nin")])
def test_black_and_white_only_paths_refuse_colour_in_one_line(args, tmp_path, monkeypatch):
    # Writing lengths only would silently make another (black-and-white) puzzle.
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and "black-and-white" in result.output
    assert not (tmp_path / "out.nin").exists()
