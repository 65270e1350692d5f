"""Colour puzzles in every format that holds them: written, sniffed, read back the same.

The puzzles are the shared colour corpus (read by path, never copied) and small
pictures made here; a format that holds RGB must keep it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.core import Palette, Puzzle, Solution
from nonolab.errors import NonolabError
from nonolab.formats import dump, dumps, load, loads, sniff

COLOUR = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus-colour"
CORPUS = sorted(COLOUR.glob("*/*.xml")) if COLOUR.is_dir() else []
# Formats that write clues (any colour count), and pictures that need a goal.  CTU
# files have letters only, so colours come back numbered by first use (canonical).
CLUE_FORMATS = ("webpbn", "json", "toml", "pynogram", "non", "g", "ctu")
RGB_FORMATS = ("webpbn", "json", "toml", "pynogram", "non", "g", "png")


def _rgb_by_use(p: Puzzle) -> dict[int, tuple[int, int, int]]:
    """Each colour's RGB, keyed by its number in ``p.canonical()`` (first use in the clues)."""
    order: dict[int, int] = {}
    for blocks in p.coloured_rows + p.coloured_columns:
        for _, c in blocks:
            order.setdefault(c, len(order) + 1)
    return {number: p.palette[c].rgb for c, number in order.items()}


def _same(again: Puzzle, p: Puzzle, fmt: str) -> bool:
    """The same puzzle; CTU (letters) and pictures (first pixel) number colours their own way."""
    if fmt in ("ctu", "png", "emoji"):
        same = again.canonical() == p.canonical()
    else:
        same = again == p and [c.rgb for c in again.palette] == [c.rgb for c in p.palette]
    return same and (fmt not in RGB_FORMATS or _rgb_by_use(again) == _rgb_by_use(p))


def _small() -> Puzzle:
    picture = Solution.from_values([[1, 2, 2, 0], [0, 3, 1, 1], [2, 0, 0, 3]])
    return Puzzle.from_solution(picture, name="small", palette=Palette.default_for(3))


@pytest.mark.parametrize("fmt", CLUE_FORMATS + ("png", "emoji"))
def test_a_colour_puzzle_round_trips_and_is_sniffed(fmt):
    p = _small()
    text = dumps(p, fmt)
    assert sniff(text) == fmt
    again = loads(text)
    assert again.is_colour and _same(again, p, fmt)
    if fmt in ("webpbn", "json", "non"):
        assert again.goal == p.goal


@pytest.mark.skipif(not CORPUS, reason=f"the colour corpus is not at {COLOUR}")
@pytest.mark.parametrize("path", CORPUS, ids=[p.parent.name + "/" + p.stem for p in CORPUS])
def test_every_corpus_puzzle_round_trips_through_every_colour_format(path, tmp_path):
    p = load(path)
    assert p.is_colour
    for fmt in CLUE_FORMATS + (("png",) if p.goal is not None else ()):
        target = tmp_path / f"out.{fmt}"
        dump(p, target, fmt)
        assert _same(load(target), p, fmt), fmt


def test_the_non_colour_goal_is_written_in_the_declared_chars_and_read_back():
    p = _small()
    text = dumps(p, "non")
    goal = text.split('goal "')[1].split('"')[0]
    assert len(goal) == 12 and goal[3] == "0" and goal[0] == p.palette[1].char   # 0 is the background
    assert loads(text, "non").goal == p.goal
    # A char the goal line cannot carry (a quote, the background's 0): the plain chars instead.
    odd = Palette.of(("red", (255, 0, 0), '"'), ("blue", (0, 0, 255), "0"), ("green", (0, 160, 0), "g"))
    q = Puzzle.from_solution(p.goal, name="odd", palette=odd)
    again = loads(dumps(q, "non"), "non")
    assert again == q and again.goal == q.goal
    with pytest.raises(NonolabError, match="goal cell"):
        loads(text.replace(goal, goal.replace(goal[0], "~")), "non")


def test_emoji_squares_are_chosen_by_what_the_eye_sees():
    # Dark purple is nearer the brown square than the purple one in RGB, not in L*a*b*.
    shades = Palette.of(("purple", (128, 0, 128), "p"), ("navy", (0, 0, 128), "n"), ("maroon", (128, 0, 0), "m"))
    p = Puzzle.from_solution(Solution.from_values([[1, 2, 3]]), name="shades", palette=shades)
    assert dumps(p, "emoji") == "🟪🟦🟥\n"


def test_a_black_and_white_png_is_black_and_white():
    p = loads("#.\n##\n")
    again = loads(dumps(p, "png"))
    assert again == p and not again.is_colour and again.goal == p.goal


def test_broken_colour_files_fail_with_one_line():
    for text, fmt in (("\x89PNG\r\n\x1a\nxx", "png"), ("2,1\nR,1\n", "ctu"), ("⬜🟥\n⬜\n", "emoji"),
                      ('{"palette": [{"name": "w", "rgb": "FFF"}], "rows": [], "columns": []}', "json")):
        with pytest.raises(NonolabError) as info:
            loads(text, fmt)
        assert "\n" not in str(info.value)


def test_colour_totals_and_gaps_are_checked():
    palette = Palette.default_for(2)
    with pytest.raises(NonolabError, match="colour"):
        Puzzle(rows=((1,),), columns=((1,),), row_colours=((1,),), column_colours=((2,),), palette=palette)
    # Same colour needs a gap (3 cells), different colours may touch (2 cells).
    with pytest.raises(NonolabError, match="needs 3 cells"):
        Puzzle(rows=((1, 1),), columns=((1,), (1,)), row_colours=((1, 1),), column_colours=((1,), (1,)),
               palette=palette)
    assert Puzzle(rows=((1, 1),), columns=((1,), (1,)), row_colours=((1, 2),), column_colours=((1,), (2,)),
                  palette=palette).width == 2


@pytest.mark.parametrize("cells", ["r.bb", "r..r"])
def test_a_goal_by_characters_builds_the_puzzle_of_a_goal_by_names(cells):
    # The .non reader hands build_coloured a CharGoal (one translate over the cells); the
    # other readers rows of colour names: the same puzzle, palette and goal either way
    # (also when the goal leaves one colour: a black-and-white puzzle).
    from nonolab.formats._colours import CharGoal, build_coloured
    from nonolab.formats._common import ClueLines

    declared = {"white": ((255, 255, 255), "."), "red": ((255, 0, 0), "r"), "blue": ((0, 0, 255), "b")}
    names = {".": "white", "r": "red", "b": "blue"}
    picture = [[names[ch] for ch in cells[:2]], [names[ch] for ch in cells[2:]]]

    def runs(line):
        out, previous = [], "white"
        for name in line:
            if name != "white" and name == previous:
                out[-1] = (out[-1][0] + 1, name)
            elif name != "white":
                out.append((1, name))
            previous = name
        return out

    rows = [runs(r) for r in picture]
    columns = [runs([r[c] for r in picture]) for c in range(2)]
    lines = ClueLines(rows=[1, 2], columns=[3, 4], size=1, goal=5)
    by_names = build_coloured(rows, columns, "white", declared, lines, goal=picture)
    by_chars = build_coloured(rows, columns, "white", declared, lines,
                              goal=CharGoal(cells, 2, {ch: names[ch] for ch in set(cells)}))
    assert by_chars == by_names and by_chars.goal == by_names.goal and by_chars.palette == by_names.palette
