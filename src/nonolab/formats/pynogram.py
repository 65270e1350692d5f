"""pynogram's text files (``examples/*.txt``): INI sections, not TOML.

``[clues]`` holds ``columns =`` and ``rows =``; each value goes on over the
following indented lines (a value may also start on the key's line).  Inside a
value, clues are separated by commas and/or line breaks, blank and comment lines
(``#`` or ``;``) are allowed, see :mod:`nonolab.formats._cluelist`.  A
``[colors]`` section defines colours (``g = (0, 204, 0) %``, ``r = (red) *``), and a
block with a colour suffix (``2g``) has that colour; unsuffixed blocks are black.

>>> p = parse("[clues]\\ncolumns = 1, 1\\nrows =\\n    2   # the only row\\n")[0]
>>> p.rows, p.columns
(((2,),), ((1,), (1,)))
"""

from __future__ import annotations

import re

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._cluelist import build_items, clue_items, colour_def, comment_title, write_coloured, write_list
from nonolab.formats._common import eof_line, require_text, shown, split_lines

_SECTION = re.compile(r"\[([^\]]+)\]\s*$")
_OPTION = re.compile(r"([^=:\s][^=:]*?)\s*[=:]\s*(.*)$")
_CLUES = re.compile(r"\s*\[clues\]\s*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _is_comment(line: str) -> bool:
    return line.lstrip()[:1] in ("#", ";")


def _options(lines: list[str]) -> dict[str, dict[str, tuple[int, list[tuple[int, str]]]]]:
    """``{section: {key: (key line, [(line, value text), ...])}}``, keys lower-cased."""
    sections: dict[str, dict[str, tuple[int, list[tuple[int, str]]]]] = {}
    current: dict[str, tuple[int, list[tuple[int, str]]]] | None = None
    value: list[tuple[int, str]] | None = None
    key_indent = 0
    for i, line in enumerate(lines):
        if not line.strip() or _is_comment(line):
            continue
        if value is not None and _indent(line) > key_indent:
            value.append((i + 1, line))
            continue
        value = None
        section = _SECTION.match(line.strip())
        if section:
            name = section.group(1).strip()
            if name in sections:
                raise ParseError(f"section [{name}] appears twice", line=i + 1)
            current = sections[name] = {}
            continue
        option = _OPTION.match(line.strip())
        if option is None:
            raise ParseError(f"expected '[section]' or 'key = value', found {shown(line.strip())}",
                             line=i + 1)
        if current is None:
            raise ParseError("'key = value' before the first [section] (expected [clues])",
                             line=i + 1)
        key = option.group(1).lower()
        if key in current:
            raise ParseError(f"{shown(key)} is given twice in this section", line=i + 1)
        value = [(i + 1, option.group(2))]
        current[key] = (i + 1, value)
        key_indent = _indent(line)
    return sections


def sniff(text: str) -> bool:
    """A ``[clues]`` line (nonogrid's TOML, sniffed before this, has one too)."""
    return any(_CLUES.match(x) for x in split_lines(text))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    sections = _options(lines)
    colours = sections.get("colors", {})
    defs = {k: colour_def(" ".join(t for _, t in value), line) for k, (line, value) in colours.items()}
    if "clues" not in sections:
        raise ParseError("no [clues] section", line=eof_line(lines))
    clues = sections["clues"]
    found = {}
    for key in ("columns", "rows"):
        if key not in clues:
            raise ParseError(f"the [clues] section has no '{key} =' value", line=eof_line(lines))
        key_line, value = clues[key]
        found[key] = clue_items(value)
        if not found[key]:
            raise ParseError(f"'{key} =' lists no clues", line=key_line)
    return [build_items(found["rows"], found["columns"], defs, clues["rows"][0])]


def write(puzzle: Puzzle) -> str:
    out = comment_title(puzzle.name)
    if puzzle.keeps_palette:
        defs, columns, rows = write_coloured(puzzle)
        out += ["[colors]"] + ["    " + d for d in defs] + ["", "[clues]", "columns ="] + columns
        return "\n".join(out + ["", "rows ="] + rows) + "\n"
    out += ["[clues]", "columns ="] + write_list(puzzle.columns)
    out += ["", "rows ="] + write_list(puzzle.rows)
    return "\n".join(out) + "\n"
