"""A colour declared twice with different values is a one-line error naming both lines, in
every reader that takes declarations (audit 18b: g, json, non, toml and webpbn kept the
last in silence, as pynogram's INI text already refused); the same value again is none."""

from __future__ import annotations

import pytest

from nonolab.errors import ParseError
from nonolab.formats import loads

XML = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="a" backgroundcolor="white">
<color name="white" char=".">fff</color>
<color name="a" char="X">010203</color>
<color name="b" char="Y">040506</color>
<color name="a" char="{char}">{rgb}</color>
<clues type="columns"><line><count color="a">1</count></line><line><count color="b">1</count></line></clues>
<clues type="rows"><line><count color="a">1</count><count color="b">1</count></line></clues>
</puzzle></puzzleset>
"""
JSON = """{{"palette": [{{"name": "white", "rgb": "FFFFFF", "char": "."}},
 {{"name": "a", "rgb": "010203", "char": "X"}}, {{"name": "b", "rgb": "040506", "char": "Y"}},
 {{"name": "a", "rgb": "{rgb}", "char": "{char}"}}],
 "rows": [[[1, "a"], [1, "b"]]], "columns": [[[1, "a"]], [[1, "b"]]]}}
"""
TOML = """[colors]
defs = ['a = (010203) X', 'b = (040506) Y', 'a = ({rgb}) {char}']
[clues]
columns = \"\"\"
1a
1b
\"\"\"
rows = \"\"\"
1a 1b
\"\"\"
"""
G = """#d
  0:. #FFFFFF white
  a:X #010203 a
  b:Y #040506 b
  a:{char} #{rgb} a
: rows
1a 1b
: columns
1a
1b
: end
"""
NON = """width 2
height 1
color a 010203 X
color b 040506 Y
color a {rgb} {char}

rows
a 1 b 1

columns
a 1
b 1
"""
# (format, text, the line of the second declaration, the first one's line or None)
CASES = [("webpbn", XML, 6, 4), ("json", JSON, 3, None), ("toml", TOML, 2, None), ("g", G, 5, 3),
         ("non", NON, 5, 3)]


@pytest.mark.parametrize("fmt, text, line, first", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("rgb, char", [("070809", "X"), ("010203", "Z")], ids=["rgb", "char"])
def test_a_colour_declared_twice_differently_is_refused(fmt, text, line, first, rgb, char):
    with pytest.raises(ParseError) as info:
        loads(text.format(rgb=rgb, char=char), fmt)
    assert info.value.line == line
    assert "colour 'a' declared twice, differently" in str(info.value)
    if first is not None:
        assert f"first on line {first}" in str(info.value)


@pytest.mark.parametrize("fmt, text, line, first", CASES, ids=[c[0] for c in CASES])
def test_the_same_declaration_again_is_no_conflict(fmt, text, line, first):
    p = loads(text.format(rgb="010203", char="X"), fmt)
    assert p.is_colour and [c.rgb for c in p.palette][1:] == [(1, 2, 3), (4, 5, 6)]
