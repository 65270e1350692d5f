"""MiniZinc data (``.dzn``) for ``models/nonogram.mzn``, in the layout of hakank's models.

::

    % title: "cross"
    rows = 3;
    cols = 3;
    row_rule_len = 1;
    col_rule_len = 1;
    row_rules = array2d(1..rows, 1..row_rule_len, [
      1,
      3,
      1
    ]);
    col_rules = array2d(1..cols, 1..col_rule_len, [ ... ]);

Each rule is a line's clue padded with zeros on the left to ``*_rule_len`` entries
(at least 1); an all-zero rule is an empty line.  Reading also takes zeros on the
right, the ``[| 1, 2 | 0, 3 |]`` literal, assignments in any order, comments, and
ignores names the model does not use; a zero between two blocks is an error.  The
puzzle name travels in a ``% title:`` comment, as MiniZinc rejects data for names
the model does not declare.  Nothing is ever evaluated: a small tokenizer reads the
subset of MiniZinc that such data uses.

>>> from nonolab.core import Puzzle
>>> p = Puzzle(rows=((1, 1), ()), columns=((1,), (), (1,)))
>>> parse(write(p))[0] == p
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Sequence

from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import ClueLines, build, require_text, split_lines, to_int

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+) | (?P<newline>\n) | (?P<comment>%[^\n]*) | (?P<block>/\*.*?\*/)
  | (?P<str>"(?:[^"\\\n]|\\.)*") | (?P<int>[0-9]+) | (?P<name>[A-Za-z][A-Za-z0-9_]*)
  | (?P<op>\.\.|\[\||\|\]|[=;,()\[\]|-]) | (?P<other>.)""", re.VERBOSE | re.DOTALL)
_TITLE = re.compile(r"%\s*title:\s*(.*)")
_SNIFF = re.compile(r"^\s*row_rules\s*=", re.MULTILINE)
_NAMES = ("rows", "cols", "row_rule_len", "col_rule_len", "row_rules", "col_rules")


@dataclass
class _Tok:
    kind: str
    text: str
    line: int


def sniff(text: str) -> bool:
    return bool(_SNIFF.search(text)) and "col_rules" in text


def _tokens(text: str) -> tuple[list[_Tok], str]:
    """The tokens (without blanks and comments) and the title from a ``% title:`` comment."""
    out: list[_Tok] = []
    title = ""
    line = 1
    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup or "other", m.group()
        if kind == "comment":
            t = _TITLE.fullmatch(value.strip())
            if t and not title:
                title = _read_title(t.group(1).strip())
        elif kind == "other" and value == "/" and text.startswith("/*", m.start()):
            raise ParseError("the comment '/*' is not closed", line=line)
        elif kind not in ("space", "newline", "block"):
            out.append(_Tok(kind, value, line))
        line += value.count("\n")
    return out, title


def _read_title(raw: str) -> str:
    if raw.startswith('"'):
        try:
            value = json.loads(raw)     # a JSON string literal: data, never code
            if isinstance(value, str):
                return value
        except ValueError:
            pass
    return raw


class _Reader:
    """A cursor over the tokens, with errors pinned to the current token's line."""

    def __init__(self, toks: list[_Tok], last_line: int):
        self.toks = toks
        self.i = 0
        self.last_line = last_line

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self, what: str) -> _Tok:
        tok = self.peek()
        if tok is None:
            raise ParseError(f"the data ends where {what} was expected", line=self.last_line)
        self.i += 1
        return tok

    def expect(self, text: str) -> _Tok:
        tok = self.next(repr(text))
        if tok.text != text:
            raise ParseError(f"expected {text!r}, found {tok.text!r}", line=tok.line)
        return tok

    def integer(self, what: str) -> tuple[int, int]:
        tok = self.next(what)
        if tok.kind == "op" and tok.text == "-":
            raise ParseError(f"{what} must not be negative", line=tok.line)
        if tok.kind != "int":
            raise ParseError(f"expected {what} (an integer), found {tok.text!r}", line=tok.line)
        return to_int(tok.text, tok.line, what), tok.line


def _skip_value(rd: _Reader) -> None:
    """Pass over the value of a name the model does not use, up to its ``;``."""
    while rd.next("';'").text != ";":
        pass


def _range(rd: _Reader, what: str) -> tuple[int, str | int]:
    """``1..N`` or ``1..name``: returns the line and the upper bound (int or name)."""
    lo, line = rd.integer(f"the first index of {what}")
    if lo != 1:
        raise ParseError(f"the indices of {what} must start at 1, not {lo}", line=line)
    rd.expect("..")
    tok = rd.next(f"the last index of {what}")
    if tok.kind == "name":
        return tok.line, tok.text
    if tok.kind != "int":
        raise ParseError(f"expected the last index of {what}, found {tok.text!r}", line=tok.line)
    return tok.line, to_int(tok.text, tok.line, f"the last index of {what}")


def _int_list(rd: _Reader, what: str, ends: tuple[str, ...]) -> tuple[list[tuple[int, int]], str]:
    """Integers separated by commas (a trailing comma allowed) up to one of ``ends``.

    Returns ``(value, line)`` pairs and the closing token, which is consumed.
    """
    items: list[tuple[int, int]] = []
    closing = " or ".join(map(repr, ends))
    tok = rd.peek()
    while tok is None or tok.text not in ends:
        items.append(rd.integer(f"an entry of {what}"))
        tok = rd.next(f"',' or {closing}")
        if tok.text in ends:
            return items, tok.text
        if tok.text != ",":
            raise ParseError(f"expected ',' or {closing} in {what}, found {tok.text!r}",
                             line=tok.line)
        tok = rd.peek()
    rd.i += 1
    return items, tok.text


def _rules(rd: _Reader, name: str) -> tuple[list[list[tuple[int, int]]] | None, list, int]:
    """An ``array2d(1..n, 1..m, [...])`` or ``[| ... |]`` value.

    Returns the rows when the literal gives them; else None and the flat list with
    its two declared ranges, checked once every assignment is known.
    """
    tok = rd.next(f"the value of {name}")
    if tok.text == "[|":
        rows: list[list[tuple[int, int]]] = []
        end = "|"
        while end == "|":
            if (ahead := rd.peek()) is not None and ahead.text == "|]":    # [| 1 | 2 |]
                rd.i += 1
                break
            row, end = _int_list(rd, name, ("|", "|]"))
            rows.append(row)
        return rows, [], tok.line
    if tok.text != "array2d":
        raise ParseError(f"{name} must be array2d(1..n, 1..m, [...]) or [| ... |], "
                         f"found {tok.text!r}", line=tok.line)
    rd.expect("(")
    first = _range(rd, f"{name}'s rows")
    rd.expect(",")
    second = _range(rd, f"{name}'s columns")
    rd.expect(",")
    rd.expect("[")
    flat, _ = _int_list(rd, name, ("]",))
    rd.expect(")")
    return None, [first, second, flat], tok.line


def _clue(entries: Sequence[tuple[int, int]], kind: str, index: int, where: int) -> Clue:
    values = [v for v, _ in entries]
    line = entries[0][1] if entries else where
    first = next((k for k, v in enumerate(values) if v), len(values))
    last = len(values) - next((k for k, v in enumerate(reversed(values)) if v), len(values))
    if 0 in values[first:last]:
        raise ParseError(f"{kind} {index + 1}: a 0 between two blocks ({values}); zeros may "
                         "only pad a rule", line=line)
    return tuple(values[first:last])


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    # Tokenize the text as split_lines sees it (no BOM, any line ending), so that
    # line numbers agree with the other formats'.
    toks, title = _tokens("\n".join(lines))
    rd = _Reader(toks, max(len(lines), 1))
    ints: dict[str, tuple[int, int]] = {}
    arrays: dict[str, tuple] = {}
    while rd.peek() is not None:
        tok = rd.next("a name")
        if tok.kind != "name":
            raise ParseError(f"expected 'name = value;', found {tok.text!r}", line=tok.line)
        if tok.text in ints or tok.text in arrays:
            raise ParseError(f"{tok.text} is assigned twice", line=tok.line)
        rd.expect("=")
        if tok.text in ("rows", "cols", "row_rule_len", "col_rule_len"):
            ints[tok.text] = rd.integer(tok.text)
        elif tok.text in ("row_rules", "col_rules"):
            arrays[tok.text] = _rules(rd, tok.text)
        else:
            _skip_value(rd)
            continue
        rd.expect(";")
    clues: dict[str, list[Clue]] = {}
    where: dict[str, list[int]] = {}
    for name, count, width, kind in (("row_rules", "rows", "row_rule_len", "row"),
                                     ("col_rules", "cols", "col_rule_len", "column")):
        if name not in arrays:
            raise ParseError(f"missing {name} (expected {', '.join(_NAMES)})", line=rd.last_line)
        rows, declared, line = arrays[name]
        if rows is None:
            rows = _reshape(name, declared, ints, line)
        if any(len(r) != len(rows[0]) for r in rows):
            raise ParseError(f"the rows of {name} have different lengths", line=line)
        for key, got in ((count, len(rows)), (width, len(rows[0]) if rows else 0)):
            if key in ints and ints[key][0] != got and (key == count or rows):
                raise ParseError(f"{key} = {ints[key][0]}, but {name} has {got}", line=ints[key][1])
        clues[kind] = [_clue(r, kind, i, line) for i, r in enumerate(rows)]
        where[kind] = [r[0][1] if r else line for r in rows]
    return [build(clues["row"], clues["column"], ClueLines(rows=where["row"], columns=where["column"],
                                                         size=arrays["row_rules"][2]), name=title)]


def _reshape(name: str, declared: list, ints: dict[str, tuple[int, int]],
             line: int) -> list[list[tuple[int, int]]]:
    sizes = []
    for bound_line, bound in declared[:2]:
        if isinstance(bound, str):
            if bound not in ints:
                raise ParseError(f"{name}: {bound} is not given", line=bound_line)
            bound = ints[bound][0]
        sizes.append(bound)
    n, m = sizes
    flat = declared[2]
    if len(flat) != n * m:
        raise ParseError(f"{name} declares {n}x{m} = {n * m} entries but lists {len(flat)}",
                         line=line)
    return [flat[i * m:(i + 1) * m] for i in range(n)]


def _block(clues: Sequence[Clue], width: int) -> list[str]:
    return ["  " + ", ".join(map(str, (0,) * (width - len(c)) + tuple(c))) for c in clues]


def write(puzzle: Puzzle) -> str:
    """The puzzle as data for ``models/nonogram.mzn``, rules zero-padded on the left."""
    row_len = max(1, *map(len, puzzle.rows))
    col_len = max(1, *map(len, puzzle.columns))
    out = []
    if puzzle.name:
        out.append("% title: " + json.dumps(puzzle.name))
    out += [f"rows = {puzzle.height};", f"cols = {puzzle.width};",
            f"row_rule_len = {row_len};", f"col_rule_len = {col_len};",
            "row_rules = array2d(1..rows, 1..row_rule_len, ["]
    out += [",\n".join(_block(puzzle.rows, row_len)), "]);",
            "col_rules = array2d(1..cols, 1..col_rule_len, ["]
    out += [",\n".join(_block(puzzle.columns, col_len)), "]);"]
    return "\n".join(out) + "\n"
