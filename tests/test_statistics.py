"""``statistics`` (``nonolab info``) on colour puzzles: blocks of different colours may
touch, so a colour line's slack counts a gap only between neighbours of one colour (it
once counted one between every two blocks: a full 2x2 picture in two colours had slack
-1 and no full line), and a puzzle carrying a palette names its colours."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.cli.main import cli
from nonolab.core import Palette, Puzzle, Solution, statistics
from nonolab.formats import dumps


@st.composite
def colour_pictures(draw):
    width, height = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    values = draw(st.lists(st.lists(st.integers(0, 3), min_size=width, max_size=width),
                           min_size=height, max_size=height))
    return Solution.from_values(values)


def _least(line: list[int]) -> int:
    """The fewest cells the line's blocks take, by sliding them together: every block
    kept, one empty cell kept only between two blocks of the same colour."""
    runs = []
    for value in line:
        if value and (not runs or runs[-1][1] != value or runs[-1][2]):
            runs.append([0, value, False])
        if value:
            runs[-1][0] += 1
        elif runs:
            runs[-1][2] = True      # this run has ended
    return sum(n for n, _, _ in runs) + sum(1 for a, b in zip(runs, runs[1:]) if a[1] == b[1])


@settings(max_examples=300, deadline=None)
@given(colour_pictures())
def test_slack_and_full_lines_of_colour_pictures(picture):
    puzzle = Puzzle.from_solution(picture)
    stats = statistics(puzzle)
    lines = [list(picture.row_bytes(r)) for r in range(picture.height)]
    lines += [list(picture.column_bytes(c)) for c in range(picture.width)]
    slacks = [len(line) - _least(line) for line in lines]
    assert stats["min_slack"] == min(slacks) >= 0
    assert stats["mean_slack"] == round(sum(slacks) / len(slacks), 2)
    assert stats["full_lines"] == sum(1 for line in lines if all(line))


def test_two_colours_touch_and_one_colour_keeps_its_gap():
    touching = Puzzle.from_solution(Solution.from_values([[1, 2], [2, 1]]))
    assert (statistics(touching)["min_slack"], statistics(touching)["full_lines"]) == (0, 4)
    plain = Puzzle(rows=((1, 1),), columns=((1,), (), (1,)))
    assert statistics(plain)["min_slack"] == 0 and "colours" not in statistics(plain)


def test_info_names_the_colour_of_a_puzzle_drawn_in_red(tmp_path):
    red = Puzzle.from_solution(Solution.from_rows(["##.", ".#."])).with_(palette=Palette.of(("red", (255, 0, 0), "r")))
    path = tmp_path / "red.non"
    path.write_text(dumps(red, "non"))
    runner = CliRunner()
    text = runner.invoke(cli, ["info", str(path)])
    assert text.exit_code == 0 and "colours:              red" in text.stdout
    assert json.loads(runner.invoke(cli, ["info", str(path), "--json"]).stdout)["colours"] == ["red"]


def test_info_says_how_many_cells_a_puzzle_gives(tmp_path):
    # Audit 10: `nonolab info` of a switch with one given (unique; multiple without it) said
    # nothing of the given, in text or JSON: it described another puzzle.
    switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 0): 1})
    assert statistics(switch)["givens"] == 1
    assert statistics(switch.with_(givens=()))["givens"] == 0
    runner = CliRunner()
    path = tmp_path / "switch.non"
    path.write_text(dumps(switch, "non"), encoding="utf-8")
    text = runner.invoke(cli, ["info", str(path)])
    assert "givens:               1" in text.output.splitlines()
    record = json.loads(runner.invoke(cli, ["info", str(path), "--json"]).output)
    assert record["givens"] == 1
