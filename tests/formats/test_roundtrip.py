"""Every writer's output reads back to the same puzzle, and sniffs as its format."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.formats import dumps, dumps_all, loads, loads_all, names, sniff

KEEPS_GOAL = {"non", "webpbn", "json", "picture", "pbm"}
KEEPS_NAME = {"non", "webpbn", "json"}
KEEPS_METADATA = {"non", "json"}
MULTI = {"webpbn", "taai", "json"}
# Formats without a signature: some texts are valid in two of them (lines of "0"
# alone are keen and syro alike), and then either reading gives the same clues.
NO_SIGNATURE = {"keen", "syro", "ish"}

_row_kinds = st.sampled_from(["empty", "full", "random", "random"])


@st.composite
def pictures(draw, square: bool = False) -> Solution:
    height = draw(st.integers(1, 12))
    width = height if square else draw(st.integers(1, 12))
    rows = []
    for _ in range(height):
        kind = draw(_row_kinds)
        if kind == "random":
            rows.append(tuple(draw(st.lists(st.integers(0, 1), min_size=width, max_size=width))))
        else:
            rows.append((1 if kind == "full" else 0,) * width)
    return Solution(tuple(rows))


# Names survive every format that keeps one: no control characters, no edge spaces.
_names = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF,
                               blacklist_categories=("Cc", "Cs")), max_size=20).map(str.strip)
_keys = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda k: k not in {"width", "height", "rows", "columns", "goal", "title", "color", "colour",
                        "saved"})
_metadata = st.dictionaries(_keys, _names, max_size=3)


@st.composite
def puzzles(draw, square: bool = False) -> Puzzle:
    puzzle = Puzzle.from_solution(draw(pictures(square)), name=draw(_names))
    return puzzle.with_(metadata=draw(_metadata))


def _check(puzzle: Puzzle, fmt: str) -> None:
    text = dumps(puzzle, fmt)
    back = loads(text, fmt)
    assert (back.rows, back.columns) == (puzzle.rows, puzzle.columns)
    if fmt in KEEPS_GOAL:
        assert back.goal == puzzle.goal
    if fmt in KEEPS_NAME:
        assert back.name == puzzle.name
        assert back == puzzle
    if fmt in KEEPS_METADATA:
        assert back.metadata == puzzle.metadata
    sniffed = sniff(text)
    if sniffed != fmt and fmt in NO_SIGNATURE:
        assert sniffed in NO_SIGNATURE, text
    else:
        assert sniffed == fmt, text
    assert loads(text) == back


@pytest.mark.parametrize("fmt", [f for f in names() if f != "taai"])
@settings(max_examples=60, deadline=None)
@given(puzzle=puzzles())
def test_round_trip(fmt, puzzle):
    _check(puzzle, fmt)


@settings(max_examples=60, deadline=None)
@given(puzzle=puzzles(square=True))
def test_round_trip_taai(puzzle):
    _check(puzzle, "taai")


@pytest.mark.parametrize("fmt", sorted(MULTI))
@settings(max_examples=25, deadline=None)
@given(batch=st.lists(puzzles(square=True), min_size=1, max_size=4))
def test_round_trip_several(fmt, batch):
    back = loads_all(dumps_all(batch, fmt), fmt)
    assert [(p.rows, p.columns) for p in back] == [(p.rows, p.columns) for p in batch]
    if fmt in KEEPS_NAME:
        assert [p.name for p in back] == [p.name for p in batch]


@pytest.mark.parametrize("fmt", names())
def test_extreme_pictures(fmt):
    for rows in (["#"], ["."], ["#" * 12] * 12, ["." * 12] * 12, ["#."] * 3, ["#", ".", "#"]):
        if fmt == "taai" and len(rows) != len(rows[0]):
            continue
        _check(Puzzle.from_solution(Solution.from_rows(rows)), fmt)


TEXT_FORMATS = [fmt for fmt in names() if fmt != "png"]


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_a_byte_order_mark_reads_as_the_file_without_it(fmt, line_end, tmp_path):
    # Windows editors save UTF-8 with a BOM: a TOML file read as "not valid TOML" (or as
    # pynogram's text, "found ']'"), a plain PBM as "it must start with 'P1'", an LP file
    # was not recognised; every reader takes what a file holds after the mark.
    from nonolab.formats import load, suffix_of
    puzzle = Puzzle.from_solution(Solution.from_rows(["#.#", "##.", ".##"]))
    text = "\ufeff" + dumps(puzzle, fmt).replace("\n", line_end)
    for back in (loads(text, fmt), loads(text)):
        assert (back.rows, back.columns) == (puzzle.rows, puzzle.columns)
    path = tmp_path / f"p{suffix_of(fmt)}"
    path.write_bytes(text.encode("utf-8"))
    back = load(path)
    assert (back.rows, back.columns) == (puzzle.rows, puzzle.columns)
