"""Helpers shared by the format modules: lines, clue lines, and error locations.

Every reader reports problems as :class:`ParseError` or :class:`InvalidPuzzle` with
the 1-based line of the text they concern, so that a message can say
``file:line: what``.  The helpers here keep that bookkeeping in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence, TypeVar

from nonolab.core.grid import Solution
from nonolab.core.palette import Palette
from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats.limits import check_cells

# ASCII only: ``\d`` would accept other scripts' digits, which int() also reads.
DIGITS = re.compile(r"[0-9]+")
_SEPARATORS = re.compile(r"[\s,]+")
_COLOURED = re.compile(r"[0-9]+[^\s,0-9]+")
# A clue line of plain numbers of at most _MAX_DIGITS digits (after leading zeros), no
# zero block: matched whole at C speed, the usual case (a 4000x4000 puzzle has 8000
# lines and 400,000 numbers).  Anything else goes through the checks token by token.
_PLAIN_CLUE = re.compile(r"0*[1-9][0-9]{0,8}(?:[\s,]+0*[1-9][0-9]{0,8})*")
# Guards int() (which refuses more than 4300 digits) and keeps sizes sane.
_MAX_DIGITS = 9


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, numbered like an editor does (index 0 is line 1).

    Any of ``\\n``, ``\\r\\n`` and ``\\r`` ends a line, as with Python's universal
    newlines; a final line break does not start another line.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def eof_line(lines: Sequence[str]) -> int:
    """The line to blame when the text ends too early: its last line."""
    return max(len(lines), 1)


def is_blank(line: str) -> bool:
    return not line.strip()


_T = TypeVar("_T")


def each(make: Callable[[_T], Puzzle], parts: Sequence[_T]) -> "list[Puzzle | NonolabError]":
    """``make(part)`` for every part of a set, or the error that part alone raised: a set's
    reader (``parse_each``) reads its structure whole and each puzzle on its own with this.

    >>> [type(x).__name__ for x in each(lambda n: Puzzle([(n,)], [(1,)]), [1, 2])]
    ['Puzzle', 'InvalidPuzzle']
    """
    out: list[Puzzle | NonolabError] = []
    for part in parts:
        try:
            out.append(make(part))
        except NonolabError as err:
            out.append(err)
    return out


def every(entries: "Sequence[Puzzle | NonolabError]") -> list[Puzzle]:
    """The puzzles of a set read by ``parse_each``, or the first puzzle's error (what ``parse``
    gives: a set with a bad puzzle is refused whole there, and read puzzle by puzzle with
    :func:`nonolab.formats.load_each`)."""
    for entry in entries:
        if isinstance(entry, NonolabError):
            raise entry
    return list(entries)   # type: ignore[arg-type]  # none is an error


def require_text(lines: Sequence[str]) -> None:
    if all(is_blank(x) for x in lines):
        raise ParseError("the file is empty", line=1)


def one_line(text: str) -> str:
    """``text`` as one line of printable characters, for a comment a writer puts in its file:
    each run of white space or of characters no text format takes (controls, NUL) one space,
    none at the ends.  A name with a line break or a control character made the comment
    end early, or the file unreadable (TOML refuses a control character in a comment).

    >>> one_line(" cat\\n and\\x00dog\\t ")
    'cat and dog'
    """
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def shown(text: str, limit: int = 24) -> str:
    """``text`` quoted for a one-line message: escapes visible, long text cut."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def to_int(token: str, line: int, what: str = "number") -> int:
    """A non-negative decimal integer, or a ParseError on ``line``."""
    token = token.strip()
    if not DIGITS.fullmatch(token):
        raise ParseError(f"{what} {shown(token)} is not a non-negative integer", line=line)
    if len(token.lstrip("0")) > _MAX_DIGITS:
        raise ParseError(f"{what} {shown(token)} is too large", line=line)
    return int(token)


def number_problem(err: ValueError) -> str:
    """What a JSON or TOML library's bare ValueError means, in the reader's words.

    Both libraries leave int()'s digit limit (4300) to raise its own ValueError, whose
    text suggests changing interpreter settings: useless to someone with a bad file.
    """
    if "digits" in str(err):
        return "a number has thousands of digits (at most 9 are meaningful here)"
    return str(err).splitlines()[0] if str(err) else "a value cannot be read"


def parse_clue(text: str, line: int) -> Clue:
    """One clue line: numbers separated by spaces, tabs and/or commas.

    A blank line or a lone ``0`` is an empty line; a ``0`` among other numbers
    is an error, and so is a number with a colour suffix such as ``3b`` (the colour
    readers parse their clue lines themselves).

    >>> parse_clue("2, 1 3", 1), parse_clue("0", 2), parse_clue("  ", 3)
    ((2, 1, 3), (), ())
    """
    stripped = text.strip()
    if _PLAIN_CLUE.fullmatch(stripped):
        return tuple(map(int, _SEPARATORS.split(stripped)))
    tokens = [t for t in _SEPARATORS.split(stripped) if t]
    numbers = []
    for token in tokens:
        if not DIGITS.fullmatch(token):
            if _COLOURED.fullmatch(token):
                raise ParseError(
                    f"clue {shown(token)} has a colour suffix, but here clues are plain numbers "
                    "(colour files declare their colours first)", line=line)
            raise ParseError(f"clue number {shown(token)} is not a non-negative integer",
                             line=line)
        numbers.append(to_int(token, line, "clue number"))
    if numbers == [0]:
        return ()
    if 0 in numbers:
        raise ParseError(
            f"block 0 inside the clue {shown(text.strip())} (a lone 0 means an empty line)",
            line=line)
    return tuple(numbers)


def read_clue_block(lines: Sequence[str], start: int, count: int, kind: str,
                    stop: Callable[[str], bool] | None = None,
                    end: int | None = None) -> tuple[list[Clue], list[int]]:
    """Read exactly ``count`` clue lines from ``lines[start:end]``.

    ``stop`` recognises lines that cannot be clues (a keyword, a separator): meeting
    one early means the block is short.  Returns the clues and their line numbers.
    """
    end = len(lines) if end is None else end
    clues: list[Clue] = []
    where: list[int] = []
    for k in range(count):
        i = start + k
        if i >= end:
            raise ParseError(f"expected {count} {kind} clue lines, but the file ends after {k}",
                             line=max(end, 1))
        if stop is not None and stop(lines[i]):
            raise ParseError(f"expected {count} {kind} clue lines, found only {k} before this line",
                             line=i + 1)
        clues.append(parse_clue(lines[i], i + 1))
        where.append(i + 1)
    return clues, where


def check_trailing(lines: Sequence[str], start: int, what: str) -> None:
    """Only blank lines may follow the last clue of a line-counted format."""
    for i in range(start, len(lines)):
        if not is_blank(lines[i]):
            raise ParseError(f"unexpected text after the {what}: {shown(lines[i].strip())}",
                             line=i + 1)


def clue_text(clue: Clue, sep: str = ",", empty: str = "0") -> str:
    return sep.join(map(str, clue)) if clue else empty


def make_goal(cells: Sequence[Sequence[int]], line: int) -> Solution:
    """A Solution from rows of 0/1, or a ParseError on ``line`` if it is not a rectangle."""
    if not cells or not cells[0]:
        raise ParseError("the goal picture is empty", line=line)
    if any(len(r) != len(cells[0]) for r in cells):
        raise ParseError("the goal picture's rows have different lengths", line=line)
    return Solution(tuple(tuple(r) for r in cells))


@dataclass(frozen=True)
class ClueLines:
    """Where a reader found a puzzle's clues: the file line of each row and column clue,
    of the clue block's header (``size``: problems of the whole puzzle go there) and of
    the goal picture, if any."""

    rows: Sequence[int]
    columns: Sequence[int]
    size: int
    goal: int | None = None


def build(rows: Sequence[Clue], columns: Sequence[Clue], lines: ClueLines, *, name: str = "",
          metadata: Mapping[str, str] | None = None, goal: Solution | None = None,
          palette: Palette | None = None, row_colours: Sequence[Sequence[int]] | None = None,
          column_colours: Sequence[Sequence[int]] | None = None) -> Puzzle:
    """Build a Puzzle; a validation error is pinned to the source line it concerns.

    Puzzle validation knows only "row 3" or "column 2"; the reader knows on which
    line of the file that clue was (``lines``).  Problems of the whole puzzle (empty
    size, totals that differ) go to ``lines.size``, the header of the clue block.  A
    colour puzzle passes its palette and the colour of each block (see
    :class:`~nonolab.core.puzzle.Puzzle`).

    >>> build([(1,)], [(1,)], ClueLines(rows=[2], columns=[3], size=1)).width
    1
    """
    check_cells(len(columns), len(rows), lines.size)
    try:
        if palette is not None:
            return Puzzle(rows=tuple(rows), columns=tuple(columns), name=name, metadata=dict(metadata or {}),
                          goal=goal, palette=palette,
                          row_colours=None if row_colours is None else tuple(map(tuple, row_colours)),
                          column_colours=None if column_colours is None else tuple(map(tuple, column_colours)))
        return Puzzle(rows=tuple(rows), columns=tuple(columns), name=name,
                      metadata=dict(metadata or {}), goal=goal)
    except InvalidPuzzle as err:
        line = lines.size
        if err.kind == "row" and err.index is not None and err.index < len(lines.rows):
            line = lines.rows[err.index]
        elif err.kind == "column" and err.index is not None and err.index < len(lines.columns):
            line = lines.columns[err.index]
        elif err.kind == "goal" and lines.goal is not None:
            line = lines.goal
        raise err.located(line=line)


def with_givens(puzzle: Puzzle, givens: Mapping[tuple[int, int], int], line: int | None) -> Puzzle:
    """``puzzle`` with the givens a reader found (``{(row, column): value}``, 0-based),
    a validation error pinned to ``line``, where the givens are in the file."""
    if not givens:
        return puzzle
    try:
        return puzzle.with_(givens=givens)
    except InvalidPuzzle as err:
        raise err.located(line=line)


def need_goal(puzzle: Puzzle, fmt: str) -> Solution:
    """The goal of a puzzle written as a picture; without one it cannot be written."""
    if puzzle.goal is None:
        raise InvalidPuzzle(f"the {fmt} format needs a goal (solve the puzzle first)", kind="goal")
    return puzzle.goal


CLUE_LINE = re.compile(r"[0-9\s,]*")


def numbers_only(line: str, count: int) -> bool:
    """The line holds exactly ``count`` integers separated by whitespace."""
    fields = line.split()
    return len(fields) == count and all(DIGITS.fullmatch(f) for f in fields)


def first_content(lines: Sequence[str], skip: Callable[[str], bool] = is_blank) -> int:
    """Index of the first line that ``skip`` does not pass over (len(lines) if none)."""
    i = 0
    while i < len(lines) and skip(lines[i]):
        i += 1
    return i


def read_header(lines: Sequence[str], i: int, names: Sequence[str]) -> list[int]:
    """Line ``i`` holds one integer per name (e.g. ``("width", "height")``)."""
    if i >= len(lines):
        raise ParseError(f"missing the {' and '.join(names)} line", line=eof_line(lines))
    fields = lines[i].split()
    if len(fields) != len(names):
        raise ParseError(f"expected the {' '.join(n.upper() for n in names)} line, "
                         f"found {shown(lines[i].strip())}", line=i + 1)
    return [to_int(f, i + 1, n) for f, n in zip(fields, names)]
