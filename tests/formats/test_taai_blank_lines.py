"""TAAI: blank lines are empty clues, yet blank lines after a puzzle's last clue (an editor's,
a concatenation's) are spacing: the puzzle takes the fewest that make it whole.  Before, two
or more at the end of a file made the last puzzle of a tournament set a bigger, broken one
("row clues fill 210 cells but column clues fill 226")."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidPuzzle, ParseError
from nonolab.formats import dumps_all, loads_all

TOURNAMENT = Path(__file__).resolve().parents[2] / ".." / "shared" / "tournament" / "taai2011.txt"
PICTURES = (["#.#", ".##", "#.."], ["##..", ".#.#", "#..#", "..##"], ["#.", "##"])


def _set() -> list[Puzzle]:
    return [Puzzle.from_solution(Solution.from_rows(rows), f"p{k}") for k, rows in enumerate(PICTURES, 1)]


def _clues(puzzles) -> list:
    return [(p.rows, p.columns) for p in puzzles]


@pytest.mark.parametrize("blank", [1, 2, 3, 4, 7])
def test_blank_lines_at_the_end_or_between_puzzles_are_spacing(blank):
    text = dumps_all(_set(), "taai")
    expected = _clues(loads_all(text, "taai"))
    assert _clues(loads_all(text + "\n" * blank, "taai")) == expected
    assert _clues(loads_all(text + "\t \r\n" * blank, "taai")) == expected   # blank, not empty
    spaced = text.replace("\n$", "\n" + "\n" * blank + "$")
    assert _clues(loads_all(spaced, "taai")) == expected


def test_a_tournament_set_with_blank_lines_added_reads_the_same():
    if not TOURNAMENT.is_file():
        pytest.skip("../shared/tournament is not here")
    text = TOURNAMENT.read_text(encoding="utf-8")
    assert _clues(loads_all(text + "\n\n\n", "taai")) == _clues(loads_all(text, "taai"))


def test_blank_lines_that_are_the_last_empty_rows_stay_clues():
    # 3x3: columns 1, 1, (empty); rows 1, 1, (empty): its last row written as a blank line
    puzzle = loads_all("$1\n1\n1\n\n1\n1\n\n\n\n\n", "taai")[0]
    assert (puzzle.columns, puzzle.rows) == (((1,), (1,), ()), ((1,), (1,), ()))
    # 4x4, its last two rows empty: two blank lines are clues, the rest spacing
    puzzle = loads_all("$1\n1\n1\n1\n1\n2\n2\n\n\n\n\n\n", "taai")[0]
    assert (puzzle.width, puzzle.rows) == (4, ((2,), (2,), (), ()))
    # Where two readings hold (3x3, or 4x4 with an empty last column and two empty last
    # rows), the fewest blank lines are clues: the rest is spacing.
    puzzle = loads_all("$1\n2\n1\n1\n\n1\n3\n\n\n\n", "taai")[0]
    assert (puzzle.columns, puzzle.rows) == (((2,), (1,), (1,)), ((), (1,), (3,)))


@pytest.mark.parametrize("cut, padding", [(1, 0), (1, 1), (1, 3), (2, 0), (2, 2), (3, 4)])
def test_a_puzzle_short_of_clues_is_still_refused_naming_its_line(cut, padding):
    lines = dumps_all(_set(), "taai").splitlines()
    header = max(k for k, line in enumerate(lines, 1) if line.startswith("$"))
    text = "\n".join(lines[:-cut]) + "\n" + "\n" * padding
    with pytest.raises((ParseError, InvalidPuzzle), match=r"^line \d+: puzzle 3: ") as info:
        loads_all(text, "taai")
    assert header <= info.value.line < len(lines)
