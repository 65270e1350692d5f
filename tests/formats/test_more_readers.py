"""The readers added for issue 17: what each accepts beyond its writer's output, and
what it refuses (with the line)."""

from __future__ import annotations

import pytest

from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats import dumps, loads, sniff

COLOUR = r"colour puzzle \(colours: .+\) is not supported yet"

# --- pynogram text ----------------------------------------------------------------

PYNOGRAM_HELLO = """# comment before the sections
[clues]
columns =
    2, '2'   # two columns

    "2", 0   ; and two more
    # a comment line inside the value

# a comment between the keys
rows = '1 1',
    3
    1

[colors]
"""


def test_pynogram_commas_quotes_comments_and_continuations():
    p = loads(PYNOGRAM_HELLO, "pynogram")
    assert p.columns == ((2,), (2,), (2,), ())
    assert p.rows == ((1, 1), (3,), (1,))
    assert sniff(PYNOGRAM_HELLO) == "pynogram"


def test_pynogram_rows_may_come_first_and_keys_ignore_case():
    p = loads("[clues]\nROWS = 2\nColumns =\n  1\n  1\n", "pynogram")
    assert (p.rows, p.columns) == (((2,),), ((1,), (1,)))


@pytest.mark.parametrize("text, line, message", [
    ("[colors]\n  g=(0, 204, 0) %\n  r = (red) *\n[clues]\ncolumns = 1g\nrows = 1g\n", 2,
     r"colours: g, r\) is not supported yet"),
    ("[clues]\ncolumns = 1, 1\nrows =\n   1 1b\n", 4, r"colours: b\) is not supported yet"),
    ("[clues]\ncolumns = 1\n", 2, "no 'rows =' value"),
    ("columns = 1\n[clues]\n", 1, "before the first"),
    ("[clues]\ncolumns = 1\ncolumns = 1\nrows = 1\n", 3, "given twice"),
    ("[clues]\ncolumns = 1,,1\nrows = 2\n", 2, "empty clue between commas"),
    ("[clues]\ncolumns = 1, x\nrows = 2\n", 2, "'x' is not a non-negative integer"),
    ("[clues]\ncolumns = 1, 1\nrows =\n    3\n", 4, "needs 3 cells"),
    ("[clues]\ncolumns = 1\nrows =\n# only a comment\n", 3, "lists no clues"),
    ("[clues]\nthis line is not an option\n", 2, r"expected '\[section\]'"),
    ("[other]\nx = 1\n", 2, r"no \[clues\] section"),
])
def test_pynogram_errors_name_the_line(text, line, message):
    with pytest.raises((ParseError, InvalidPuzzle), match=message) as info:
        loads(text, "pynogram")
    assert info.value.line == line


def test_pynogram_colours_named_black_and_white_are_not_colour():
    p = loads("[colors]\nblack = (black) X\n[clues]\ncolumns = 1\nrows = 1\n", "pynogram")
    assert p.rows == ((1,),)


def test_writers_put_the_title_in_a_one_line_comment():
    p = loads("[clues]\ncolumns = 1\nrows = 1\n", "pynogram").with_(name="two\nlines")
    text = dumps(p, "pynogram")
    assert text.startswith("# two lines\n[clues]\n")
    assert loads(text).rows == ((1,),)


def test_colour_errors_are_one_line_nonolab_errors():
    with pytest.raises(NonolabError) as info:
        loads("[colors]\nb = (blue) *\n[clues]\ncolumns = 1b\nrows = 1b\n")
    assert "\n" not in str(info.value)
