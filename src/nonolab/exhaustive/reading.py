"""The puzzles of files, folders and streams, one at a time, each with where it came from.

What ``nonolab label`` reads.  Files (every format :func:`nonolab.formats.load_all`
reads) and folders (searched as ``batch`` searches them) are read whole, under the input
limits of one set.  Streams are read a puzzle at a time, so their length is bounded by
no limit of a set (``NONOLAB_MAX_PUZZLES``) and what is held is one puzzle's text, at
most ``NONOLAB_MAX_INPUT_BYTES``:

* JSON Lines: a ``.jsonl`` file, or ``-`` for standard input; one puzzle a line in
  nonolab's JSON format; its index is its line number;
* a TAAI set: a file whose first line of content is a ``$N`` header (the tournament
  sets; one puzzle a header); its index is its place in the file.

A puzzle that cannot be read is a :class:`~nonolab.errors.NonolabError` in its place
(its line, or its header's line, named), and reading goes on with the next; a file that
cannot be read at all is one error, index 1.

>>> import io
>>> one = '{"rows": [[1]], "columns": [[1]]}'
>>> [(i, type(p).__name__) for _, i, p in json_lines(io.BytesIO(f"{one}\\nnot json\\n".encode()), "s.jsonl")]
[(1, 'Puzzle'), (2, 'ParseError')]
"""

from __future__ import annotations

import sys
from typing import IO, Iterable, Iterator

from nonolab.core.puzzle import Puzzle
from nonolab.errors import BatchError, NonolabError, ParseError, TooLarge

__all__ = ["json_lines", "read_puzzles", "taai_set"]

Item = tuple[str, int, "Puzzle | NonolabError"]


def read_puzzles(paths: Iterable[str]) -> Iterator[Item]:
    """``(file, index, puzzle or error)`` for every puzzle of ``paths``, in order.

    Raises:
        BatchError: a path that does not exist or a folder without puzzles (bad usage,
            before anything of it is read).
    """
    from nonolab.batch import collect

    for path in paths:
        if path == "-":
            yield from json_lines(sys.stdin.buffer, "-")
        elif path.endswith(".jsonl"):
            try:
                stream = open(path, "rb")  # noqa: SIM115 — closed below, after the last line
            except OSError as err:
                raise BatchError(f"cannot read the file: {err.strerror}", path=path) from err
            with stream:
                yield from json_lines(stream, path)
        else:
            for file in collect([path]):
                yield from _file(file)


def _file(file: str) -> Iterator[Item]:
    from nonolab.formats import load_each

    if _is_taai_set(file):
        yield from taai_set(file)
        return
    try:
        puzzles = load_each(file)   # each puzzle of a set, or its own located error
    except NonolabError as err:
        yield file, 1, err.located(path=file)
        return
    for index, puzzle in enumerate(puzzles, 1):
        yield file, index, puzzle


def _limit() -> int:
    from nonolab.formats.limits import active

    return active().max_bytes or 2 ** 40


def _lines(stream: IO[bytes], limit: int) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line)`` of a binary stream; ``None`` for a line longer than ``limit`` bytes
    (skipped to its end without holding it)."""
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit:
            while line and not line.endswith(b"\n"):
                line = stream.readline(limit + 1)
            yield number, None
        else:
            yield number, line


def json_lines(stream: IO[bytes], name: str) -> Iterator[Item]:
    """``(name, line number, puzzle or error)`` for each non-blank line of a JSON Lines stream."""
    from nonolab.formats import loads

    limit = _limit()
    where = "stdin" if name == "-" else name
    for number, line in _lines(stream, limit):
        if line is None:
            yield name, number, TooLarge(f"{where} line {number}: longer than the input limit of {limit:,} bytes "
                                         f"(raise it with NONOLAB_MAX_INPUT_BYTES=N)")
            continue
        if not line.strip():
            continue
        try:
            yield name, number, loads(line.decode("utf-8"), "json")
        except UnicodeDecodeError:
            yield name, number, ParseError(f"{where} line {number}: not UTF-8 text")
        except NonolabError as err:   # its own line is 1 (the stream's line is said instead)
            yield name, number, ParseError(f"{where} line {number}: {err.message}")


def _is_taai_set(file: str) -> bool:
    """Whether the file's first line of content is a TAAI ``$N`` header."""
    from nonolab.formats.taai import _HEADER

    try:
        with open(file, "rb") as stream:
            for _, line in _lines(stream, 4096):
                if line is None:
                    return False
                text = line.strip()
                if text:
                    return _HEADER.fullmatch(text.decode("utf-8", "replace")) is not None
    except OSError:
        return False
    return False


def taai_set(file: str) -> Iterator[Item]:
    """``(file, place, puzzle or error)`` for each ``$N`` puzzle of a TAAI set, read one at a time:
    each header's text is read by :func:`nonolab.formats.loads_each`, as :func:`~nonolab.formats.load_each`
    reads a set held whole, and its error says the same (``file:line: puzzle N: ...``)."""
    from nonolab.formats import loads_each

    limit = _limit()
    try:
        stream = open(file, "rb")  # noqa: SIM115 — closed below
    except OSError as err:
        yield file, 1, ParseError(f"cannot read the file: {err.strerror}", path=file)
        return
    with stream:
        text: list[bytes] = []
        place, start, size, too_long = 0, 0, 0, False
        for number, line in _lines(stream, limit):
            if line is not None and line.lstrip().startswith(b"$"):
                if place:
                    yield file, place, _taai_puzzle(file, place, start, text, too_long, loads_each)
                place, start, text, size, too_long = place + 1, number, [], 0, False
            size += len(line) if line is not None else limit + 1
            if line is None or size > limit:
                too_long, text = True, []
            elif not too_long:
                text.append(line)
        if place:
            yield file, place, _taai_puzzle(file, place, start, text, too_long, loads_each)


def _taai_puzzle(file: str, place: int, start: int, text: list[bytes], too_long: bool,
                 loads_each) -> Puzzle | NonolabError:
    if too_long:
        found: Puzzle | NonolabError = TooLarge(f"the puzzle is longer than the input limit of {_limit():,} bytes "
                                                f"(raise it with NONOLAB_MAX_INPUT_BYTES=N)", line=1)
    else:
        try:
            found = loads_each(b"".join(text).decode("utf-8"), "taai")[0]
        except UnicodeDecodeError:
            found = ParseError("not UTF-8 text", line=1)
        except NonolabError as err:   # its header is broken: a set held whole would be refused for it
            found = err
    if isinstance(found, NonolabError):
        if found.line is not None:
            found.line += start - 1   # its line in the file, not in the puzzle's text
        found.path = file
        found.within(f"puzzle {place}")
    return found
