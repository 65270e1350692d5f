"""Robert Bosch's LP solver input (``.lp``), as pbnsolve reads it (``read_bw.c``).

Whitespace-separated words: ``number_of_rows: R number_of_columns: C``, then for
every line ``row_I`` or ``column_J`` (numbered from 1), a label word ending in
``:`` (Bosch writes ``number_of_clusters:`` or ``number_of_tiles:``), the count
of blocks, another label (``size(s):`` or ``width(s):``) and that many block
lengths.  Line breaks carry no meaning.  Every row and column must be given once.

>>> p = parse("number_of_rows: 1\\nnumber_of_columns: 2\\n"
...           "row_1 number_of_clusters: 1 size(s): 2\\n"
...           "column_1 number_of_clusters: 1 size(s): 1\\n"
...           "column_2 number_of_clusters: 1 size(s): 1\\n")[0]
>>> p.rows, p.columns
(((2,),), ((1,), (1,)))
"""

from __future__ import annotations

import re

from nonolab.core.puzzle import Puzzle
from nonolab.errors import ParseError
from nonolab.formats._common import ClueLines, build, eof_line, require_text, shown, split_lines, to_int

_WORD = re.compile(r"\S+")
_LINE = re.compile(r"(row|column)_([0-9]+):?$")


class _Words:
    """The words of the text with their line numbers, read one at a time."""

    def __init__(self, lines: list[str]):
        self.words = [(m.group(), i + 1) for i, x in enumerate(lines) for m in _WORD.finditer(x)]
        self.at = 0
        self.end_line = eof_line(lines)

    def more(self) -> bool:
        return self.at < len(self.words)

    def next(self, what: str) -> tuple[str, int]:
        if not self.more():
            raise ParseError(f"the file ends where {what} was expected", line=self.end_line)
        self.at += 1
        return self.words[self.at - 1]

    def label(self, expected: str | None = None) -> None:
        word, line = self.next(f"a label such as {expected or 'size(s):'}")
        if (expected is not None and word != expected) or not word.endswith(":"):
            raise ParseError(f"expected {expected or 'a label ending with :'}, found {shown(word)}",
                             line=line)

    def number(self, what: str) -> tuple[int, int]:
        word, line = self.next(what)
        return to_int(word, line, what), line


def sniff(text: str) -> bool:
    words = text.split(None, 1)
    return bool(words) and words[0] == "number_of_rows:"


def parse(text: str) -> list[Puzzle]:
    lines = split_lines(text)
    require_text(lines)
    words = _Words(lines)
    words.label("number_of_rows:")
    height, size_line = words.number("the number of rows")
    words.label("number_of_columns:")
    width, _ = words.number("the number of columns")
    found: dict[str, dict[int, tuple[tuple[int, ...], int]]] = {"row": {}, "column": {}}
    while words.more():
        word, line = words.next("row_I or column_J")
        match = _LINE.match(word)
        if not match:
            raise ParseError(f"expected row_I or column_J, found {shown(word)}", line=line)
        kind, index = match.group(1), to_int(match.group(2), line, f"{match.group(1)} number")
        limit = height if kind == "row" else width
        if not 1 <= index <= limit:
            raise ParseError(f"{word} is outside 1..{limit}", line=line)
        if index in found[kind]:
            raise ParseError(f"{word} is given twice", line=line)
        words.label()
        count, _ = words.number("the number of blocks")
        words.label()
        blocks = tuple(words.number("a block length")[0] for _ in range(count))
        if 0 in blocks:
            raise ParseError(f"block 0 in {word}", line=line)
        found[kind][index] = (blocks, line)
    for kind, limit in (("row", height), ("column", width)):
        if len(found[kind]) < limit:
            missing = next(k for k in range(1, limit + 1) if k not in found[kind])
            raise ParseError(f"no clue for {kind}_{missing}", line=eof_line(lines))
    rows = [found["row"][k] for k in range(1, height + 1)]
    cols = [found["column"][k] for k in range(1, width + 1)]
    return [build([c for c, _ in rows], [c for c, _ in cols],
                  ClueLines(rows=[n for _, n in rows], columns=[n for _, n in cols], size=size_line))]


def write(puzzle: Puzzle) -> str:
    out = [f"number_of_rows: {puzzle.height}", f"number_of_columns: {puzzle.width}"]
    for kind, clues in (("row", puzzle.rows), ("column", puzzle.columns)):
        for k, clue in enumerate(clues, 1):
            sizes = " ".join(map(str, clue))
            out.append(f"{kind}_{k} number_of_clusters: {len(clue)} size(s): {sizes}".rstrip())
    return "\n".join(out) + "\n"
