"""The readers added for issue 17: what each accepts beyond its writer's output, and
what it refuses (with the line)."""

from __future__ import annotations

import pytest

from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats import dumps, keen, loads, sniff


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
    ("[colors]\n  g=(nocolour) %\n[clues]\ncolumns = 1g\nrows = 1g\n", 2, r"is not '\(name"),
    ("[clues]\ncolumns = 1, 1\nrows =\n   1 1b\n", 4, r"colour 'b' is not defined"),
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
        loads("[colors]\nb = (blue) *\n[clues]\ncolumns = 1b\nrows = 1c\n")
    assert "\n" not in str(info.value)


def test_pynogram_and_toml_read_and_write_colour():
    text = "[colors]\n  g=(0, 204, 0) %\n  r = (red) *\n[clues]\ncolumns = 1g, 1r\nrows = 1g 1r\n"
    p = loads(text, "pynogram")
    assert p.is_colour and p.rows == ((1, 1),) and p.row_colours == ((1, 2),)
    assert [c.rgb for c in p.palette] == [(255, 255, 255), (0, 204, 0), (255, 0, 0)]
    for fmt in ("pynogram", "toml"):
        again = loads(dumps(p, fmt), fmt)
        assert again == p and [c.rgb for c in again.palette] == [c.rgb for c in p.palette]


# --- headerless two-block formats: keen (gramcracker), syro, ish, makhorin -------------

def test_keen_is_rows_blank_line_columns():
    p = loads("\n1 1\n0\n\n1\n0\n1\n\n\n", "keen")
    assert (p.rows, p.columns) == (((1, 1), ()), ((1,), (), (1,)))
    assert sniff("1 1\n0\n\n1\n0\n1\n") == "keen"


def test_syro_drops_the_final_zero_and_reads_comments():
    p = loads("# Two by three\n1 1 0\n0\n\n1 0\n0\n1 0\n", "syro")
    assert (p.rows, p.columns) == (((1, 1), ()), ((1,), (), (1,)))
    assert sniff("1 1 0\n0\n\n1 0\n0\n1 0\n") == "syro"


def test_ish_reads_commas_and_comments():
    text = "# Two by three\n# by someone\n1,1\n0\n\n1\n0\n1\n"
    assert loads(text, "ish").rows == ((1, 1), ())
    assert sniff(text) == "ish"


def test_makhorin_reads_star_comments_and_the_ampersand():
    text = "* this is a comment\n* rows\n2 2\n0\n1 1\n1 1\n3\n&\n* columns\n1 1\n1 1 1\n1\n1 1 1\n1 1\n"
    p = loads(text, "makhorin")
    assert p.size == (5, 5) and p.rows[1] == () and p.columns[1] == (1, 1, 1)
    assert sniff(text) == "makhorin"


@pytest.mark.parametrize("fmt, text, line, message", [
    ("keen", "1\n1\n", 2, "there is no blank line"),
    ("keen", "1\n\n1\n\n1\n", 5, "a third block"),
    ("keen", "1\n\n2\n", 3, "needs 2 cells"),
    ("keen", "1 x\n\n1\n", 1, "'x' is not a non-negative integer"),
    ("keen", "# c\n1\n\n1\n", 1, "'#' is not a non-negative integer"),
    ("syro", "1 0\n\n1\n", 3, "does not end with the 0"),
    ("syro", "# only\n# comments\n", 2, "there is no blank line"),
    ("ish", "1,1\n\n1\n1\n", 1, "needs 3 cells"),
    ("makhorin", "1\n1\n", 2, "no '&' line"),
    ("makhorin", "1\n&\n1\n&\n", 4, "a second '&' line"),
    ("makhorin", "1\n\n1\n&\n1\n1\n", 2, "blank line inside the row clues"),
    ("makhorin", "* c\n&\n1\n", 3, "no row clues"),
])
def test_two_block_errors_name_the_line(fmt, text, line, message):
    with pytest.raises((ParseError, InvalidPuzzle), match=message) as info:
        loads(text, fmt)
    assert info.value.line == line


def test_keen_sniffer_refuses_texts_whose_clues_do_not_fit():
    # .cwd: read as keen, the two size lines would be row clues and the totals differ.
    assert sniff("2\n3\n1 1\n0\n\n1\n0\n1\n") == "cwd"
    assert not keen.sniff("2\n3\n1 1\n0\n\n1\n0\n1\n")
    assert not keen.sniff("3 2\n1 1\n\n1\n0\n1\n")


# --- nonogrid TOML ------------------------------------------------------------------

NONOGRID_HELLO = '''# a comment
[clues]
columns = """
    2, '2'   # two columns
    "2", 0   ; and two more
"""
rows = """'1 1',
    3
    1
"""

[colors]
defs = []
'''


def test_toml_multiline_strings_quotes_comments_and_empty_colours():
    p = loads(NONOGRID_HELLO, "toml")
    assert p.columns == ((2,), (2,), (2,), ())
    assert p.rows == ((1, 1), (3,), (1,))
    assert sniff(NONOGRID_HELLO) == "toml"


def test_toml_one_line_strings_and_integers():
    p = loads("[clues]\ncolumns = '1, 1'\nrows = 2\n", "toml")
    assert (p.rows, p.columns) == (((2,),), ((1,), (1,)))


@pytest.mark.parametrize("text, line, message", [
    ("[clues]\ncolumns = '1'\nrows = '1'\n[colors]\ndefs = ['b = blue *']\n",
     5, r"is not '\(name"),
    ('[clues]\ncolumns = """\n1\n1b\n"""\nrows = "2"\n', 4, r"colour 'b' is not defined"),
    ('[clues]\ncolumns = """\n1\nx\n"""\nrows = "2"\n', 4, "'x' is not a non-negative integer"),
    ('[clues]\ncolumns = """1\n1\n"""\nrows = """\n\n3\n"""\n', 7, "needs 3 cells"),
    ("[clues]\ncolumns = '1'\nrows = [1]\n", 3, "a list, not a string"),
    ("[clues]\ncolumns = '1'\n", 2, "rows is missing"),
    ("[clues]\ncolumns = '1'\nrows = '1\n", 3, "not valid TOML"),
    ("[clues]\ncolumns = '1'\nrows = '1", 3, "not valid TOML"),
    ("[clues]\ncolumns = '1'\n\nrows = = 1\n", 4, "not valid TOML"),
    ("[clues]\ncolumns = '# nothing'\nrows = '1'\n", 2, "lists no clues"),
])
def test_toml_errors_name_the_line(text, line, message):
    with pytest.raises((ParseError, InvalidPuzzle), match=message) as info:
        loads(text, "toml")
    assert info.value.line == line
    assert "\n" not in str(info.value)


def test_pynogram_text_is_not_toml_and_toml_is_not_pynogram():
    assert sniff(PYNOGRAM_HELLO) == "pynogram"
    assert sniff(NONOGRID_HELLO) == "toml"


# --- faase, ss (= .non), Bosch .lp -----------------------------------------------------

def test_faase_sections_and_blank_lines():
    text = "\nrows\n1 1\n\n0\ncolumns\n1\n0\n\n1\n"
    p = loads(text, "faase")
    assert (p.rows, p.columns) == (((1, 1), ()), ((1,), (), (1,)))
    assert sniff(text) == "faase"


@pytest.mark.parametrize("text, line, message", [
    ("width 3\nrows\n1 1\ncolumns\n1\n0\n1\n", 1, "expected a 'rows' line"),
    ("rows\n1 1\n", 2, "no 'columns' line"),
    ("rows\n1 1\ncolumns\n1\nrows\n", 5, "a second 'rows' line"),
    ("rows\ncolumns\n1\n", 1, "no row clues"),
    ("rows\n3\ncolumns\n1\n1\n", 2, "needs 3 cells"),
])
def test_faase_errors_name_the_line(text, line, message):
    with pytest.raises((ParseError, InvalidPuzzle), match=message) as info:
        loads(text, "faase")
    assert info.value.line == line


def test_ss_files_are_read_as_non(tmp_path):
    from nonolab.formats import load
    path = tmp_path / "5.ss"
    path.write_text('title "two"\nwidth 3\nheight 1\n\nrows\n1,1\n\ncolumns\n1\n0\n1\n')
    assert load(path).rows == ((1, 1),)


BOSCH = """number_of_rows: 2
number_of_columns: 3
row_1   number_of_tiles: 2   width(s): 1 1
row_2   number_of_tiles: 0   width(s):
column_3 number_of_tiles: 1 width(s):
   1
column_1 number_of_tiles: 1 width(s): 1
column_2 number_of_tiles: 0 width(s):
"""


def test_lp_labels_vary_and_lines_may_come_in_any_order():
    p = loads(BOSCH, "lp")
    assert (p.rows, p.columns) == (((1, 1), ()), ((1,), (), (1,)))
    assert sniff(BOSCH) == "lp"


@pytest.mark.parametrize("text, line, message", [
    ("number_of_columns: 2\n", 1, "expected number_of_rows:"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nrow_2 n: 1 s: 1\n", 3, "outside 1..1"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nrow_1 n: 1 s: 1\nrow_1 n: 0 s:\n", 4,
     "given twice"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nrow_1 n: 1 s: 1\n", 3, "no clue for column_1"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nrow_1 n: 2 s: 1\n", 3, "the file ends"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nrow_1 n 1 s: 1\n", 3, "ending with :"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nline_1 n: 1 s: 1\n", 3, "expected row_I"),
    ("number_of_rows: 1\nnumber_of_columns: 1\nrow_1 n: 1 s: 2\ncolumn_1 n: 1 s: 1\n", 3,
     "needs 2 cells"),
    ("number_of_rows: 999999999\nnumber_of_columns: 1\n", 2, "no clue for row_1"),
])
def test_lp_errors_name_the_line(text, line, message):
    with pytest.raises((ParseError, InvalidPuzzle), match=message) as info:
        loads(text, "lp")
    assert info.value.line == line


def test_g_colour_declarations_with_a_space_outchar_are_read():
    # Olšák's own files declare the background with a space as its printed character.
    text = "#d\n   0:   white  bila\n   1:*  black\n: rows\n1\n: columns\n1\n: end\n"
    assert loads(text, "g").rows == ((1,),)
    p = loads("#d\n   r:&  red    cervena\n   0:   white\n   1:*  black\n: rows\n1r 1\n: columns\n1r\n1\n",
              "g")
    assert p.is_colour and p.row_colours == ((1, 2),) and p.palette.chars == ".&*"
