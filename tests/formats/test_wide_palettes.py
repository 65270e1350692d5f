"""Every writer on a colour puzzle whose palette is larger than the colours it uses (a house
palette of 40 or 300 colours, clues in 3): it writes the puzzle so that its reader gives it back
(the same clues in the same colours, the goal and givens where the format keeps them), or it
refuses with a typed error naming the limit; never a traceback from inside a writer.

Before, non, toml, pynogram and g raised IndexError past their 26/36/52 letters or characters,
and ctu wrote letters past ``Z`` (``[``, ``\\``...) that its own reader refuses.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.core import Palette, Puzzle, Solution
from nonolab.core.used_colours import clue_colours, over_used_colours
from nonolab.errors import InvalidPuzzle, NonolabError
from nonolab.formats import dumps, holds_colour, holds_givens, loads, names
from tests.one_line import one_line_error

# Formats that need a goal (a picture) and formats that keep one.
PICTURES = {"png", "emoji"}
KEEPS_GOAL = {"non", "webpbn", "json", "png", "emoji"}
# What each bounded colour alphabet holds: a puzzle using more is refused, naming it.
ALPHABET = {"emoji": 8, "g": 52, "ctu": 52, "non": 61}


def _wide(size: int, used: tuple[int, ...], seed: int = 1) -> Puzzle:
    rng = random.Random(seed)
    cells = [[rng.choice((0,) + used) for _ in range(5)] for _ in range(4)]
    return Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(size))


def _rgb_by_use(p: Puzzle) -> list[tuple[int, int, int]]:
    """The RGB of each colour the clues use, in order of first use."""
    order: dict[int, None] = {}
    for blocks in p.coloured_rows + p.coloured_columns:
        for _, c in blocks:
            order.setdefault(c)
    return [p.palette[c].rgb for c in order]


def _same_picture(a: Solution, b: Solution) -> bool:
    """The same picture, each colour of one a colour of the other (the background the background)."""
    pairs = set(zip(a.flat(), b.flat()))
    return a.width == b.width and len(pairs) == len({x for x, _ in pairs}) == len({y for _, y in pairs}) \
        and all((x == 0) == (y == 0) for x, y in pairs) and len(a.flat()) == len(b.flat())


WIDE = {"40": _wide(40, (5, 17, 33)), "300": _wide(300, (5, 140, 250))}


@pytest.mark.parametrize("palette", sorted(WIDE))
@pytest.mark.parametrize("fmt", names())
def test_every_writer_writes_a_wide_palette_puzzle_back_or_refuses_it_typed(fmt, palette):
    puzzle = WIDE[palette]
    assert puzzle.colours == int(palette) and len(clue_colours(puzzle)) == 3
    if not holds_colour(fmt):
        with pytest.raises(InvalidPuzzle, match="black-and-white puzzles only"):
            dumps(puzzle, fmt)
        return
    text = dumps(puzzle, fmt)        # three colours used: every colour format holds them
    back = loads(text, fmt)
    assert back.canonical() == puzzle.canonical()
    if fmt not in ("ctu", "emoji"):   # (ctu: letters; emoji: squares, neither says RGB)
        assert _rgb_by_use(back) == _rgb_by_use(puzzle)
    if fmt in KEEPS_GOAL:
        assert _same_picture(back.goal, puzzle.goal)


def _using(count: int, size: int = 300) -> Puzzle:
    """A one-row picture using ``count`` colours of a ``size``-colour palette."""
    return Puzzle.from_solution(Solution.from_values([list(range(1, count + 1))]), palette=Palette.default_for(size))


@pytest.mark.parametrize("fmt", sorted(ALPHABET))
def test_a_puzzle_using_more_colours_than_a_format_tells_apart_is_refused_naming_the_limit(fmt):
    limit = ALPHABET[fmt]
    with pytest.raises(InvalidPuzzle, match=f"the '{fmt}' format holds at most {limit} colours"):
        dumps(_using(limit + 1), fmt)
    fits = _using(limit)    # the limit itself is written, and read back the same
    assert loads(dumps(fits, fmt), fmt).canonical() == fits.canonical()


@pytest.mark.parametrize("fmt", ["webpbn", "json", "toml", "pynogram"])
def test_formats_that_name_colours_hold_a_hundred_used_ones(fmt):
    puzzle = _using(100)
    back = loads(dumps(puzzle, fmt), fmt)
    assert back.canonical() == puzzle.canonical() and _rgb_by_use(back) == _rgb_by_use(puzzle)


@pytest.mark.parametrize("fmt", [f for f in names() if holds_colour(f) and holds_givens(f)])
def test_a_given_naming_a_colour_no_clue_uses_is_kept(fmt):
    puzzle = WIDE["40"]
    unused = next(c for c in range(1, 41) if c not in clue_colours(puzzle))
    with_given = Puzzle(rows=puzzle.rows, columns=puzzle.columns, palette=puzzle.palette,
                        row_colours=puzzle.row_colours, column_colours=puzzle.column_colours,
                        givens=((0, 0, unused), (1, 1, 0)))
    back = loads(dumps(with_given, fmt), fmt)
    assert back.canonical() == with_given.canonical()
    assert back.palette[back.givens[0][2]].rgb == puzzle.palette[unused].rgb


def test_over_used_colours_is_the_same_puzzle_in_fewer_colours():
    puzzle = WIDE["300"]
    small = over_used_colours(puzzle)
    assert small.colours == 3 and small.canonical() == puzzle.canonical()
    assert [small.palette[v].rgb for v in small.goal.flat()] == [puzzle.palette[v].rgb for v in puzzle.goal.flat()]
    assert over_used_colours(small) is small


def test_the_cli_refuses_in_one_line(tmp_path):
    source = tmp_path / "wide.json"
    source.write_text(dumps(_using(62), "json"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", str(source), str(tmp_path / "out.non")])
    one_line_error(result, "the 'non' format holds at most 61 colours", "uses 62")
    assert not (tmp_path / "out.non").exists()
    fine = tmp_path / "narrow.json"
    fine.write_text(dumps(WIDE["300"], "json"), encoding="utf-8")
    assert CliRunner().invoke(cli, ["convert", str(fine), str(tmp_path / "out.non")]).exit_code == 0
    assert loads((tmp_path / "out.non").read_text(encoding="utf-8")).canonical() == WIDE["300"].canonical()
