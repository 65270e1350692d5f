"""Givens are part of the puzzle: the formats that can hold them keep them, the others
refuse a puzzle with givens in one line, and bad givens are named with their line."""

from __future__ import annotations

import random

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidPuzzle, ParseError
from nonolab.formats import dump, dumps, givens_formats, holds_colour, holds_givens, load, loads, names


def _random(seed: int, colours: int = 1) -> Puzzle:
    """A random picture's puzzle, without its goal, with some of its cells given."""
    rng = random.Random(seed)
    w, h = rng.randint(1, 7), rng.randint(1, 7)
    values = [[rng.randint(0, colours) if rng.random() < 0.6 else 0 for _ in range(w)] for _ in range(h)]
    if colours > 1 and len({v for row in values for v in row} - {0}) < 2:   # one colour: not a colour puzzle
        return _random(seed + 1000, colours)
    picture = Solution.from_values(values) if colours > 1 else Solution(values)
    puzzle = Puzzle.from_solution(picture)
    cells = [(r, c) for r in range(h) for c in range(w)]
    given = {cell: values[cell[0]][cell[1]] for cell in rng.sample(cells, rng.randint(1, len(cells)))}
    return puzzle.with_(givens=given, goal=None if seed % 2 else puzzle.goal)


def test_the_formats_that_hold_givens():
    assert givens_formats() == ["json", "tatham", "non"]


@pytest.mark.parametrize("fmt", givens_formats())
@pytest.mark.parametrize("seed", range(40))
def test_givens_survive_a_round_trip(fmt, seed):
    puzzle = _random(seed)
    back = loads(dumps(puzzle, fmt), fmt)
    assert back == puzzle and back.givens == puzzle.givens and back.givens


@pytest.mark.parametrize("fmt", [f for f in givens_formats() if holds_colour(f)])
@pytest.mark.parametrize("seed", range(20))
def test_colour_givens_survive_a_round_trip(fmt, seed):
    puzzle = _random(seed, colours=3)
    back = loads(dumps(puzzle, fmt), fmt)
    assert back.canonical() == puzzle.canonical() and back.is_colour
    assert {(r, c): back.palette[v].name for r, c, v in back.givens} == {
        (r, c): puzzle.palette[v].name for r, c, v in puzzle.givens}


@pytest.mark.parametrize("fmt", [f for f in names() if not holds_givens(f)])
def test_a_format_without_givens_refuses_in_one_line(fmt, tmp_path):
    puzzle = Puzzle.from_solution(Solution.from_rows(["#.", ".#"])).with_(givens={(0, 0): 1})
    with pytest.raises(InvalidPuzzle) as refused:
        dumps(puzzle, fmt)
    message = str(refused.value)
    assert "\n" not in message and f"the {fmt!r} format cannot hold givens" in message and "json" in message
    target = tmp_path / "out.txt"
    target.write_text("kept\n")
    with pytest.raises(InvalidPuzzle):
        dump(puzzle, target, fmt)
    assert target.read_text() == "kept\n"          # nothing half-written
    assert dumps(puzzle.with_(givens=()), fmt) is not None or fmt    # without givens it writes


@pytest.mark.parametrize("text, fmt, message, line", [
    ('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngivens "1"\n', "non", "givens grid has 1 cell,", 8),
    ('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngivens "x?"\n', "non", "givens cell 'x'", 8),
    ('width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "10"\ngivens "01"\n', "non", "goal does not match", 9),
    ('{"rows": [[1]], "columns": [[1]],\n "givens": [[0, 1, 1]]}', "json", "outside the 1x1 grid", 2),
    ('{"rows": [[1]], "columns": [[1]],\n "givens": [[0, 0, 2]]}', "json", "expected 0 (empty) or 1", 2),
    ('{"rows": [[1]], "columns": [[1]],\n "givens": [[0, 0]]}', "json", "a given is [row, column, value]", 2),
    ('{"rows": [[1]], "columns": [[1]],\n "givens": [[0, 0, 1], [0, 0, 0]]}', "json", "given twice", 2),
])
def test_bad_givens_are_one_line_naming_where(text, fmt, message, line):
    with pytest.raises((ParseError, InvalidPuzzle)) as bad:
        loads(text, fmt)
    assert message in str(bad.value) and bad.value.line == line and "\n" not in str(bad.value)


def test_a_puzzle_with_givens_from_a_file_is_solved_with_them(tmp_path):
    from nonolab import check
    path = tmp_path / "switch.non"
    path.write_text('width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngivens "?1??"\n')
    puzzle = load(path)
    assert puzzle.givens == ((0, 1, 1),) and check(puzzle).verdict.value == "unique"
    assert check(puzzle.with_(givens=())).verdict.value == "multiple"


@pytest.mark.parametrize("fmt", ["webpbn", "tatham", "g", "png", "taai"])
def test_a_colour_puzzle_with_givens_is_offered_only_the_formats_that_hold_both(fmt):
    # Audit 7: a colour puzzle with givens was told "(write json, tatham, non)": tatham holds
    # no colour; and tatham's refusal offered "png, webpbn, toml, ...", which hold no givens.
    puzzle = _random(3, colours=3)
    assert puzzle.is_colour and puzzle.givens
    with pytest.raises(InvalidPuzzle) as refused:
        dumps(puzzle, fmt)
    offered = str(refused.value).rpartition(": ")[2] if "written in:" in str(refused.value) else \
        str(refused.value).rpartition("(write ")[2].rstrip(")")
    assert offered.split(", ") == ["json", "non"], str(refused.value)
    assert givens_formats(colour=True) == ["json", "non"]


@pytest.mark.parametrize("fmt", [f for f in givens_formats() if holds_colour(f)])
@pytest.mark.parametrize("given", [3, 2, 1])
def test_a_given_of_a_colour_no_clue_uses_reads_back(fmt, given):
    """audit 14: a colour puzzle whose clues use black only, with a cell given green (so no
    solution), was written by json and non and refused on reading ("given (1,1): 'green' is
    not 0 or 1"): the reader's palette kept only the colours clues use.  Now it keeps the
    colours the givens name too, and the puzzle reads back as the same puzzle (by names)."""
    from nonolab.core import Palette
    from nonolab.harness.uniqueness import check

    puzzle = Puzzle(rows=((1,),), columns=((), (1,)), row_colours=((1,),), column_colours=((), (1,)),
                    palette=Palette.default_for(3), givens={(0, 0): given})
    back = loads(dumps(puzzle, fmt), fmt)
    name = lambda p: {(r, c): p.palette[v].name if p.palette else ".#"[v] for r, c, v in p.givens}  # noqa: E731
    assert name(back) == name(puzzle)
    assert check(back).verdict == check(puzzle).verdict == "contradiction"
    assert loads(dumps(back, fmt), fmt) == back


@pytest.mark.parametrize("fmt", [f for f in givens_formats() if holds_colour(f)])
@pytest.mark.parametrize("seed", range(20))
def test_givens_of_any_palette_colour_survive_a_round_trip(fmt, seed):
    """The class of the one above: random colour puzzles whose palette holds more colours than
    the clues use, with givens of any of them (the background too), read back with the same
    givens by colour name and the same verdict."""
    from nonolab.core import Palette
    from nonolab.harness.uniqueness import check

    rng = random.Random(f"palette-{seed}")
    w, h = rng.randint(1, 5), rng.randint(1, 5)
    used = rng.randint(1, 2)
    picture = Solution.from_values([[rng.randint(0, used) for _ in range(w)] for _ in range(h)])
    base = Puzzle.from_solution(picture)
    if not base.is_colour:   # (one colour: give it a palette of more)
        base = Puzzle(rows=base.rows, columns=base.columns, row_colours=tuple((1,) * len(r) for r in base.rows),
                      column_colours=tuple((1,) * len(c) for c in base.columns))
    palette = Palette.default_for(4)
    puzzle = Puzzle(rows=base.rows, columns=base.columns, row_colours=base.coloured_rows and tuple(
        tuple(c for _, c in line) for line in base.coloured_rows), column_colours=tuple(
        tuple(c for _, c in line) for line in base.coloured_columns), palette=palette,
        givens={(rng.randrange(h), rng.randrange(w)): rng.randint(0, 4) for _ in range(rng.randint(1, 3))})
    back = loads(dumps(puzzle, fmt), fmt)
    name = lambda p: {(r, c): p.palette[v].name if p.palette else ".#"[v] for r, c, v in p.givens}  # noqa: E731
    assert name(back) == name(puzzle)
    assert check(back).verdict == check(puzzle).verdict
