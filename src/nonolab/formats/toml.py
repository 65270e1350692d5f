"""nonogrid's TOML puzzles (``examples/*.toml``, its ``ini`` feature).

``[clues]`` holds the strings ``columns`` and ``rows``, usually multi-line
(``\"\"\"...\"\"\"``), whose clues are separated by commas and/or line breaks with
``#``/``;`` comments, quotes and ``0`` for an empty line (see
:mod:`nonolab.formats._cluelist`).  A non-empty ``[colors] defs`` list, or a block
with a colour suffix (``2b``), makes a colour puzzle: ``defs`` entries are
``'name = (SVG name | hex | r, g, b) symbol'``; ``W`` and ``B`` (white, black) exist
without a definition and unsuffixed blocks are black.  The TOML itself is read with the standard library's ``tomllib`` (``tomli``
on Python 3.10); nothing in the file is executed.

>>> parse('[clues]\\ncolumns = "1, 1"\\nrows = \"\"\"\\n2\\n\"\"\"\\n')[0].rows
((2,),)
"""

from __future__ import annotations

import re
from typing import Any

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._cluelist import build_items, clue_items, colour_def, comment_title, write_coloured, write_list
from nonolab.formats._common import eof_line, number_problem, require_text, split_lines

_SECTION = re.compile(r"\s*\[\s*([^\]]*?)\s*\]")
_CLUES = re.compile(r"\s*\[\s*clues\s*\]\s*(#.*)?$")
_AT_LINE = re.compile(r"\(at line ([0-9]+)")
_OPENING = ('"""', "'''")


def _toml(text: str, lines: list[str]) -> dict[str, Any]:
    try:
        import tomllib
    except ModuleNotFoundError:       # Python 3.10
        import tomli as tomllib       # type: ignore[no-redef]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = _AT_LINE.search(str(err))
        message = re.split(r"\s*\(at ", str(err))[0].strip() or "invalid TOML"
        raise ParseError(f"not valid TOML: {message}",
                         line=int(found.group(1)) if found else eof_line(lines)) from None
    except RecursionError:
        raise ParseError("not valid TOML: nested too deeply", line=1) from None
    except ValueError as err:       # an integer beyond int()'s digit limit, which tomllib lets through
        raise ParseError(f"not valid TOML: {number_problem(err)}", line=1) from None


def _key_line(lines: list[str], section: str, key: str) -> tuple[int, int]:
    """The line of ``key = ...`` in ``[section]``, and the line its string's text starts on
    (a line break right after an opening triple quote is not part of the string)."""
    current = ""
    pattern = re.compile(rf"\s*{re.escape(key)}\s*=\s*(.*)$")
    for i, line in enumerate(lines):
        header = _SECTION.match(line)
        if header and not line.lstrip().startswith("[["):
            current = header.group(1)
            continue
        match = pattern.match(line) if current == section else None
        if match:
            rest = match.group(1).strip()
            starts_below = rest[:3] in _OPENING and not rest[3:].strip()
            return i + 1, i + 2 if starts_below else i + 1
    return eof_line(lines), eof_line(lines)


def sniff(text: str) -> bool:
    """A ``[clues]`` table in text that is valid TOML."""
    if not any(_CLUES.match(x) for x in split_lines(text)):
        return False
    try:
        return isinstance(_toml(text, split_lines(text)).get("clues"), dict)
    except ParseError:
        return False


def _colours(data: dict[str, Any], lines: list[str]) -> dict[str, tuple[tuple[int, int, int], str | None]]:
    colours = data.get("colors", {})
    defs = colours.get("defs", []) if isinstance(colours, dict) else []
    line = _key_line(lines, "colors", "defs")[0]
    if not isinstance(defs, list):
        raise ParseError("[colors] defs must be a list of strings", line=line)
    from nonolab.formats._colours import Declared

    out = Declared()
    for entry in defs:
        name, sep, value = str(entry).partition("=")
        if not sep or not name.strip():
            raise ParseError(f"colour definition {str(entry)!r} is not 'name = (colour) symbol'", line=line)
        out.declare(name.strip(), colour_def(value, line), line)
    return out


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    data = _toml(text, lines)
    defs = _colours(data, lines)
    clues = data.get("clues")
    if not isinstance(clues, dict):
        raise ParseError("no [clues] table", line=eof_line(lines))
    found = {}
    for key in ("columns", "rows"):
        key_line, start = _key_line(lines, "clues", key)
        value = clues.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            what = "missing" if value is None else f"a {type(value).__name__}, not a string"
            raise ParseError(f"[clues] {key} is {what}", line=key_line)
        found[key] = clue_items((start + k, part) for k, part in enumerate(value.split("\n")))
        if not found[key]:
            raise ParseError(f"[clues] {key} lists no clues", line=key_line)
    return [build_items(found["rows"], found["columns"], defs, _key_line(lines, "clues", "rows")[0])]


def write(puzzle: Puzzle) -> str:
    out = comment_title(puzzle.name)
    if puzzle.keeps_palette:
        from nonolab.formats._colours import visible

        # A definition is a literal string: no "'" in it.
        defs, columns, rows = write_coloured(puzzle, fits=lambda ch: visible(ch) and ch != "'")
        out += ["[colors]", "defs = ["] + [f"    '{d}'," for d in defs] + ["]", "", "[clues]", 'columns = """']
        return "\n".join(out + columns + ['"""', "", 'rows = """'] + rows + ['"""']) + "\n"
    out += ["[clues]", 'columns = """'] + write_list(puzzle.columns) + ['"""', ""]
    out += ['rows = """'] + write_list(puzzle.rows) + ['"""']
    return "\n".join(out) + "\n"
