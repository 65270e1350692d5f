"""The terminal (issue 28, item 3): colour solutions in their colours with a legend, large grids
never silently downgraded, and a progress bar a user sees, tested under a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from rich.console import Console

import nonolab
from nonolab.core import Puzzle, Solution
from nonolab.render.terminal import grid_with_clues

ROOT = Path(__file__).resolve().parents[2]


def _colour_puzzle():
    return Puzzle.from_solution(Solution.from_values([[1, 2, 0], [0, 1, 2], [3, 3, 1]]))


def test_a_colour_solution_is_drawn_in_its_rgb_colours_with_a_legend():
    puzzle = _colour_puzzle()
    console = Console(width=60, force_terminal=True, color_system="truecolor")
    with console.capture() as out:
        console.print(grid_with_clues(puzzle, puzzle.goal))
    text = out.get()
    for i, colour in enumerate(puzzle.palette.colours[1:], start=1):
        r, g, b = colour.rgb
        assert f"38;2;{r};{g};{b}m██" in text                      # cells in the colour
        assert f"{colour.name} ({colour.char})" in text             # the legend
    assert text.count("1;38;2;") >= len(puzzle.rows)                 # clue numbers coloured


def test_a_grid_too_wide_is_drawn_compact_or_with_a_note(monkeypatch, capsys):
    from nonolab.cli.render_commands import echo_grid
    wide = Puzzle.from_solution(Solution.from_rows(["#.#" * 12] * 4))   # 36 columns
    monkeypatch.setenv("COLUMNS", "75")   # the clues beside 36 cells of 2 characters need 100
    echo_grid(wide, wide.goal, terminal=True)
    out, err = capsys.readouterr()
    assert "one character a cell" in err and "█" in out
    monkeypatch.setenv("COLUMNS", "20")
    echo_grid(wide, wide.goal, terminal=True)
    out, err = capsys.readouterr()
    assert "printed as plain rows" in err and out.splitlines()[0] == "#.#" * 12


def _under_a_terminal(*args: str) -> bytes:
    master, slave = pty.openpty()
    env = dict(os.environ, NONOLAB_PROGRESS_DELAY="0", COLUMNS="100", TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "nonolab", *args], stdin=slave, stdout=slave, stderr=slave,
                            env=env, close_fds=True, cwd=ROOT)
    os.close(slave)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 120)    # a hang guard, not a timing
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        proc.wait(60)
    return b"".join(chunks)


def test_the_progress_bar_is_seen_at_a_terminal():
    seen = _under_a_terminal("check", "puzzles/webpbn/webpbn-00529-swing.non")
    assert b"checking" in seen and b"\xe2\x94\x81" in seen           # the label and the bar's line
    assert seen.rstrip().endswith(b"unique")


def test_no_bar_when_stderr_is_not_a_terminal():
    env = dict(os.environ, NONOLAB_PROGRESS_DELAY="0")
    done = subprocess.run([sys.executable, "-m", "nonolab", "check", "puzzles/webpbn/webpbn-00529-swing.non"],
                          capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert done.stdout == b"unique\n" and b"checking" not in done.stderr
