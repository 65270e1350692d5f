"""Headerless two-block clue files: the row clues, a separator, the column clues.

webpbn's export formats ``keen``, ``syro``, ``ish`` and ``makhorin`` share this
shape (one clue per line, rows first, no size line: the size is the number of
clue lines); they differ in the separator (a blank line, or ``&`` for makhorin),
in comment lines (none, ``#`` or ``*``) and in syro's ``0`` ending every line.
Numbers are separated by spaces, tabs or commas; ``0`` is an empty line.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats._common import (ClueLines, build, eof_line, is_blank, parse_clue, require_text, shown,
                                     split_lines)

_TOKENS = re.compile(r"[\s,]+")
_DIGITS = re.compile(r"[0-9]+")
Numbered = list[tuple[int, str]]


def _trim(block: Numbered) -> Numbered:
    while block and is_blank(block[0][1]):
        block = block[1:]
    while block and is_blank(block[-1][1]):
        block = block[:-1]
    return block


def _split_on_blank(entries: Numbered, lines: Sequence[str]) -> tuple[Numbered, Numbered]:
    runs: list[Numbered] = []
    for number, text in _trim(entries):
        if is_blank(text):
            if runs and runs[-1]:
                runs.append([])
            continue
        if not runs:
            runs.append([])
        runs[-1].append((number, text))
    if len(runs) < 2:
        raise ParseError("expected the row clues, a blank line, then the column clues; "
                         "there is no blank line", line=eof_line(lines))
    if len(runs) > 2:
        raise ParseError("a third block of clues: one blank line separates the row clues from "
                         "the column clues (write 0 for an empty line)", line=runs[2][0][0])
    return runs[0], runs[1]


def _split_on_marker(entries: Numbered, marker: str, lines: Sequence[str]
                     ) -> tuple[Numbered, Numbered]:
    at = [k for k, (_, text) in enumerate(entries) if text.strip() == marker]
    if not at:
        raise ParseError(f"no {marker!r} line between the row clues and the column clues",
                         line=eof_line(lines))
    if len(at) > 1:
        raise ParseError(f"a second {marker!r} line (one separates rows from columns)",
                         line=entries[at[1]][0])
    blocks = (_trim(entries[:at[0]]), _trim(entries[at[0] + 1:]))
    for kind, block in zip(("row", "column"), blocks):
        blank = next((n for n, text in block if is_blank(text)), None)
        if blank is not None:
            raise ParseError(f"blank line inside the {kind} clues (write 0 for an empty line)",
                             line=blank)
    return blocks


def _clue(text: str, line: int, terminated: bool) -> Clue:
    if not terminated:
        return parse_clue(text, line)
    tokens = [t for t in _TOKENS.split(text.strip()) if t]
    if not tokens or tokens[-1] != "0":
        raise ParseError(f"the clue line {shown(text.strip())} does not end with the 0 that "
                         "ends every line of this format", line=line)
    return parse_clue(" ".join(tokens[:-1]), line) if len(tokens) > 1 else ()


def _split(text: str, comment: str | None, marker: str | None
           ) -> tuple[Numbered, Numbered]:
    lines = split_lines(text)
    require_text(lines)
    entries = [(i + 1, x) for i, x in enumerate(lines)
               if comment is None or not x.lstrip().startswith(comment)]
    if marker is None:
        row_block, col_block = _split_on_blank(entries, lines)
    else:
        row_block, col_block = _split_on_marker(entries, marker, lines)
    for kind, block in (("row", row_block), ("column", col_block)):
        if not block:
            raise ParseError(f"no {kind} clues", line=eof_line(lines))
    return row_block, col_block


def read(text: str, *, comment: str | None = None, marker: str | None = None,
         terminated: bool = False) -> list[Puzzle]:
    """The one puzzle of a two-block file; ``marker`` is the separator line, else a blank line."""
    row_block, col_block = _split(text, comment, marker)
    rows = [_clue(x, n, terminated) for n, x in row_block]
    cols = [_clue(x, n, terminated) for n, x in col_block]
    return [build(rows, cols, ClueLines(rows=[n for n, _ in row_block], columns=[n for n, _ in col_block],
                                       size=row_block[0][0]))]


def _filled(block: Numbered) -> int:
    # Zeros (empty lines, syro's line ends) add nothing; huge numbers fail the parse anyway.
    numbers = _DIGITS.findall("\n".join(line for _, line in block))
    return sum(map(int, (x for x in numbers if len(x) < 10)))


def plausible(text: str, *, comment: str | None = None, marker: str | None = None) -> bool:
    """A cheap look before :func:`parses`: the two-block shape, and the same number
    of filled cells in both blocks, which turns away other formats' files (a .cwd's
    size lines) without reading every clue.  It needs the whole text: a cut head
    has only part of the column clues."""
    try:
        row_block, col_block = _split(text, comment, marker)
    except NonolabError:
        return False
    return _filled(row_block) == _filled(col_block)


def parses(parse: Callable[[str], list[Puzzle]], text: str, whole: bool = True) -> bool:
    """Whether ``parse`` reads ``text``: these formats have no signature, so the
    sniffers ask the reader (which also checks that the clues fit together).

    ``whole`` false: ``text`` is a file's head, cut after a line, and the errors the cut
    itself can cause are no evidence against the format: the clues' fit (``InvalidPuzzle``:
    a block's size is the other block's line count, and the column clues are cut) and the
    text ending early (a ``ParseError`` on its last line: no separator yet, no column clues).
    Any other error, on a line the head holds whole, is.

    >>> from nonolab.formats import faase
    >>> head = "rows\\n1 1\\n2\\ncolumns\\n2\\n"            # the other two columns are past the cut
    >>> parses(faase.parse, head), parses(faase.parse, head, whole=False)
    (False, True)
    >>> parses(faase.parse, "rows\\n1 x\\n2\\ncolumns\\n2\\n", whole=False)
    False
    """
    try:
        parse(text)
    except InvalidPuzzle:
        return not whole
    except ParseError as err:
        return not whole and err.line == eof_line(split_lines(text))
    except NonolabError:
        return False
    return True


def lines_of(clues: Sequence[Clue], sep: str, end: str = "") -> list[str]:
    return [(sep.join(map(str, c)) + end) if c else "0" for c in clues]
