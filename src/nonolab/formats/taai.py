"""The TAAI/TCGA tournament format (CGI-LAB): square puzzles, several per file.

Each puzzle is a ``$N`` header line, then S column clues (left to right) and S row
clues (top to bottom), numbers separated by tabs or spaces; an empty line or ``0``
is an empty line.  A file with no header holds one puzzle (CGI-LAB's
``PuzzleCannotSolve.txt`` is such a file).
"""

from __future__ import annotations

import re
from typing import Sequence

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats import cwd, picture
from nonolab.formats._common import (ClueLines, CLUE_LINE, build, clue_text, each, every, first_content, is_blank,
                                     numbers_only, parse_clue, require_text, split_lines)
from nonolab.formats.limits import check_puzzles

_HEADER = re.compile(r"\$\s*([0-9]+)")


def sniff(text: str) -> bool:
    lines = split_lines(text)
    i = first_content(lines)
    if i < len(lines) and _HEADER.fullmatch(lines[i].strip()):
        return True
    # Headerless: tab-separated clue lines, an even number of them.
    body = lines[i:]
    while body and is_blank(body[-1]):
        body.pop()
    if not body or len(body) % 2 or "\t" not in text:
        return False
    if not all(CLUE_LINE.fullmatch(x) for x in body):
        return False
    head = body[0].split()
    if numbers_only(body[0], 2) and all(len(f) < 7 for f in head):
        # "W H" followed by exactly W + H clue lines is .nin, not TAAI.
        if 1 + int(head[0]) + int(head[1]) == len(body):
            return False
    # Shapes the later, more specific sniffers recognise are theirs.
    return not (cwd.sniff(text) or picture.sniff(text))


def parse(text: str) -> list[Puzzle]:
    return every(parse_each(text))


def parse_each(text: str) -> list[Puzzle | NonolabError]:
    """Every puzzle of the text, or its own error: the headers are the set's structure (text
    before the first, a header without its number: the file's error), the clues under each
    header one puzzle."""
    lines = split_lines(text)
    require_text(lines)
    headers = [i for i, x in enumerate(lines) if x.lstrip().startswith("$")]
    check_puzzles(len(headers), headers[-1] + 1 if headers else None)   # before any is built
    if not headers:
        start = first_content(lines)
        return [_puzzle(lines, start, len(lines), "", start + 1)]
    first = first_content(lines)
    if first < headers[0]:
        raise ParseError("text before the first '$' header", line=first + 1)
    names = []
    for h in headers:
        m = _HEADER.fullmatch(lines[h].strip())
        if not m:
            raise ParseError("bad puzzle header (expected '$' and a number)", line=h + 1)
        names.append("$" + m.group(1))
    ends = headers[1:] + [len(lines)]
    return each(lambda k: _puzzle(lines, headers[k] + 1, ends[k], names[k], headers[k] + 1), range(len(headers)))


def _puzzle(lines: Sequence[str], start: int, end: int, name: str, header_line: int) -> Puzzle:
    n = end - start
    # A blank line that makes the count odd is spacing before the next header.
    if n % 2 and n and is_blank(lines[end - 1]):
        n -= 1
    if n == 0:
        raise ParseError(f"puzzle {name} has no clue lines" if name else "no clue lines",
                         line=header_line)
    if n % 2:
        raise ParseError(f"{n} clue lines, an odd number: a TAAI puzzle has S column clues "
                         "then S row clues", line=header_line)
    size = n // 2
    clues = [parse_clue(lines[start + k], start + k + 1) for k in range(n)]
    where = list(range(start + 1, start + n + 1))
    return build(clues[size:], clues[:size], ClueLines(rows=where[size:], columns=where[:size], size=header_line),
                 name=name)


def write_all(puzzles: Sequence[Puzzle]) -> str:
    out = []
    for k, p in enumerate(puzzles, 1):
        if p.width != p.height:
            raise InvalidPuzzle(f"the TAAI format holds square puzzles only, not "
                                f"{p.width}x{p.height}", kind="size")
        out.append(f"${k}")
        out += [clue_text(c, "\t") for c in p.columns + p.rows]
    return "\n".join(out) + "\n"


def write(puzzle: Puzzle) -> str:
    return write_all([puzzle])
