"""The ``.non`` format: Steve Simpson's, with the pbnsolve and mikix extensions.

Reading is lenient (see ``docs/formats.md``): keys are one word at the start of a
line; ``width``/``columns N`` and ``height``/``rows N`` give the size; a bare
``rows``/``columns`` line is followed by exactly as many clue lines as the puzzle
has rows/columns, where a blank line or ``0`` is an empty line; ``goal`` gives the
picture; other keys are kept as metadata.  A ``.nonpack`` bundle holds several
puzzles separated by ``====`` lines (read only).  Writing uses the strictest form, one
puzzle a file: a ``.non`` file holds one puzzle for pbnsolve and webpbn, and given several
pbnsolve silently answers for a mix of them (each key's last value), so nonolab writes no
such file; it reads one (``cat a.non b.non``: the files' puzzles) all the same.

Colour (Nonny's extension): ``color NAME RRGGBB CHAR`` lines declare colours; in a
clue line a colour name applies to the numbers after it until the next name, and
every line starts in ``black``, e.g. ``red 1 yellow 2 green 1 purple 1 1``.  The goal
of a colour puzzle is written, as mikix's extension writes one, with the ``CHAR`` of
each cell's colour and ``0`` (or ``.``) for the background.  Nonny itself keeps no goal
(its reader stores an unknown key such as ``goal`` as a property and its writer drops
it), so a file written here still opens there.

Givens (nonolab's extension; fmt2 reads any other leading word as a property and
mikix ignores unknown lines, so other readers see a plain puzzle): ``givens`` is a grid
as ``goal`` is, with ``?`` for every cell that is not given, e.g. ``givens "1???0????"``
(in colour each given cell is its colour's character, ``0`` or ``.`` the background).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from nonolab.core.grid import COLOUR_CHARS
from nonolab.core.puzzle import Puzzle
from nonolab.core.words import counted
from nonolab.errors import NonolabError, ParseError
from nonolab.formats._common import (ClueLines, build, clue_text, each, every, is_blank, make_goal, read_clue_block,
                                     require_text, split_lines, to_int, with_givens)

_KEY = re.compile(r"([A-Za-z_][\w-]*)(?:\s+(.*))?$")
_SIZE_KEY = re.compile(r"\s*(width|height|rows|columns)(\s+[0-9]+)?\s*$", re.IGNORECASE)
_GRID_LINE = re.compile(r"[0-9?\s]+")
_SEPARATOR = re.compile(r"\s*={4,}\s*$")
# Keys the writer produces itself; metadata under these names would break the file.
_RESERVED = {"width", "height", "rows", "columns", "goal", "givens", "title", "color", "colour"}
# The characters the writer gives colours whose own a goal cannot carry: the background's, then
# one a foreground colour (61, as JSON writes a colour picture), so a puzzle of a larger palette is
# written over the colours it uses.
_PLAIN_CHARS = COLOUR_CHARS


def sniff(text: str) -> bool:
    """Some line is a size or block keyword (``width 5``, ``rows``, ...)."""
    return any(_SIZE_KEY.match(line) for line in split_lines(text))


def parse(text: str) -> list[Puzzle]:
    return every(parse_each(text))


def parse_each(text: str) -> list[Puzzle | NonolabError]:
    """Every puzzle of the text, or its own error: the ``====`` separators and the keys that
    open a puzzle in concatenated files are the set's structure, each part one puzzle."""
    lines = split_lines(text)
    require_text(lines)
    parts = []
    start = 0
    for i in range(len(lines) + 1):
        if i == len(lines) or _SEPARATOR.match(lines[i]):
            parts += [(first, last) for first, last in _stream_parts(lines, start, i)
                      if any(not is_blank(x) for x in lines[first:last])]
            start = i + 1
    return each(lambda part: _parse_one(lines, *part), parts)


# Keys that open a puzzle: seen after a complete puzzle, they start the next one.
_OPENING = {"width", "height", "title", "catalogue", "rows", "columns"}


def _stream_parts(lines: Sequence[str], start: int, end: int) -> list[tuple[int, int]]:
    """Split ``lines[start:end]`` into the puzzles of a stream of concatenated files.

    ``cat a.non b.non`` has no separator: a puzzle ends once both its clue blocks were
    read and an opening key (width, height, title, catalogue, or another clue block)
    comes.  Keys between the two puzzles go with the next one (files put their
    metadata first); at the end of the text they stay with the last puzzle.  A colour
    clue line starts with a colour's name (``red 1 green 2``): a name the puzzle declared
    (or ``black``, every line's first colour) is a clue line, not a key.
    """
    parts = []
    first = start
    blocks: set[str] = set()
    colours = {"black"}   # the names that start a colour clue line in this puzzle
    pending = None  # the first key line after a complete puzzle
    for i in range(start, end):
        s = lines[i].strip()
        if not s or not s[0].isalpha():
            continue  # clue, grid and blank lines
        m = _KEY.match(s)
        if not m:
            continue
        key, arg = m.group(1).lower(), (m.group(2) or "").strip()
        if key in ("color", "colour") and arg:
            colours.add(arg.split()[0].lower())
        elif key in colours and key not in _RESERVED:
            continue  # a colour clue line
        if blocks >= {"rows", "columns"} and key not in ("goal", "saved", "givens"):   # a puzzle's own grids
            if pending is None:
                pending = i
            if key in _OPENING:
                parts.append((first, pending))
                first, blocks, pending = pending, set(), None
                colours = {"black"} | _declared(lines[first:i])   # the next puzzle's, met before its key
        if key in ("rows", "columns"):
            nxt = lines[i + 1].strip() if i + 1 < end else ""
            if not arg or nxt[:1].isdigit():  # a clue block, not fmt2's "rows N" size line
                blocks.add(key)
    parts.append((first, end))
    return parts


def _declared(lines: Sequence[str]) -> set[str]:
    """The colour names that ``color NAME ...`` lines among ``lines`` declare."""
    found = set()
    for line in lines:
        m = _KEY.match(line.strip())
        if m and m.group(1).lower() in ("color", "colour") and m.group(2):
            found.add(m.group(2).split()[0].lower())
    return found


def _is_keyword_line(line: str) -> bool:
    s = line.lstrip()
    return bool(s) and (s[0].isalpha() or s[0] in "_\"'")


def _value(arg: str) -> str:
    """A property value: quotes dropped, HTML entities decoded (fmt2 uses them)."""
    v = arg.strip()
    if v[:1] in ("'", '"'):
        q = v[0]
        v = v[1:]
        if q in v:
            v = v[:v.index(q)]
    if "&" not in v:
        return v
    import html  # its table of entities is the dearest import of a plain check: only when a value has one

    return html.unescape(v)


#: The keys a puzzle may give more than once: one colour a line; ``saved`` grids (the first is kept).
_REPEATABLE = {"color", "colour", "saved"}

#: What a key gives (``width`` and ``columns N`` both the number of columns).
_GIVES = {"width": "the width", "columns": "the width", "height": "the height", "rows": "the height"}


def _once(first: dict[str, tuple[str, str, int]], key: str, arg: str, lineno: int) -> None:
    """Refuse a single-valued key given again with another value (a second ``width``, ``title``,
    ``goal``...), which would otherwise win, or lose, without a word; ``first`` remembers each
    one given.  The same value again is no conflict: pbnsolve writes ``width 5`` and then
    ``columns 5`` before the clues.

    >>> first = {}
    >>> _once(first, "width", "4", 2); _once(first, "columns", "", 5); _once(first, "columns", "4", 6)
    >>> _once(first, "columns", "3", 7)
    Traceback (most recent call last):
    nonolab.errors.ParseError: line 7: the width given twice, differently: 4 ('width' on line 2), 3 here
    """
    if key in _REPEATABLE or (key in ("rows", "columns") and not arg):   # a clue block: checked apart
        return
    what = _GIVES.get(key, f"'{key}'")
    if what not in first:
        first[what] = (key, arg, lineno)
        return
    was, value, line = first[what]
    if value.split() != arg.split():
        named = f"'{was}' on line {line}" if was != key else f"line {line}"
        raise ParseError(f"{what} given twice, differently: {_short(value)} ({named}), {_short(arg)} here",
                         line=lineno)


def _short(value: str) -> str:
    return value if len(value) <= 20 else value[:17] + "..."


def _parse_one(lines: Sequence[str], start: int, end: int) -> Puzzle:
    size: dict[str, int | None] = {"rows": None, "columns": None}
    size_line = {"rows": 1, "columns": 1}
    clues: dict[str, list] = {}
    where: dict[str, list[int]] = {}
    name = ""
    meta: dict[str, str] = {}
    goal_line = None
    goal_text = ""            # the goal's characters as written (a colour goal names colours)
    givens_text, givens_line = "", None
    colours: dict[str, tuple[tuple[int, int, int], str | None]] = {}
    first: dict[str, tuple[str, str, int]] = {}   # a single-valued key: how, what and where it was first given
    i = start
    while i < end:
        s = lines[i].strip()
        lineno = i + 1
        if not s:
            i += 1
            continue
        if s[0].isdigit():
            raise ParseError("clue line outside a 'rows' or 'columns' block "
                             "(more clue lines than the height or width?)", line=lineno)
        m = _KEY.match(s)
        if not m:
            i += 1     # mikix: unknown lines are ignored
            continue
        key, arg = m.group(1).lower(), (m.group(2) or "").strip()
        _once(first, key, arg, lineno)
        if key in ("width", "height"):
            dim = "columns" if key == "width" else "rows"
            if not arg:
                raise ParseError(f"'{key}' needs a number", line=lineno)
            size[dim] = to_int(arg, lineno, key)
            size_line[dim] = lineno
        elif key in ("rows", "columns"):
            if arg:
                size[key] = to_int(arg, lineno, f"number of {key}")
                size_line[key] = lineno
                # fmt2 reads "rows N" as the height; pbnsolve also lets the
                # clues follow it at once.
                nxt = lines[i + 1].strip() if i + 1 < end else ""
                if not nxt[:1].isdigit():
                    i += 1
                    continue
            count = size[key]
            if count is None:
                other = "height" if key == "rows" else "width"
                raise ParseError(f"'{key}' block before '{other}': the number of clue lines "
                                 f"is unknown (missing {other})", line=lineno)
            if key in clues:
                raise ParseError(f"a second '{key}' block", line=lineno)
            kind = key[:-1]
            if colours:
                clues[key], where[key] = _colour_block(lines, i + 1, count, kind, end, colours)
            else:
                clues[key], where[key] = read_clue_block(lines, i + 1, count, kind,
                                                         _is_keyword_line, end)
            size_line[key] = lineno
            i += 1 + count
            continue
        elif key in ("goal", "saved", "givens"):
            w, h = size["columns"], size["rows"]
            if w is None or h is None:
                raise ParseError(f"'{key}' before 'width' and 'height'", line=lineno)
            cells, i = _read_grid(lines, i, end, arg)
            if key == "givens":
                if len(cells) != w * h:
                    raise ParseError(f"the givens grid has {counted(len(cells), 'cell')}, expected {w}x{h} = {w * h}",
                                     line=lineno)
                givens_text, givens_line = cells, lineno
                continue
            if key == "saved":
                meta.setdefault("saved", cells)
                continue
            if goal_line is None:
                _check_goal(cells, w, h, lineno)
                goal_line, goal_text = lineno, cells
            continue
        elif key in ("color", "colour"):
            colours = _colour_declaration(colours, arg, lineno)
        elif key == "title":
            name = _value(arg)
        else:
            meta[m.group(1)] = _value(arg)
        i += 1
    height, width = size["rows"], size["columns"]
    if height is None or width is None:
        raise ParseError(f"missing '{'height' if height is None else 'width'}'", line=max(end, 1))
    for key in ("rows", "columns"):
        if key not in clues:
            raise ParseError(f"missing the '{key}' block", line=max(end, 1))
    if colours:
        from nonolab.formats._colours import build_coloured

        colours.setdefault("black", ((0, 0, 0), None))
        goal_names = None if goal_line is None else _colour_goal(goal_text, width, colours, goal_line)
        named = [name for name, (_, char) in colours.items() if char and char not in "0.?" and char in givens_text]
        made = build_coloured(clues["rows"], clues["columns"], "white", {"white": ((255, 255, 255), "."), **colours},
                              ClueLines(rows=where["rows"], columns=where["columns"], size=size_line["rows"],
                                        goal=goal_line), goal=goal_names, name=name, metadata=meta, given=named)
        return with_givens(made, _givens(givens_text, made, colours, givens_line), givens_line)
    goal = None
    if goal_line is not None:
        goal_cells = _bw_goal(goal_text)   # (only now: a colour goal never needs 0/1 cells)
        goal = make_goal([goal_cells[r * width:(r + 1) * width] for r in range(height)], goal_line)
    made = build(clues["rows"], clues["columns"], ClueLines(rows=where["rows"], columns=where["columns"],
                                                                size=size_line["rows"], goal=goal_line),
                 name=name, metadata=meta, goal=goal)
    return with_givens(made, _givens(givens_text, made, colours, givens_line), givens_line)


def _givens(cells: str, puzzle: Puzzle, colours: dict, lineno: int | None) -> dict[tuple[int, int], int]:
    """The given cells of a ``givens`` grid: ``?`` not given; ``0`` and ``.`` empty (the
    background); ``1`` and ``#`` filled, or in colour a declared colour's character."""
    if not cells:
        return {}
    value = {"1": 1, "#": 1} if not puzzle.is_colour else {}
    if puzzle.palette is not None:     # a colour's char, if the palette kept it (a clue or a given uses it)
        index = {c.name: i for i, c in enumerate(puzzle.palette)}
        value.update({char: index[name] for name, (_, char) in colours.items() if char and name in index})
    value.update({"0": 0, ".": 0})
    found = {}
    for i, ch in enumerate(cells):
        if ch == "?":
            continue
        if ch not in value:
            raise ParseError(f"givens cell {ch!r} is not ?, 0 or a value of the puzzle", line=lineno)
        found[divmod(i, puzzle.width)] = value[ch]
    return found


_COLOUR_SPLIT = re.compile(r"[,:\s]+")


def _colour_goal(cells: str, width: int, colours: dict, lineno: int) -> Any:
    """A colour goal as a :class:`~nonolab.formats._colours.CharGoal`: ``0`` and ``.``
    are the background, any other character the colour declared with it."""
    from nonolab.formats._colours import CharGoal

    by_char = {char: name for name, (_, char) in colours.items() if char and char not in "0."}
    names: dict[str, str] = {}
    for ch in sorted(set(cells), key=cells.index):
        name = "white" if ch in "0." else by_char.get(ch)
        if name is None:
            raise ParseError(f"goal cell {ch!r} is no declared colour's character", line=lineno)
        names[ch] = name
    return CharGoal(cells, width, names)


def _colour_declaration(colours: dict, arg: str, lineno: int) -> dict[str, tuple[tuple[int, int, int], str | None]]:
    """``colours`` (``{name: (rgb, char)}``, a :class:`~nonolab.formats._colours.Declared`
    once a colour is) with ``NAME RRGGBB [CHAR]`` (Nonny) declared."""
    from nonolab.formats._colours import Declared, parse_rgb

    fields = arg.split()
    rgb = parse_rgb(fields[1]) if len(fields) >= 2 else None
    if rgb is None or len(fields) > 3:
        raise ParseError("a colour line is 'color NAME RRGGBB CHAR'", line=lineno)
    declared = colours if isinstance(colours, Declared) else Declared()
    declared.declare(fields[0], (rgb, fields[2] if len(fields) == 3 else None), lineno)
    return declared


def _colour_block(lines: Sequence[str], start: int, count: int, kind: str, end: int,
                  colours: dict) -> tuple[list[list[tuple[int, str]]], list[int]]:
    """``count`` colour clue lines: a colour name applies to the numbers after it."""
    out, where = [], []
    for k in range(count):
        i = start + k
        if i >= end:
            raise ParseError(f"expected {count} {kind} clue lines, but the file ends after {k}", line=max(end, 1))
        colour, blocks = "black", []
        for token in filter(None, _COLOUR_SPLIT.split(lines[i].strip())):
            if token in colours or token == "black":
                colour = token
            elif token.isdigit():
                blocks.append((to_int(token, i + 1, "clue number"), colour))
            else:
                raise ParseError(f"{token!r} is neither a number nor a declared colour", line=i + 1)
        if [n for n, _ in blocks] == [0]:
            blocks = []
        if any(n == 0 for n, _ in blocks):
            raise ParseError("block 0 inside a clue (a lone 0 means an empty line)", line=i + 1)
        out.append(blocks)
        where.append(i + 1)
    return out, where


def _read_grid(lines: Sequence[str], i: int, end: int, arg: str) -> tuple[str, int]:
    """The cells of a ``goal``/``saved`` grid: one string, quoted or not, or several lines.

    Returns the cell characters and the index of the line after the grid.
    """
    if arg[:1] in ('"', "'"):
        q, body, parts, j = arg[0], arg[1:], [], i
        while q not in body:
            parts.append(body)
            j += 1
            if j >= end:
                raise ParseError("the quoted grid is not closed", line=i + 1)
            body = lines[j]
        parts.append(body[:body.index(q)])
        return "".join("".join(p.split()) for p in parts), j + 1
    parts, j = ["".join(arg.split())], i
    while j + 1 < end and _GRID_LINE.fullmatch(lines[j + 1]) and not is_blank(lines[j + 1]):
        j += 1
        parts.append("".join(lines[j].split()))
    return "".join(parts), j + 1


def _check_goal(cells: str, w: int, h: int, lineno: int) -> None:
    if len(cells) != w * h:
        raise ParseError(f"the goal has {counted(len(cells), 'cell')}, expected {w}x{h} = {w * h}",
                         line=lineno)
    if "?" in cells:
        raise ParseError("the goal has unknown cells '?'", line=lineno)


def _bw_goal(cells: str) -> list[int]:
    # mikix: 0 is blank and any other character is filled.
    return [0 if c == "0" else 1 for c in cells]


def _quote(value: str) -> str:
    """A value for a double-quoted property: only what would end or garble it is written as
    an entity (``&``, ``"``, line breaks), so an apostrophe stays an apostrophe for people."""
    v = str(value).replace("&", "&amp;").replace('"', "&quot;")
    return v.replace("\n", "&#10;").replace("\r", "&#13;")


def write(puzzle: Puzzle) -> str:
    out = []
    if puzzle.name:
        out.append(f'title "{_quote(puzzle.name)}"')
    for key, value in puzzle.metadata.items():
        if re.fullmatch(r"[A-Za-z_][\w-]*", str(key)) and str(key).lower() not in _RESERVED:
            out.append(f'{key} "{_quote(value)}"')
    out += [f"width {puzzle.width}", f"height {puzzle.height}", ""]
    if puzzle.keeps_palette:
        return "\n".join(out + _colour_lines(puzzle)) + "\n"
    out += ["rows"]
    out += [clue_text(c) for c in puzzle.rows]
    out += ["", "columns"]
    out += [clue_text(c) for c in puzzle.columns]
    if puzzle.goal is not None:
        out += ["", 'goal "' + _goal_text(puzzle.goal.to_bytes(), "01") + '"']
    out += _givens_lines(puzzle, "01")
    return "\n".join(out) + "\n"


def _givens_lines(puzzle: Puzzle, chars: Sequence[str]) -> list[str]:
    """The ``givens`` grid (nothing for a puzzle without givens): ``chars[value]`` for
    each given cell, ``?`` for the others."""
    if not puzzle.givens:
        return []
    grid = ["?"] * (puzzle.width * puzzle.height)
    for r, c, v in puzzle.givens:
        grid[r * puzzle.width + c] = "0" if v == 0 else chars[v]
    return ["", 'givens "' + "".join(grid) + '"']



def _colour_lines(puzzle: Puzzle) -> list[str]:
    """Colour declarations and clue lines; every block is named (a name that is not a
    plain word becomes ``cN``), so no line depends on the default ``black``."""
    from nonolab.formats._colours import fitted

    puzzle = fitted(puzzle, len(_PLAIN_CHARS) - 1, "non", "a character each in the goal and the givens")
    palette = puzzle.palette
    assert palette is not None
    names = [c.name if re.fullmatch(r"[A-Za-z_][\w-]*", c.name) and c.name.lower() not in _RESERVED
             else f"c{i}" for i, c in enumerate(palette)]
    if len(set(names)) != len(names):
        names = [f"c{i}" for i in range(len(palette))]
    chars = [c.char for c in palette]
    # "?" in the goal is a cell not known (and in the givens one not given).
    if any(not re.fullmatch(r"[!#-&(-/1-~]", ch) or ch in ".?" for ch in chars[1:]):
        chars = list(_PLAIN_CHARS[:len(palette)])     # a char the goal cannot carry: the plain ones
    out = [f"color {names[i]} {palette.hex(i)} {chars[i]}" for i in range(1, len(palette))]
    for key, lines in (("rows", puzzle.coloured_rows), ("columns", puzzle.coloured_columns)):
        out += ["", key]
        out += [" ".join(f"{names[c]} {n}" for n, c in line) or "0" for line in lines]
    if puzzle.goal is not None:
        out += ["", 'goal "' + _goal_text(puzzle.goal.to_bytes(), "0" + "".join(chars[1:])) + '"']
    return out + _givens_lines(puzzle, chars)


def _goal_text(cells: bytes, chars: str) -> str:
    """The goal's characters, ``chars[v]`` for each cell's value ``v`` (ASCII): one
    ``bytes.translate``, a byte a cell, where a string a cell cost 75 bytes a cell
    (7.6 GB for a 10,000x10,000 solution written by ``solve -o``).

    >>> _goal_text(bytes([0, 1, 2]), "0ab")
    '0ab'
    """
    table = bytearray(range(256))
    table[:len(chars)] = chars.encode("ascii")
    return cells.translate(bytes(table)).decode("ascii")
