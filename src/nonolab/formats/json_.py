"""JSON puzzles: ``{"rows": [[...]], "columns": [[...]]}`` or a list of such objects.

Optional keys: ``name``, ``metadata`` (an object of strings) and ``goal`` (a list
of row strings of ``0``/``1`` or ``#``/``.``).  ``cols`` is read as an alias of
``columns``.  Errors name the line of the offending value.

``givens`` lists the cells the puzzle reveals (part of the puzzle: every solution has
them), each ``[row, column, value]``, 0-based, the value 0 (empty) or 1 (filled).

Colour: a ``palette`` list of ``{"name", "rgb" (RRGGBB), "char"}`` (the background
first), blocks written ``[length, "colour name"]``, goal rows in the palette's chars,
and each given's value the name of its colour (the background's for an empty cell).  Also read: klepaczmikolaj/color-nonogram-solver's ``{"horizontal": rows,
"vertical": columns}`` with blocks ``{"v": 3, "c": "Red"}`` on a White background.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any, Callable, Sequence

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats._common import ClueLines, build, each, every, make_goal, number_problem, parse_clue, with_givens
from nonolab.formats.limits import check_depth, check_puzzles, json_depth

_DECODER = json.JSONDecoder()
_CELL = {"0": 0, ".": 0, "1": 1, "#": 1, "X": 1, "x": 1}


def sniff(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


def parse(text: str) -> list[Puzzle]:
    return every(parse_each(text))


def parse_each(text: str) -> list[Puzzle | NonolabError]:
    """Every puzzle of the text, or its own error: the JSON document is the set's structure (a
    text that is not JSON, an empty list: the file's error), each object of a list one puzzle.
    JSON Lines (one object a line, the first line a JSON value of its own) is a set too, each
    line one puzzle, a line that is not JSON that puzzle's error."""
    text = text.lstrip("\ufeff")
    check_depth(json_depth(text), 1)   # before json recurses into it
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        lines = _json_lines(text, err)
        if lines is not None:
            return lines
        raise ParseError(f"invalid JSON: {err.msg} (column {err.colno})", line=err.lineno) from None
    except RecursionError:
        raise ParseError("invalid JSON: nested too deeply", line=1) from None
    except ValueError as err:       # e.g. an integer with too many digits
        raise ParseError(f"invalid JSON: {number_problem(err)}", line=1) from None
    where, repeated = _where(text)
    if isinstance(data, list):
        if not data:
            raise ParseError("the JSON list holds no puzzle", line=1)
        check_puzzles(len(data), 1)
        return each(lambda k: _puzzle(data[k], (k,), where, repeated), range(len(data)))
    return [_puzzle(data, (), where, repeated)]


def _where(text: str) -> tuple[Callable[[tuple], int], list[tuple[tuple, int]]]:
    """The line of the value at a path (puzzle, key, item) of the JSON ``text``; and each key
    given twice in one object (which ``json`` reads as its last value without a word), as its
    path and the line of its second one."""
    repeated: list[tuple[tuple, int]] = []
    offsets = _offsets(text, repeated)
    # Where each line ends, found once: a line number is then a bisection, not a count of the
    # newlines before the value (which made reading a set quadratic in its length).
    newlines = [m.start() for m in re.finditer("\n", text)]

    def where(path: tuple) -> int:
        # The innermost recorded value on the path (deep values are not recorded).
        while path and path not in offsets:
            path = path[:-1]
        return bisect.bisect_left(newlines, offsets.get(path, 0)) + 1

    return where, [(path, bisect.bisect_left(newlines, at) + 1) for path, at in repeated]


def _json_lines(text: str, err: json.JSONDecodeError) -> list[Puzzle | NonolabError] | None:
    """The puzzles of JSON Lines, when ``err`` is the extra data after a first line that is
    JSON by itself (else None: the text is broken JSON); each non-blank line one puzzle."""
    lines = text.replace("\r\n", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    if err.msg != "Extra data" or err.lineno <= first + 1:
        return None
    try:
        json.loads(lines[first])
    except ValueError:
        return None
    numbered = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    check_puzzles(len(numbered), 1)
    return each(lambda at: _line_puzzle(*numbered[at]), range(len(numbered)))


def _line_puzzle(number: int, line: str) -> Puzzle:
    """The puzzle on line ``number`` of JSON Lines; its errors name that line."""
    try:
        return every(parse_each(line))[0] if line.lstrip()[:1] == "{" else _refuse_line(line)
    except NonolabError as err:
        err.line = number   # a line's own line is 1
        raise


def _refuse_line(line: str) -> Puzzle:
    raise ParseError("a line of JSON Lines must be one puzzle, a JSON object", line=1)


def _space(text: str, i: int) -> int:
    """The index of the first character at or after ``i`` that is not JSON whitespace."""
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


def _offsets(text: str, repeated: list[tuple[tuple, int]] | None = None) -> dict[tuple, int]:
    """Offset of every value down to three levels (puzzle, key, item), by path.

    ``json`` keeps no positions; this second pass over text already known to be
    valid JSON finds them, so errors can name a line.  Deeper values are skipped
    with the C decoder.  A key given a second time in an object (which ``json`` reads
    as its last value, silently) goes to ``repeated``: its path and the offset of the
    second one.
    """
    found: dict[tuple, int] = {}

    def value(i: int, path: tuple) -> int:
        i = _space(text, i)
        found[path] = i
        if len(path) >= 3 or text[i] not in "[{":
            return _DECODER.raw_decode(text, i)[1]
        close = "]" if text[i] == "[" else "}"
        i = _space(text, i + 1)
        k = 0
        while text[i] != close:
            if close == "}":
                at = i
                key, i = _DECODER.raw_decode(text, i)   # the key, a JSON string
                i = _space(text, i) + 1
                if repeated is not None and path + (key,) in found:
                    repeated.append((path + (key,), at))
            else:
                key = k
            i = _space(text, value(i, path + (key,)))
            if text[i] == ",":
                i = _space(text, i + 1)
            k += 1
        return i + 1

    try:
        value(0, ())
    except (ValueError, IndexError, RecursionError):
        pass    # positions are a courtesy: without them errors point at line 1
    return found


def _puzzle(obj: Any, path: tuple, where: Callable[[tuple], int], repeated: list[tuple[tuple, int]]) -> Puzzle:
    if not isinstance(obj, dict):
        raise ParseError("a puzzle must be a JSON object", line=where(path))
    for key_path, line in repeated:   # the puzzle refuses what json would silently keep the last of
        if key_path[:-1] == path:
            raise ParseError(f'"{key_path[-1]}" given twice in one object (json would keep the last one)', line=line)
    if "palette" in obj or "horizontal" in obj:
        made = _colour_puzzle(obj, path, where)
    else:
        made = _black_and_white(obj, path, where)
    if obj.get("givens") is None:
        return made
    found, lines = _givens(obj["givens"], made, lambda i: where(path + ("givens",) + ((i,) if i is not None else ())))
    try:
        return with_givens(made, found, None)
    except InvalidPuzzle as err:   # a given the grid cannot take: the line of that given, not of the key
        bad = next((cell for cell, v in found.items() if not _fits(made, cell, v)), None)
        raise err.located(line=lines[bad] if bad is not None else where(path + ("givens",))) from None


def _fits(puzzle: Puzzle, cell: tuple[int, int], value: int) -> bool:
    """The puzzle takes this one given (asked only once the givens as a whole were refused)."""
    try:
        puzzle.with_(givens={cell: value})
    except InvalidPuzzle:
        return False
    return True


def _givens(value: Any, puzzle: Puzzle, where: Callable[[int | None], int]
            ) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """``[[row, column, value], ...]``: a value 0/1, or a colour's name (in colour, always);
    with the line of each given (``where(i)``: of the i-th, ``where(None)``: of the key)."""
    names = {c.name: i for i, c in enumerate(puzzle.palette)} if puzzle.palette is not None else {}
    if not isinstance(value, list):
        raise ParseError('"givens" must be a list of [row, column, value]', line=where(None))
    found: dict[tuple[int, int], int] = {}
    lines: dict[tuple[int, int], int] = {}
    for i, item in enumerate(value):
        line = where(i)
        if not (isinstance(item, list) and len(item) == 3 and all(type(x) is int for x in item[:2])):
            raise ParseError(f"a given is [row, column, value] with row and column integers, not {item!r}", line=line)
        r, c, v = item
        if isinstance(v, str) and v in names:
            v = names[v]
        elif puzzle.is_colour or type(v) is not int:
            what = "the name of a colour of the puzzle" if puzzle.is_colour else "0 or 1"
            raise ParseError(f"given ({r + 1},{c + 1}): {v!r} is not {what}", line=line)
        if (r, c) in found:
            raise ParseError(f"cell ({r + 1},{c + 1}) is given twice", line=line)
        found[(r, c)], lines[(r, c)] = v, line
    return found, lines


def _black_and_white(obj: dict, path: tuple, where: Callable[[tuple], int]) -> Puzzle:
    columns_key = "columns" if "columns" in obj or "cols" not in obj else "cols"
    clues, lines = {}, {}
    for key in ("rows", columns_key):
        if key not in obj:
            raise ParseError(f'missing "{key}"', line=where(path))
        clues[key], lines[key] = _clues(obj[key], path + (key,), where)
    name = obj.get("name", "")
    if not isinstance(name, str):
        raise ParseError('"name" must be a string', line=where(path + ("name",)))
    meta = obj.get("metadata", {})
    if not isinstance(meta, dict) or not all(
            isinstance(v, (str, int, float, bool)) for v in meta.values()):
        raise ParseError('"metadata" must be an object of strings',
                         line=where(path + ("metadata",)))
    goal, goal_line = None, None
    if obj.get("goal") is not None:
        goal_line = where(path + ("goal",))
        goal = make_goal(_goal_rows(obj["goal"], path + ("goal",), where), goal_line)
    return build(clues["rows"], clues[columns_key], ClueLines(rows=lines["rows"], columns=lines[columns_key],
                                                               size=where(path + ("rows",)), goal=goal_line), name=name,
                 metadata={str(k): str(v) for k, v in meta.items()}, goal=goal)


def _colour_puzzle(obj: dict, path: tuple, where: Callable[[tuple], int]) -> Puzzle:
    from nonolab.formats._colours import Declared, build_coloured, parse_rgb

    declared = Declared()
    if "palette" in obj:
        keys = ("rows", "columns" if "columns" in obj else "cols")
        entries = obj["palette"]
        if not isinstance(entries, list) or len(entries) < 2:
            raise ParseError('"palette" must list the background and at least one colour',
                             line=where(path + ("palette",)))
        for i, entry in enumerate(entries):
            rgb = parse_rgb(str(entry.get("rgb", ""))) if isinstance(entry, dict) else None
            if rgb is None or not isinstance(entry.get("name"), str):
                raise ParseError(f'palette[{i}] must be {{"name": ..., "rgb": "RRGGBB", "char": ...}}',
                                 line=where(path + ("palette", i)))
            declared.declare(entry["name"], (rgb, entry.get("char")), where(path + ("palette", i)))
        background = next(iter(declared))   # the palette's first entry
    else:   # klepaczmikolaj: ANSI colour names on White
        keys, background = ("horizontal", "vertical"), "White"
    blocks: dict[str, list] = {}
    lines: dict[str, list[int]] = {}
    for key in keys:
        value = obj.get(key)
        if not isinstance(value, list):
            raise ParseError(f'"{key}" must be a list of clues', line=where(path + ((key,) if key in obj else ())))
        blocks[key], lines[key] = [], []
        for i, clue in enumerate(value):
            line = where(path + (key, i))
            out = []
            for block in clue if isinstance(clue, list) else [None]:
                if isinstance(block, dict):
                    block = [block.get("v"), block.get("c")]
                if not (isinstance(block, list) and len(block) == 2 and type(block[0]) is int and block[0] > 0
                        and isinstance(block[1], str)):
                    raise ParseError(f"{key}[{i}] must be a list of [length, colour] blocks", line=line)
                if block[1] not in declared:
                    rgb = parse_rgb(block[1]) if "palette" not in obj else None
                    if rgb is None:
                        raise ParseError(f"{key}[{i}]: colour {block[1]!r} is not in the palette", line=line)
                    declared[block[1]] = (rgb, None)
                out.append((block[0], block[1]))
            blocks[key].append(out)
            lines[key].append(line)
    declared.setdefault(background, ((255, 255, 255), "."))
    goal, goal_line = None, None
    if obj.get("goal") is not None:
        goal_line = where(path + ("goal",))
        by_char = {char: name for name, (_, char) in declared.items() if char}
        rows = obj["goal"]
        if not (isinstance(rows, list) and all(isinstance(r, str) and all(c in by_char for c in r) for r in rows)):
            raise ParseError("goal rows must be strings of the palette's chars", line=goal_line)
        goal = [[by_char[c] for c in row] for row in rows]
    meta = obj.get("metadata", {})
    givens = obj.get("givens")
    named = ([item[2] for item in givens if isinstance(item, list) and len(item) == 3 and isinstance(item[2], str)]
             if isinstance(givens, list) else [])
    return build_coloured(blocks[keys[0]], blocks[keys[1]], background, declared,
                          ClueLines(rows=lines[keys[0]], columns=lines[keys[1]], size=where(path + (keys[0],)),
                                    goal=goal_line), goal=goal, name=str(obj.get("name", "")), given=named,
                          metadata={str(k): str(v) for k, v in meta.items()} if isinstance(meta, dict) else {})


def _clues(value: Any, path: tuple, where: Callable[[tuple], int]) -> tuple[list, list[int]]:
    if not isinstance(value, list):
        raise ParseError(f'"{path[-1]}" must be a list of clues', line=where(path))
    clues, lines = [], []
    for i, clue in enumerate(value):
        line = where(path + (i,))
        if isinstance(clue, str):
            clue = list(parse_clue(clue, line))
        if not isinstance(clue, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in clue):
            raise ParseError(f'{path[-1]}[{i}] must be a list of integers', line=line)
        clues.append(() if clue == [0] else tuple(clue))
        lines.append(line)
    return clues, lines


def _goal_rows(value: Any, path: tuple, where: Callable[[tuple], int]) -> list[list[int]]:
    if not isinstance(value, list):
        raise ParseError('"goal" must be a list of rows', line=where(path))
    rows = []
    for i, row in enumerate(value):
        if isinstance(row, str) and all(c in _CELL for c in row):
            rows.append([_CELL[c] for c in row])
        elif isinstance(row, list) and all(type(v) is int and v in (0, 1) for v in row):
            rows.append(list(row))
        else:
            raise ParseError(f"goal row {i + 1} must be a string of 0/1 or #/. cells",
                             line=where(path + (i,)))
    return rows


def _row_text(row: Sequence[int]) -> str:
    return "".join("#" if v else "." for v in row)


def _object(p: Puzzle, indent: str) -> str:
    inner = indent + "  "

    def array(items: Sequence[str]) -> str:
        return "[\n" + ",\n".join(inner + "  " + x for x in items) + f"\n{inner}]"

    if p.keeps_palette:
        from nonolab.formats._colours import written_chars

        palette = p.palette
        assert palette is not None
        chars = written_chars(palette)      # a goal row is a line of them

        def lines(clues: Any) -> list[str]:
            return [json.dumps([[n, palette[c].name] for n, c in line], ensure_ascii=False) for line in clues]

        fields = [f'"name": {json.dumps(p.name, ensure_ascii=False)}',
                  '"palette": ' + array([json.dumps({"name": c.name, "rgb": palette.hex(i), "char": chars[i]},
                                                    ensure_ascii=False) for i, c in enumerate(palette)]),
                  f'"rows": {array(lines(p.coloured_rows))}', f'"columns": {array(lines(p.coloured_columns))}',
                  f'"metadata": {json.dumps(dict(p.metadata), ensure_ascii=False)}']
        if p.goal is not None:
            fields.append('"goal": ' + array([json.dumps(r, ensure_ascii=False)
                                              for r in p.goal.to_text(chars="".join(chars)).splitlines()]))
        if p.givens:
            fields.append('"givens": ' + array([json.dumps([r, c, palette[v].name], ensure_ascii=False)
                                                for r, c, v in p.givens]))
        return indent + "{\n" + ",\n".join(inner + f for f in fields) + f"\n{indent}}}"

    fields = [f'"name": {json.dumps(p.name, ensure_ascii=False)}',
              f'"rows": {array([json.dumps(list(c)) for c in p.rows])}',
              f'"columns": {array([json.dumps(list(c)) for c in p.columns])}']
    fields.append(f'"metadata": {json.dumps(dict(p.metadata), ensure_ascii=False)}')
    if p.goal is not None:
        fields.append(f'"goal": {array([json.dumps(_row_text(r)) for r in p.goal])}')
    if p.givens:
        fields.append(f'"givens": {array([json.dumps(list(g)) for g in p.givens])}')
    return indent + "{\n" + ",\n".join(inner + f for f in fields) + f"\n{indent}}}"


def write(puzzle: Puzzle) -> str:
    return _object(puzzle, "") + "\n"


def write_all(puzzles: Sequence[Puzzle]) -> str:
    return "[\n" + ",\n".join(_object(p, "  ") for p in puzzles) + "\n]\n"
