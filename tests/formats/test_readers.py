"""What each reader accepts beyond its writer's output, and what it refuses."""

from __future__ import annotations

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidPuzzle, ParseError, TooLarge
from nonolab.formats import dumps, load, loads, loads_all

# --- .non ---------------------------------------------------------------------


def test_non_strict_form():
    text = ('title "Two"\nby "Me"\nwidth 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n2\n0\n\n'
            'goal "1010"\n')
    p = loads(text, "non")
    assert (p.rows, p.columns) == (((1,), (1,)), ((2,), ()))
    assert (p.name, p.metadata) == ("Two", {"by": "Me"})
    assert p.goal == Solution.from_rows(["#.", "#."])
    assert dumps(p, "non") == text


def test_non_pbnsolve_and_fmt2_variants():
    # "rows N" as height, blank line = empty clue, spaces between numbers,
    # unquoted multi-line goal, unknown lines ignored, HTML entities decoded.
    text = ("catalogue 'x'\ntitle \"caf&eacute; &amp; co\"\n# not a key\ncolumns 3\nrows 2\n"
            "rows\n1 1\n\ncolumns\n1\n0\n1\ngoal\n101\n000\n")
    p = loads(text, "non")
    assert p.rows == ((1, 1), ()) and p.columns == ((1,), (), (1,))
    assert p.name == "café & co" and p.metadata["catalogue"] == "x"
    assert p.goal == Solution.from_rows(["#.#", "..."])


def test_non_rows_with_count_followed_by_clues():
    p = loads("width 1\nrows 2\n1\n0\ncolumns 1\n1\n", "non")
    assert p.rows == ((1,), ())


def test_non_mikix_goal_any_non_zero_char_is_filled():
    p = loads('width 2\nheight 1\nrows\n2\ncolumns\n1\n1\ngoal "1a"\n', "non")
    assert p.goal == Solution.from_rows(["##"])


def test_non_nonpack_bundle():
    one = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
    empty = one.replace("1\ncolumns\n1", "0\ncolumns\n0")
    assert [p.rows for p in loads_all(one + "====\n" + empty, "non")] == [((1,),), ((),)]


def test_non_writer_quotes_values_and_skips_unsafe_keys():
    p = Puzzle(rows=((1,),), columns=((1,),), name='say "hi" & <bye>\nnow',
               metadata={"by": "a\"b", "rows": "x", "two words": "y", "licence": "MIT", "notes": "puzzle 'Edge'"})
    text = dumps(p, "non")
    # Only what would end or garble a double-quoted value is an entity: an apostrophe or
    # an angle bracket is written as people read it.
    assert 'title "say &quot;hi&quot; &amp; <bye>&#10;now"' in text and "notes \"puzzle 'Edge'\"" in text
    assert "two words" not in text and 'rows "x"' not in text
    back = loads(text, "non")
    assert back.name == p.name and back.metadata == {"by": 'a"b', "licence": "MIT", "notes": "puzzle 'Edge'"}


def test_non_saved_grid_is_metadata():
    p = loads('width 1\nheight 1\nrows\n1\ncolumns\n1\nsaved "?"\n', "non")
    assert p.metadata["saved"] == "?" and p.goal is None


# --- webpbn XML -----------------------------------------------------------------

SET = """<?xml version="1.0"?>
<puzzleset>
<author>Set Author</author>
<puzzle><title>one</title><solution><image>|X.|</image></solution></puzzle>
<puzzle backgroundcolor="paper" defaultcolor="ink">
<color name="paper" char="-">fff</color><color name="ink" char="#">000</color>
<clues type="rows"><line><count color="ink">1</count></line></clues>
<solution type="goal"><image>|-#|</image></solution>
</puzzle>
</puzzleset>
"""


def test_webpbn_puzzleset_with_two_puzzles():
    one, two = loads_all(SET, "webpbn")
    assert one.name == "one" and one.metadata["author"] == "Set Author"
    assert one.rows == ((1,),) and one.columns == ((1,), ())
    # Columns derived from the goal; the named colours are the only two.
    assert two.rows == ((1,),) and two.columns == ((), (1,))
    assert two.goal == Solution.from_rows([".#"])


def test_webpbn_bare_puzzle_root_and_case_insensitive_tags():
    p = loads("<PUZZLE><Solution><IMAGE>|X|</IMAGE></Solution></PUZZLE>", "webpbn")
    assert p.rows == ((1,),)


def test_webpbn_colour_clues_come_from_a_colour_goal():
    text = ('<puzzleset><puzzle>\n<color name="red" char="r">f00</color>\n<color name="blue" '
            'char="b">00f</color>\n<solution><image>\n|rX|\n|b.|\n</image></solution>\n'
            '</puzzle></puzzleset>')
    p = loads(text, "webpbn")
    assert p.palette.names == ("white", "red", "blue", "black")
    assert p.coloured_rows == (((1, 1), (1, 3)), ((1, 2),))
    assert p.goal.to_text(chars=p.palette.chars) == "rX\nb."
    assert loads(dumps(p, "webpbn")) == p


def test_webpbn_refuses_entities_and_never_fetches():
    text = ('<?xml version="1.0"?>\n<!DOCTYPE puzzleset [\n<!ENTITY e SYSTEM "file:///etc/passwd">'
            '\n]>\n<puzzleset>&e;</puzzleset>')
    with pytest.raises(ParseError, match="entity declarations are not allowed"):
        loads(text, "webpbn")


def test_webpbn_triddler_and_unknown_cells_are_refused():
    with pytest.raises(ParseError, match="triddler"):
        loads('<puzzleset><puzzle type="triddler"/></puzzleset>', "webpbn")
    with pytest.raises(ParseError, match="undecided"):
        loads("<puzzle><solution><image>|X?|</image></solution></puzzle>", "webpbn")


def test_webpbn_writer_escapes_text():
    p = Puzzle.from_solution(Solution.from_rows(["#"]), name="<a & b>", by="Ann")
    text = dumps(p, "webpbn")
    assert "<title>&lt;a &amp; b&gt;</title>" in text and "<author>Ann</author>" in text
    assert loads(text).name == "<a & b>"


# --- .g, .mk, .cwd, .nin ------------------------------------------------------------


def test_g_refuses_triddlers_and_missing_default_colour():
    with pytest.raises(ParseError, match="triddlers"):
        loads("#t\n: rows\n", "g")
    with pytest.raises(ParseError, match="no default colour") as info:
        loads("intro\n#d\n0:. white\n: rows\n1\n: columns\n1\n", "g")
    assert info.value.line == 2


def test_g_without_end_line_drops_trailing_blank_lines():
    p = loads(": rows\n1\n\n: columns\n1\n0\n\n\n", "g")
    assert p.rows == ((1,), ()) and p.columns == ((1,), ())


def test_g_writer_uses_blank_lines_for_empty_lines():
    p = Puzzle(rows=((1,), ()), columns=((1,), ()))
    assert dumps(p, "g") == ": rows\n1\n\n: columns\n1\n\n: end\n"


def test_mk_comments_and_commas():
    p = loads("# by hand\n2 3\n1,1\n0\n#\n1\n0\n1\n# tail comment\n", "mk")
    assert p.rows == ((1, 1), ()) and p.columns == ((1,), (), (1,))


def test_nin_ignores_text_after_the_last_clue():
    # jwilk's data142.nin carries such trailing lines; his solver ignores them.
    assert loads("1 1\n1\n1\n5 5\n", "nin").rows == ((1,),)


def test_cwd_refuses_trailing_text():
    with pytest.raises(ParseError, match="unexpected text") as info:
        loads("1\n1\n1\n\n1\n2\n", "cwd")
    assert info.value.line == 6


# --- TAAI -------------------------------------------------------------------------------


def test_taai_columns_come_first():
    p = loads("$7\n1\t1\n0\n0\n1\n0\n1\n", "taai")
    assert p.name == "$7" and p.columns == ((1, 1), (), ()) and p.rows == ((1,), (), (1,))


def test_taai_headerless_is_one_puzzle():
    p = loads("1\t1\n0\n0\n1\n0\n1\n\n", "taai")
    assert p.name == "" and p.columns == ((1, 1), (), ()) and p.rows == ((1,), (), (1,))


def test_taai_writer_refuses_non_square():
    with pytest.raises(InvalidPuzzle, match="square"):
        dumps(Puzzle(rows=((1,),), columns=((1,), ())), "taai")


def test_taai_text_before_first_header():
    with pytest.raises(ParseError, match="before the first") as info:
        loads("junk\n$1\n1\n1\n", "taai")
    assert info.value.line == 1


# --- Tatham -------------------------------------------------------------------------------


def test_tatham_givens_are_part_of_the_puzzle():
    # 2x2 with one given: skip 3 unknown cells, then cell 4 is filled ('D').
    p = loads("2x2:1/1/1/1,D", "tatham")
    assert p.givens == ((1, 1, 1),) and "givens" not in p.metadata
    assert dumps(p, "tatham") == "2x2:1/1/1/1,D\n"
    from nonolab import count
    assert count(p).describe() == "1" and count(p.with_(givens=())).describe() == "2"   # the switch, decided
    assert loads("2x2:1/1/1/1,e", "tatham").givens == ()   # no given at all
    assert loads("2x2:1/1/1/1,aC", "tatham").givens == ((0, 0, 0), (1, 1, 1))


@pytest.mark.parametrize("givens, message", [
    ("", "too little"), ("a", "too little"), ("f", "too much"), ("1D", "unrecognised"),
    ("D1", "too much"), ("Da", "too much"), ("z", "too much"),
])
def test_tatham_bad_givens(givens, message):
    with pytest.raises(ParseError, match=message):
        loads(f"2x2:1/1/1/1,{givens}", "tatham")


@pytest.mark.parametrize("text, message", [
    ("2x2:1/1/1/1\n2x2:1/1/1/1", "single line"), ("2x2;1/1/1/1", "not a Tatham game ID"),
    ("2x2:1/1/1/0", "positive"), ("2x2:1/1/1/1..1", "'' is not a number"),
])
def test_tatham_errors(text, message):
    with pytest.raises(ParseError, match=message):
        loads(text, "tatham")


# --- JSON ----------------------------------------------------------------------------------


def test_json_variants():
    p = loads('{"rows": ["1 1", [], [0]], "cols": [[1], [], [1]], "goal": [[1, 0, 1], "...", '
              '"000"], "metadata": {"year": 2024}}', "json")
    assert p.rows == ((1, 1), (), ()) and p.columns == ((1,), (), (1,))
    assert p.goal == Solution.from_rows(["#.#", "...", "..."])
    assert p.metadata == {"year": "2024"}


@pytest.mark.parametrize("text, line, message", [
    ("[]", 1, "no puzzle"), ("[\n1\n]", 2, "must be a JSON object"),
    ('{\n"rows": [[1]],\n"columns": 5\n}', 3, "must be a list of clues"),
    ('{"rows": [[1]],\n"columns": [[true]]}', 2, "must be a list of integers"),
    ('{"rows": [[1]], "columns": [[1]],\n"name": 3}', 2, '"name" must be a string'),
    ('{"rows": [[1]], "columns": [[1]],\n"goal": ["#",\n"2"]}', 3, "goal row 2"),
    ('{"rows": [[1]], "columns": [[1]], "metadata": {"a": [1]}}', 1, "metadata"),
    ('{"rows": [[1, 0]], "columns": [[1]]}', 1, "not positive"),
    ("[" * 100000, 1, "nested more than 100 levels"),   # the input budget's depth, before json recurses
    # a set on one line: the line is 1 for every puzzle, so the message names the puzzle
    ('[{"rows": [[1]], "columns": [[1]]}, {"rows": [[9]], "columns": [[1]]}]', 1, "puzzle 2: row 1"),
    # a set over several lines: the line of the bad clue, not of its puzzle's "rows" key
    ('[{"rows": [[1]], "columns": [[1]]},\n{"rows": [[1],\n[1,\n9]],\n"columns": [[1], [1]]}]', 3,
     "puzzle 2: row 2: clue 1 9"),
    ('[{"rows": [[1]], "columns": [[1]]},\n{"rows": [[1], [1]],\n"columns": [[1],\n[true]]}]', 4,
     "puzzle 2: columns[1]"),
    # a given the grid cannot take: its own line, not the "givens" key's (the JSON reader knows it)
    ('{"rows": [[1]], "columns": [[1]], "givens": [\n[0, 0, 1],\n[0, 5, 1]]}', 3, "(1,6) is outside"),
    ('{"rows": [[1]], "columns": [[1]], "givens": [\n[0, 0, 1],\n[0, 0, 3]]}', 3, "given twice"),
    ('{"rows": [[1]], "columns": [[1]], "givens": [\n[0, 0, 3]]}', 2, "has value 3"),
    ('{"rows": [[1]], "columns": [[1]], "givens": [\n[0, 0, 1],\n"x"]}', 3, "not 'x'"),
])
def test_json_errors(text, line, message):
    with pytest.raises((ParseError, InvalidPuzzle, TooLarge)) as info:
        loads_all(text, "json")     # every puzzle: loads reads a set's first one
    assert info.value.line == line
    assert message in str(info.value).lower() or message in str(info.value)


# --- pictures ----------------------------------------------------------------------------------


def test_picture_variants():
    p = loads("\nXx.  \n.01\n\n", "picture")
    assert p.goal == Solution.from_rows(["##.", "..#"])
    with pytest.raises(ParseError, match="blank line inside") as info:
        loads("#.\n\n.#\n", "picture")
    assert info.value.line == 2


def test_picture_writer_needs_a_goal():
    p = Puzzle(rows=((1,),), columns=((1,),))
    for fmt in ("picture", "pbm"):
        with pytest.raises(InvalidPuzzle, match=f"the {fmt} format needs a goal") as info:
            dumps(p, fmt)
        assert info.value.kind == "goal"


def test_pbm_p1_writer_wraps_long_rows():
    p = Puzzle.from_solution(Solution.from_rows(["#" * 100]), name="long\nname")
    text = dumps(p, "pbm")
    assert text.startswith("P1\n# long name\n100 1\n")
    assert max(map(len, text.splitlines())) <= 70
    assert loads(text).goal == p.goal


def test_pbm_p4_binary_file(tmp_path):
    path = tmp_path / "x.pbm"
    path.write_bytes(b"P4 9 2\n\xff\x80\x00\x80")
    p = load(path)
    assert p.goal == Solution.from_rows(["#" * 9, "." * 8 + "#"])


@pytest.mark.parametrize("text, message", [
    ("P1\n0 3\n", "empty"), ("P1\n2\n", "height"), ("P1\n1 1\n2\n", "unexpected character"),
    ("P1\n1 1\n1 1\n", "after the last pixel"), ("P4\n1 1\n\x80\x80", "after the p4"),
    ("P4\n1 1", "one whitespace"), ("P4\n1 1\n\u0100", "bytes"),
])
def test_pbm_errors(text, message):
    with pytest.raises(ParseError) as info:
        loads(text, "pbm")
    assert message in str(info.value).lower()
    assert info.value.line is not None


@pytest.mark.parametrize("text, fmt", [
    ('<puzzle type="a&#10;b"/>', "webpbn"),
    ('<puzzle><clues type="rows&#13;"/></puzzle>', "webpbn"),
    ('<puzzle><color name="r&#10;x" char="r">f00</color><clues type="rows"><line>'
     '<count color="r&#10;x">1</count><count>1</count></line></clues></puzzle>', "webpbn"),
    ("<puzzle><clues type='rows'><line><count>1\n2</count></line></clues></puzzle>", "webpbn"),
    ("width 1\nheight 1\nrows\n" + "9" * 5000 + "\ncolumns\n1\n", "non"),
])
def test_messages_stay_on_one_line(text, fmt):
    with pytest.raises(ParseError) as info:
        loads(text, fmt)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200


def test_non_stream_of_concatenated_files_gives_every_puzzle():
    # `cat a.non b.non`: no separator, each file's metadata first; every puzzle is read,
    # each with its own title and metadata (a dropped second puzzle would be a false answer).
    from pathlib import Path

    from nonolab.formats import loads_all
    puzzles_dir = Path(__file__).resolve().parents[2] / "puzzles"
    first = (puzzles_dir / "nonolab" / "heart.non").read_text(encoding="utf-8")
    second = (puzzles_dir / "hakank" / "nonunique.non").read_text(encoding="utf-8")
    one, two = loads_all(first + second, "non")
    assert (one.name, two.name) == (loads_all(first)[0].name, loads_all(second)[0].name)
    assert (one.rows, two.rows) == (loads_all(first)[0].rows, loads_all(second)[0].rows)
    assert dict(two.metadata) == dict(loads_all(second)[0].metadata)
    assert len(loads_all(first + "\n" + second + "\n" + first, "non")) == 3
    # fmt2's "rows N" size line is not a clue block: such a file stays one puzzle.
    assert len(loads_all("rows 1\ncolumns 1\nrows\n1\ncolumns\n1\n", "non")) == 1


def test_non_stream_of_concatenated_colour_files_gives_every_puzzle():
    # Audit 7: a colour clue line starts with a colour's name ("red 1 green 2"), which the
    # stream splitter took for a key after a complete puzzle: `cat a.non b.non` of two colour
    # puzzles (as `generate --colours 3 -n 2` prints them) failed with "expected 6 column clue lines".
    from nonolab.formats import loads_all
    first = ("title \"a\"\nwidth 2\nheight 1\ncolor red FF0000 r\ncolor green 00A000 g\n\n"
             "rows\nred 1 green 1\n\ncolumns\nred 1\ngreen 1\n")
    second = ("title \"b\"\nwidth 1\nheight 2\ncolor blue 0000FF b\n\nrows\nblue 1\n1\n\n"
              "columns\nblue 1 black 1\n")
    one, two = loads_all(first + second, "non")
    assert (one.name, two.name) == ("a", "b")
    assert one.coloured_rows == loads_all(first)[0].coloured_rows
    assert two.coloured_columns == loads_all(second)[0].coloured_columns
    assert len(loads_all(first + second + first, "non")) == 3
    # The second puzzle's colours declared before its first opening key are still its own.
    third = "color blue 0000FF b\nwidth 1\nheight 2\nrows\nblue 1\n1\ncolumns\nblue 1 black 1\n"
    assert [p.name for p in loads_all(first + third + first, "non")] == ["a", "", "a"]
