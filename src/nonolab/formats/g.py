"""Olšák's ``.g`` format (griddlers), black-and-white and colour.

Text before the first line starting with ``#`` or ``:`` is a comment.  ``#d``
declares colours, one ``inchar:outchar colour [comment]`` per line (``colour`` an X11
name or ``#RRGGBB``): inchar ``0`` is the background (white unless declared), inchar
``1`` the colour of an unsuffixed number; any other inchar is a suffix (``3r``).
Triangles (``black/orange``) are colours of their own.  Glue triangles (a comment
starting with ``<`` or ``>``, Malované křížovky) and triddlers (``#t``) are refused.
``: rows`` starts the row clues, one line per row (a blank line is an empty line);
the next ``:`` line starts the column clues, and a final ``:`` line ends the task.
"""

from __future__ import annotations

import re
from typing import Sequence

from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import (ClueLines, build, clue_text, eof_line, is_blank, one_line, parse_clue,
                                     require_text, shown, split_lines, to_int)

_ROWS = re.compile(r":\s*rows", re.IGNORECASE)
# The outchar may be a space ("0:   white" in Olšák's spaceShuttle.g).
_DECLARATION = re.compile(r"(\S):(.)\s*(\S+)")


def sniff(text: str) -> bool:
    return any(_ROWS.match(x) or x[:2] in ("#d", "#D") for x in split_lines(text))


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    i = 0
    declared = None
    while i < len(lines) and not lines[i].startswith(":"):
        if lines[i][:2] in ("#d", "#D"):
            i, declared = _colours(lines, i)
            break
        if lines[i][:2] in ("#t", "#T"):
            raise ParseError("triddlers are not supported", line=i + 1)
        i += 1
    if i >= len(lines):
        raise ParseError("no ': rows' section (no line starts with ':')", line=eof_line(lines))
    rows_line = i + 1
    if declared is not None and set(declared) - {"0", "1"}:
        return [_colour_puzzle(lines, i, declared)]
    rows, row_lines, i = _section(lines, i + 1)
    if i >= len(lines):
        raise ParseError("no column section: the row clues are not followed by a ':' line",
                         line=eof_line(lines))
    cols, col_lines, _ = _section(lines, i + 1)
    return [build(rows, cols, ClueLines(rows=row_lines, columns=col_lines, size=rows_line))]


_TOKEN = re.compile(r"([0-9]+)(\S?)")


def _colour_puzzle(lines: Sequence[str], i: int, declared: dict[str, tuple[str, str, int]]) -> Puzzle:
    from nonolab.formats._colours import build_coloured, parse_rgb

    rows_line = i + 1
    spans = []
    for _ in range(2):
        start = i + 1
        i = start
        while i < len(lines) and not lines[i].startswith(":"):
            i += 1
        end = i
        if i >= len(lines):
            while end > start and is_blank(lines[end - 1]):
                end -= 1
        spans.append(range(start, end))
        if i >= len(lines) and len(spans) == 1:
            raise ParseError("no column section: the row clues are not followed by a ':' line",
                             line=eof_line(lines))
    names = {inchar: f"{word}" if [w for w, _, _ in declared.values()].count(word) == 1 else f"{word}_{inchar}"
             for inchar, (word, _, _) in declared.items()}
    background = names.get("0", "white")
    colours = {}
    for inchar, (word, outchar, line) in declared.items():
        rgb = parse_rgb(word) or parse_rgb(re.split(r"[/\\]", word)[0])
        if rgb is None:
            raise ParseError(f"unknown colour {word!r}", line=line)
        colours[names[inchar]] = (rgb, outchar if outchar.strip() else None)
    colours.setdefault(background, ((255, 255, 255), "."))
    blocks: list[list[list[tuple[int, str]]]] = [[], []]
    for which, span in enumerate(spans):
        for k in span:
            line_blocks = []
            for token in lines[k].split():
                m = _TOKEN.fullmatch(token)
                suffix = m.group(2) if m else ""
                if (m is None or not m.group(1).strip("0") or (suffix or "1") not in names
                        or suffix == "0"):
                    raise ParseError(f"clue {shown(token)} is not a positive length with a declared colour "
                                     "suffix", line=k + 1)
                line_blocks.append((to_int(m.group(1), k + 1, "clue number"), names[suffix or "1"]))
            blocks[which].append(line_blocks)
    return build_coloured(blocks[0], blocks[1], background, colours, ClueLines(rows=[k + 1 for k in spans[0]],
                          columns=[k + 1 for k in spans[1]], size=rows_line))


def _colours(lines: Sequence[str], start: int) -> tuple[int, dict[str, tuple[str, str, int]]]:
    """Read a ``#d`` block: the index of the ``:`` line that ends it, and
    ``{inchar: (colour word, outchar, line)}``."""
    from nonolab.formats._colours import Declared

    declared = Declared()
    j = start + 1
    while j < len(lines) and not lines[j].lstrip().startswith(":"):
        if not is_blank(lines[j]):
            m = _DECLARATION.match(lines[j].strip())
            if not m:
                raise ParseError("bad colour declaration (expected 'inchar:outchar colour')",
                                 line=j + 1)
            comment = lines[j].strip()[m.end():].strip()
            if comment[:1] in ("<", ">"):
                raise ParseError("glue triangles (a declaration whose comment starts with '<' or '>') "
                                 "are not supported", line=j + 1)
            declared.declare(m.group(1), (m.group(3), m.group(2), j + 1), j + 1, same=m.group(3, 2))
        j += 1
    if "1" not in declared and not set(declared) - {"0"}:
        raise ParseError("the colour declarations give no default colour (inchar 1)",
                         line=start + 1)
    return j, declared


def _section(lines: Sequence[str], start: int) -> tuple[list[Clue], list[int], int]:
    """Clue lines up to the next line starting with ``:``; returns its index too."""
    j = start
    while j < len(lines) and not lines[j].startswith(":"):
        j += 1
    end = j
    if j >= len(lines):
        # Without a closing ':' line, trailing blank lines are layout, not empty lines.
        while end > start and is_blank(lines[end - 1]):
            end -= 1
    return ([parse_clue(lines[k], k + 1) for k in range(start, end)],
            list(range(start + 1, end + 1)), j)


def write(puzzle: Puzzle) -> str:
    # A blank line is an empty line: pbnsolve refuses a literal 0 in .g files.
    if puzzle.keeps_palette:
        return _write_colour(puzzle)
    out = [": rows"]
    out += [clue_text(c, " ", "") for c in puzzle.rows]
    out.append(": columns")
    out += [clue_text(c, " ", "") for c in puzzle.columns]
    out.append(": end")
    return "\n".join(out) + "\n"


def _write_colour(puzzle: Puzzle) -> str:
    """Every colour gets a letter suffix (``a``, ``b``, ...) and its RGB; no default colour."""
    from nonolab.formats._colours import fitted, written_chars

    suffixes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    puzzle = fitted(puzzle, len(suffixes), "g", "a letter each")
    palette = puzzle.palette
    assert palette is not None
    chars = written_chars(palette)      # the outchar ends at its line
    # The name is a comment: one line, never starting with "<" or ">" (a glue triangle's).
    names = [one_line(c.name).lstrip("<> ") for c in palette]
    out = ["#d", f"  0:{chars[0]} #{palette.hex(0)} {names[0]}".rstrip()]
    out += [f"  {suffixes[i - 1]}:{chars[i]} #{palette.hex(i)} {names[i]}".rstrip()
            for i in range(1, len(palette))]
    for header, lines in ((": rows", puzzle.coloured_rows), (": columns", puzzle.coloured_columns)):
        out.append(header)
        out += [" ".join(f"{n}{suffixes[c - 1]}" for n, c in line) for line in lines]
    out.append(": end")
    return "\n".join(out) + "\n"
