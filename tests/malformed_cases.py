"""Malformed puzzle files, one per problem, with the line an error must name.

Each case is ``(case_id, filename, text, line, fragment)``: ``filename``'s suffix
selects the format, ``line`` is the 1-based line the error must point at, and
``fragment`` a lowercase substring of the message.  Loading any of them must raise
a NonolabError whose ``str()`` is one line, ``path:line: message``.  Shared by the
format tests and the CLI tests (exit code 2, one line on stderr); write the files
with :func:`write_case` so that the bytes are exactly ``text`` in UTF-8.
"""

from __future__ import annotations

from pathlib import Path

_XML = '<?xml version="1.0"?>\n'

CASES: list[tuple[str, str, str, int, str]] = [
    # --- .non ---------------------------------------------------------------
    ("non-bad-number", "bad_number.non",
     "width 2\nheight 2\nrows\n1\n3,x\ncolumns\n1\n1\n", 5, "'x' is not a non-negative integer"),
    ("non-zero-block", "zero_block.non",
     "width 5\nheight 2\nrows\n2,0,1\n1\ncolumns\n1\n1\n1\n1\n1\n", 4, "block 0"),
    ("non-short-rows", "short_rows.non",
     "width 2\nheight 3\nrows\n1\n1\ncolumns\n1\n1\n", 6, "expected 3 row clue lines"),
    ("non-rows-at-eof", "rows_eof.non",
     "width 1\nheight 3\ncolumns\n1\nrows\n1\n", 6, "file ends"),
    ("non-clue-too-long", "too_long.non",
     "width 2\nheight 2\n\nrows\n0\n3\n\ncolumns\n1\n1\n", 6, "needs 3 cells"),
    # a single-valued key given twice: the second won (or lost) without a word (audit 9)
    ("non-width-twice", "width_twice.non",
     "width 4\nheight 2\nwidth 3\nrows\n1\n1\ncolumns\n1\n1\n1\n", 3, "the width given twice, differently: 4 (line 1), 3 here"),
    ("non-height-and-rows", "height_rows.non",
     "width 2\nheight 2\nrows 3\n1\n1\n1\ncolumns\n1\n1\n", 3, "the height given twice, differently: 2 ('height' on line 2), 3 here"),
    ("non-title-twice", "title_twice.non",
     "title \"a\"\nwidth 1\nheight 1\ntitle \"b\"\nrows\n1\ncolumns\n1\n", 4, "'title' given twice, differently"),
    ("non-goal-twice", "goal_twice.non",
     "width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 1\ngoal 0\n", 8, "'goal' given twice, differently"),
    ("non-totals-differ", "totals.non",
     "title \"totals\"\nwidth 2\nheight 2\nrows\n1\n1\ncolumns\n1\n0\n", 4,
     "row clues fill 2 cells"),
    ("non-missing-width", "no_width.non",
     "height 1\nrows\n1\ncolumns\n1\n", 4, "missing width"),
    ("non-goal-length", "goal_length.non",
     "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal \"100\"\n", 9, "the goal has 3 cells"),
    ("non-goal-mismatch", "goal_mismatch.non",
     "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n\ngoal \"1100\"\n", 10,
     "goal does not match the clues"),
    ("non-colour-clue", "colour_clue.non",
     "width 2\nheight 1\nrows\n1b,1a\ncolumns\n1a\n1b\n", 4, "has a colour suffix"),
    ("non-colour-undeclared", "colour_key.non",
     "title \"red\"\ncolor a #ff0000\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n", 6,
     "'1a' is neither a number nor a declared colour"),
    ("non-extra-clue-line", "extra_line.non",
     "width 1\nheight 1\nrows\n1\n1\ncolumns\n1\n", 5, "outside a 'rows' or 'columns' block"),
    ("non-empty-file", "empty.non", "", 1, "empty"),
    # --- webpbn XML -----------------------------------------------------------
    ("xml-not-well-formed", "broken.xml",
     _XML + "<puzzleset>\n<puzzle>\n<clues type=\"rows\">\n</puzzle>\n</puzzleset>\n", 5,
     "not well formed"),
    ("xml-colour", "colour.xml",
     _XML + "<puzzleset>\n<puzzle type=\"grid\" defaultcolor=\"black\">\n"
     "<color name=\"white\" char=\".\">fff</color>\n<color name=\"black\" char=\"X\">000</color>\n"
     "<color name=\"red\" char=\"r\">f00</color>\n<clues type=\"columns\">\n"
     "<line><count>1</count></line>\n<line><count color=\"red\">1</count></line>\n</clues>\n"
     "<clues type=\"rows\">\n<line><count>1</count><count color=\"blue\">1</count></line>\n"
     "</clues>\n</puzzle>\n</puzzleset>\n", 12, "colour 'blue' is not declared"),
    ("xml-count-not-a-number", "count.xml",
     _XML + "<puzzleset><puzzle>\n<clues type=\"rows\">\n<line><count>1</count></line>\n</clues>\n"
     "<clues type=\"columns\">\n<line>\n<count>x</count>\n</line>\n</clues>\n"
     "</puzzle></puzzleset>\n",
     8, "<count> 'x' is not a non-negative integer"),
    ("xml-wrong-row-lines", "row_lines.xml",
     _XML + "<puzzleset><puzzle>\n<clues type=\"rows\">\n<line><count>1</count></line>\n"
     "<line/>\n<line/>\n</clues>\n<solution type=\"goal\"><image>\n|X.|\n|..|\n"
     "</image></solution>\n"
     "</puzzle></puzzleset>\n", 3, "3 row lines but the goal has 2 rows"),
    ("xml-no-clues-no-goal", "no_clues.xml",
     _XML + "<puzzleset>\n<puzzle>\n<title>nothing</title>\n</puzzle>\n</puzzleset>\n", 3,
     "no clues and no goal"),
    ("xml-clue-too-long", "too_long.xml",
     _XML + "<puzzleset><puzzle>\n<clues type=\"columns\">\n<line><count>1</count></line>\n"
     "</clues>\n<clues type=\"rows\">\n<line><count>1</count></line>\n"
     "<line><count>1</count><count>1</count></line>\n</clues>\n</puzzle></puzzleset>\n", 8,
     "row 2: clue 1 1 needs 3 cells"),
    # --- .nin, .mk, .cwd ------------------------------------------------------
    ("nin-bad-header", "header.nin", "2 x\n1\n1\n1\n1\n", 1, "height 'x'"),
    ("nin-missing-lines", "short.nin", "2 2\n1\n1\n1\n", 4, "file ends"),
    ("mk-missing-hash-line", "nohash.mk", "2 2\n1\n1\n1\n1\n", 4, "expected a '#' line"),
    ("cwd-missing-blank-line", "noblank.cwd", "2\n2\n1\n1\n1\n1\n", 5, "expected a blank line"),
    # --- .g ---------------------------------------------------------------------
    ("g-no-rows-section", "norows.g", "This file has\nno task in it\n", 2, "no ': rows' section"),
    ("g-colour-undeclared", "colour.g",
     "#d\n0:. white\n1:X black\nr:r red\n: rows\n1q\n: columns\n1r\n: end\n", 6,
     "declared colour suffix"),
    # --- TAAI ------------------------------------------------------------------
    ("taai-odd-line-count", "odd.taai", "$1\n1\n1\n1\n", 1, "odd number"),
    ("taai-bad-number", "bad.taai", "$1\n1\n1\n$2\n1\n1\t?\n1\n1\n", 6, "'?' is not"),
    # --- Tatham ----------------------------------------------------------------
    ("tatham-clue-count", "count.tatham", "2x2:1/1/1\n", 1, "3 clues, but a 2x2 puzzle needs 4"),
    ("tatham-one-clue", "one.tatham", "2x1:1\n", 1, "1 clue, but a 2x1 puzzle needs 3 (2 columns, then 1 row)"),
    ("tatham-not-a-number", "nan.tatham", "\n2x2:1/a/1/1\n", 2, "'a' is not a number"),
    ("tatham-bad-givens", "givens.tatham", "1x1:1/1,ab\n", 1, "too much data in the givens"),
    # --- JSON ------------------------------------------------------------------
    ("json-invalid", "broken.json", "{\n  \"rows\": [[1]],\n  \"columns\": [[1]\n}\n", 4,
     "invalid json"),
    ("xml-title-twice", "title_twice.xml",
     _XML + "<puzzleset><puzzle>\n<title>a</title>\n<title>b</title>\n"
     "<clues type=\"rows\"><line><count>1</count></line></clues>\n"
     "<clues type=\"columns\"><line><count>1</count></line></clues>\n</puzzle></puzzleset>\n", 4,
     "<title> given twice, differently (first on line 3)"),
    ("json-key-twice", "rows_twice.json",
     "{\n  \"rows\": [[1]],\n  \"columns\": [[1]],\n  \"rows\": [[2]]\n}\n", 4, '"rows" given twice'),
    ("json-key-twice-in-a-set", "set_twice.json",
     "[{\"rows\": [[1]], \"columns\": [[1]]},\n {\"rows\": [[1]], \"columns\": [[1]],\n  \"title\": \"a\", \"title\": \"b\"}]\n",
     3, '"title" given twice'),
    ("json-missing-rows", "norows.json", "\n{\n  \"columns\": [[1]]\n}\n", 2, 'missing "rows"'),
    ("json-row-too-long", "too_long.json",
     "{\n  \"rows\": [\n    [1],\n    [3]\n  ],\n  \"columns\": [[1], []]\n}\n", 4,
     "needs 3 cells"),
    # --- pictures ----------------------------------------------------------------
    ("picture-ragged-rows", "ragged.grid", "#.#\n#.#\n##\n", 3, "has 2 cells"),
    ("picture-bad-char", "char.grid", "#.\n#?\n", 2, "unexpected character '?'"),
    ("pbm-bad-magic", "magic.pbm", "P7\n2 2\n0 1\n1 0\n", 1, "not a pbm image"),
    ("pbm-p1-truncated", "short.pbm", "P1\n# comment\n3 2\n1 0 1\n0 1\n", 5, "truncated"),
    ("pbm-p4-truncated", "short4.pbm", "P4\n8 2\nA", 3, "truncated"),
]


def write_case(directory: Path, filename: str, text: str) -> Path:
    """Write one case's text as UTF-8 bytes, with no newline translation."""
    path = Path(directory) / filename
    path.write_bytes(text.encode("utf-8"))
    return path
