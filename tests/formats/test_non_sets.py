"""``.non`` holds one puzzle a file; nonolab reads several files one after another all the same.

Audit 10 left it two-faced: the reader split ``cat a.non b.non`` and ``generate -n 2`` printed
such a stream, but ``convert``/``repair`` said "the 'non' format holds one puzzle".  pbnsolve
reads a file of two puzzles as one mix of them (each key's last value), in silence, and
nonosolve refuses it: nonolab writes one puzzle a file on every path (the commands' refusals:
tests/cli/test_non_sets_cli.py), and reads a stream of files as their puzzles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument
from nonolab.formats import dumps, dumps_all, holds_several, load, loads_all, reads_concatenated

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def three() -> list[Puzzle]:
    """Black and white with a title, metadata, goal and givens; a colour puzzle with its goal
    and givens; an untitled one with givens last."""
    heart = load(PUZZLES / "nonolab" / "heart.non")
    goal = list(heart.goal.flat())
    first = heart.with_(givens={(r, c): goal[r * heart.width + c] for r, c in ((0, 1), (2, 0), (5, 5))},
                        metadata={"author": "someone", "copyright": "CC0"})
    picture = Solution.from_values([[1, 0, 2, 2], [0, 1, 2, 0], [2, 2, 0, 3], [0, 2, 3, 3]])
    colour = Puzzle.from_solution(picture, "colour switch").with_(givens={(0, 0): 1, (1, 1): 1})
    plain = load(PUZZLES / "nonolab" / "permutations-5.non").with_(name="", givens={(4, 4): 1})
    return [first, colour, plain]


def test_non_writes_one_puzzle_a_file():
    puzzles = three()
    assert not holds_several("non") and reads_concatenated("non")
    with pytest.raises(InvalidArgument, match="the 'non' format holds one puzzle, and there are 3 to write"):
        dumps_all(puzzles, "non")
    assert dumps_all(puzzles[:1], "non") == dumps(puzzles[0], "non")   # a set of one is the plain file


def test_three_files_one_after_another_read_back_as_their_puzzles():
    # `cat a.non b.non c.non` of files nonolab wrote: every puzzle, each with its own title,
    # metadata, colours, goal and givens
    puzzles = three()
    assert loads_all("".join(dumps(p, "non") for p in puzzles), "non") == puzzles
    assert loads_all("\n".join(dumps(p, "non") for p in puzzles), "non") == puzzles


def test_givens_after_the_clues_stay_with_their_puzzle():
    # The stream splitter took a `givens` line after a complete puzzle for the next one's:
    # the first puzzle lost its givens and the second got a grid of the wrong size.
    first, _, plain = three()
    one, two = loads_all(dumps(first, "non") + dumps(plain, "non"), "non")
    assert one.given_cells == first.given_cells and two.given_cells == plain.given_cells
