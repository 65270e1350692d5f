"""The TAAI/TCGA tournament format (CGI-LAB): square puzzles, several per file.

Each puzzle is a ``$N`` header line, then S column clues (left to right) and S row
clues (top to bottom), numbers separated by tabs or spaces; an empty line or ``0``
is an empty line.  Blank lines after a puzzle's last clue (before the next header, or
at the end of the file) are spacing, but for the fewest that make the puzzle whole.  A
file with no header holds one puzzle (CGI-LAB's ``PuzzleCannotSolve.txt`` is such a file).
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
    """The puzzle of ``lines[start:end]``: S column clues, then S row clues.

    A blank line is an empty clue, so the blank lines that end the block (before the next
    header, or at the end of the file: an editor's, a concatenation's) may be its last clues
    or spacing.  The puzzle takes the fewest of them that make an even count whose column
    clues fill as many cells as its row clues (and that builds): the rest cannot be a puzzle.
    A block short of clues is still refused, naming its header's line."""
    clues = [parse_clue(lines[k], k + 1) for k in range(start, end)]
    filled = len(clues)   # the clue lines up to the last that is not blank
    while filled and is_blank(lines[start + filled - 1]):
        filled -= 1
    counts = [n for n in range(filled + filled % 2, len(clues) + 1, 2) if n]
    if not counts and not filled:
        raise ParseError(f"puzzle {name} has no clue lines" if name else "no clue lines",
                         line=header_line)
    if not counts:
        raise ParseError(f"{filled} clue lines, an odd number: a TAAI puzzle has S column clues "
                         "then S row clues", line=header_line)
    # Past the last clue every line is blank: columns fill prefix[S] cells, rows the rest.
    prefix = [0]
    for clue in clues[:filled]:
        prefix.append(prefix[-1] + sum(clue))
    total = prefix[-1]
    balanced = [n for n in counts if 2 * prefix[min(n // 2, filled)] == total]
    first_error: NonolabError | None = None
    for n in balanced or counts[:1]:
        size = n // 2
        where = list(range(start + 1, start + n + 1))
        try:
            return build(clues[size:n], clues[:size], ClueLines(rows=where[size:], columns=where[:size],
                                                                 size=header_line), name=name)
        except NonolabError as err:
            first_error = first_error or err
    assert first_error is not None
    raise first_error


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
