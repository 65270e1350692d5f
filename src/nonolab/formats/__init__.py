"""Reading and writing puzzle files.

Each format is a module with pure functions, ``parse(text) -> list[Puzzle]`` and
``write(puzzle) -> str``; this package adds the registry, content sniffing and the
file wrappers.  Text and paths have separate entry points (:func:`loads` takes
text, :func:`load` a path), so a string is never guessed to be a path.

Every error is a :class:`~nonolab.errors.NonolabError` whose ``str()`` is one line,
``path:line: message``: :class:`~nonolab.errors.ParseError` (the text is not a
puzzle in that format), :class:`~nonolab.errors.InvalidPuzzle` (it reads, but the
clues are impossible) or :class:`~nonolab.errors.UnknownFormat`.

>>> p = loads("2x2:2/1/2/1")
>>> p.rows, p.columns
(((2,), (1,)), ((2,), (1,)))
>>> dumps(p, "mk")
'2 2\\n2\\n1\\n#\\n2\\n1\\n'
"""

from __future__ import annotations

import os
from typing import Iterable, Sequence

from nonolab.core.puzzle import Puzzle, require_many, require_puzzle
from nonolab.errors import InvalidArgument, InvalidPuzzle, NonolabError, ParseError, UnknownFormat
from nonolab.formats._common import every
from nonolab.formats._files import Staged, decode, read_bytes, refuse_read_only, write_atomically, write_together
from nonolab.formats.limits import InputLimits, applied
from nonolab.formats.registry import (_BY_NAME, _REGISTRY, PNG_SIGNATURE, Format, _get, colour_formats, holds_colour,
                                      holds_givens, givens_formats, holds_several, is_binary, names,
                                      reads_concatenated, refuse_several, suffix_of, suffixes)

__all__ = ["InputLimits", "names", "suffixes", "suffix_of", "holds_colour", "colour_formats", "holds_givens",
           "holds_several", "reads_concatenated", "givens_formats", "refuse_several", "is_binary", "loads", "loads_all", "loads_each", "load", "load_all", "load_each", "dumps", "dumps_all", "dump_bytes", "load_bytes_each",
           "dump", "dump_all", "format_for_path", "format_to_write", "load_bytes_all", "sniff", "detect_format", "write_atomically", "write_together", "Staged",
           "refuse_read_only"]


def _suffix(path: str | os.PathLike) -> str:
    """The file suffix of ``path`` as ``pathlib`` says it (the last dot of its name, not
    a leading or trailing one), without importing pathlib: reading a file does not need it.

    >>> _suffix("a/cat.non"), _suffix("x.tar.gz"), _suffix(".hidden"), _suffix("trailing.")
    ('.non', '.gz', '', '')
    """
    name = os.path.basename(os.fspath(path).rstrip("/"))
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _suffix_formats(path: str | os.PathLike) -> list[str]:
    suffix = _suffix(path).lower()
    return [f.name for f in _REGISTRY if suffix and suffix in f.suffixes]


def format_for_path(path: str | os.PathLike) -> str | None:
    """The format a file suffix names, or None if it names none or several (``.txt``).

    >>> format_for_path("cat.non"), format_for_path("dancer.XML"), format_for_path("x.txt")
    ('non', 'webpbn', None)
    """
    found = _suffix_formats(path)
    return found[0] if len(found) == 1 else None


# Sniffers see this many characters of a text at most: a format shows itself in its first
# lines, and a detector that splits or scans the whole text (most do) would otherwise make a
# large file of garbage cost seconds per format before its one-line error.  Every puzzle file
# of the project and its corpus is far smaller, so each is recognised exactly as from its
# whole text; a larger file is recognised from its first MiB, its suffix breaking ties.
SNIFF_CHARS = 1 << 20


def _sniffed_head(text: str) -> str:
    """The part of ``text`` sniffers look at: all of it up to :data:`SNIFF_CHARS`, else its
    first ``SNIFF_CHARS`` characters cut after their last line break (no line is cut short,
    unless the first line alone is longer).

    >>> _sniffed_head("5x5:1/2\\n") == "5x5:1/2\\n"
    True
    >>> head = _sniffed_head("1 1\\n" * SNIFF_CHARS)
    >>> len(head) <= SNIFF_CHARS and head.endswith("1 1\\n")
    True
    """
    if len(text) <= SNIFF_CHARS:
        return text
    head = text[:SNIFF_CHARS]
    end = max(head.rfind("\n"), head.rfind("\r"))
    return head[:end + 1] if end >= 0 else head


def _first_sniffing(text: str, among: Iterable[Format] = _REGISTRY) -> Format | None:
    # Lazily, in sniffing order: some sniffers read the whole head (the headerless
    # formats ask their reader), so none runs once the answer is known.  Those are told
    # when the head is cut (`whole`): an error the cut caused (the column clues cut short)
    # is then no evidence against them, and a later format's weaker guess (non's for a
    # faase file's `rows` line) does not take the file.
    head = _sniffed_head(text)
    whole = len(head) == len(text)
    return next((f for f in among if f.sniff(head, whole)), None)


def _unmarked(text: str) -> str:
    """``text`` without a leading byte order mark (U+FEFF, which Windows editors put before
    UTF-8): it is no part of any format, and a reader that meets it (tomllib, a PBM's ``P1``,
    an LP file's sniffer) refuses the file.  Lines keep their numbers.

    >>> _unmarked("\\ufeffP1\\n1 1\\n1\\n")
    'P1\\n1 1\\n1\\n'
    """
    return text[1:] if text.startswith("\ufeff") else text


def sniff(text: str) -> str:
    """The format of ``text``, recognised by its content.

    Raises:
        UnknownFormat: no format recognises the text.

    >>> sniff("<puzzleset/>"), sniff("5x5:1/2/3/4/5/1/2/3/4/5"), sniff("2 2\\n1\\n1\\n#\\n1\\n1\\n")
    ('webpbn', 'tatham', 'mk')
    """
    found = _first_sniffing(_unmarked(text))
    if found is None:
        raise UnknownFormat("cannot recognise the puzzle format from the content; "
                            f"name it with {{arg}} (one of: {', '.join(names())})", argument="load:fmt")
    return found.name


def _choose(text: str, suffix_names: list[str]) -> Format:
    """Content first, the suffix to break ties.

    A known suffix beats the weak line-shape heuristics (a broken ``.mk`` file
    then gets an ``.mk`` error, not a ``.nin`` one), but not a strong signature.
    """
    if not text or text.isspace():   # (as `not text.strip()`, without copying a large text)
        raise ParseError("the file is empty", line=1)
    named = _first_sniffing(text, (f for f in _REGISTRY if f.name in suffix_names))
    if named is not None:
        return named
    found = _first_sniffing(text)
    if found is not None and (found.strong or not suffix_names):
        return found
    if len(suffix_names) == 1:
        return _BY_NAME[suffix_names[0]]
    return _BY_NAME[sniff(text)]


def _entries(f: Format, text: str) -> list[Puzzle | NonolabError]:
    """Every puzzle of ``text`` in format ``f``, or its own error, which names its place in a set."""
    entries = f.parse_each(text)
    if len(entries) > 1:
        for k, entry in enumerate(entries, 1):
            if isinstance(entry, NonolabError):
                entry.within(f"puzzle {k}")
    return entries


def _parse(text: str, fmt: str | None, caller: str, limits: InputLimits | None) -> list[Puzzle | NonolabError]:
    if not isinstance(text, str):
        raise TypeError(f"{caller}: expected the puzzle text as str, not {type(text).__name__} "
                        "(use load() to read a file)")
    text = _unmarked(text)
    f = _get(fmt, caller) if fmt is not None else _choose(text, [])
    with applied(limits):
        return _entries(f, text)


def _first(entries: Sequence[Puzzle | NonolabError]) -> Puzzle:
    if isinstance(entries[0], NonolabError):
        raise entries[0]
    return entries[0]


def loads_each(text: str, fmt: str | None = None, limits: InputLimits | None = None) -> list[Puzzle | NonolabError]:
    """Every puzzle in ``text``, each read on its own: a puzzle, or the error that puzzle alone
    raised (its line and ``puzzle N`` in its message); see :func:`load_each`.

    >>> [type(x).__name__ for x in loads_each("$1\\n1\\n1\\n$2\\n2\\n1\\n$3\\n0\\n0\\n")]
    ['Puzzle', 'InvalidPuzzle', 'Puzzle']
    >>> str(loads_each("$1\\n1\\n1\\n$2\\n2\\n1\\n$3\\n0\\n0\\n")[1])
    'line 5: puzzle 2: column 1: clue 2 needs 2 cells but the column has 1'
    """
    return _parse(text, fmt, "loads_each", limits)


def loads_all(text: str, fmt: str | None = None, limits: InputLimits | None = None) -> list[Puzzle]:
    """Every puzzle in ``text`` (several for webpbn puzzle sets, TAAI, JSON lists); the first
    bad puzzle's error if any is bad (:func:`loads_each` reads the others).

    >>> [p.name for p in loads_all("$1\\n1\\n1\\n$2\\n0\\n0\\n")]
    ['$1', '$2']
    """
    return every(_parse(text, fmt, "loads_all", limits))


def loads(text: str, fmt: str | None = None, limits: InputLimits | None = None) -> Puzzle:
    """The (first) puzzle in ``text``; ``fmt`` names the format, else it is sniffed.

    ``limits`` bounds the size accepted (see :mod:`nonolab.formats.limits`).  In a set, the
    first puzzle is read whatever the others are (the set's structure must be whole).

    Raises:
        ParseError: the text is not a puzzle in that format.
        InvalidPuzzle: the clues are impossible (the line says which clue).
        UnknownFormat: ``fmt`` is unknown, or the content is not recognised.

    >>> from nonolab import loads
    >>> loads("#.\\n##\\n").rows
    ((1,), (2,))
    >>> loads("width 1\\nheight 1\\nrows\\n2\\ncolumns\\n1\\n", "non")
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidPuzzle: line 4: row 1: clue 2 needs 2 cells but the row has 1
    """
    return _first(_parse(text, fmt, "loads", limits))


def _text_of(data: bytes, chosen: Format | None) -> str:
    if data[:2] == b"P4" and (chosen is None or chosen.name == "pbm"):
        # P4 pixels are bytes: latin-1 maps each byte to one character.
        return data.decode("latin-1")
    if data.startswith(PNG_SIGNATURE) and (chosen is None or chosen.binary):
        return data.decode("latin-1")
    return _unmarked(decode(data))


def _read(path: str | os.PathLike, fmt: str | None, limits: InputLimits | None) -> list[Puzzle | NonolabError]:
    with applied(limits) as resolved:
        return _parse_bytes(read_bytes(path, resolved.max_bytes), str(path), fmt)


def _parse_bytes(data: bytes, name: str, fmt: str | None) -> list[Puzzle | NonolabError]:
    try:
        chosen = _get(fmt, "load") if fmt is not None else None
        text = _text_of(data, chosen)
        if chosen is None:
            chosen = _choose(text, _suffix_formats(name))
        entries = _entries(chosen, text)
    except NonolabError as err:
        raise err.located(path=name)
    return [entry.located(path=name) if isinstance(entry, NonolabError) else entry for entry in entries]


def load_bytes_each(data: bytes, name: str, fmt: str | None = None,
                    limits: InputLimits | None = None) -> list[Puzzle | NonolabError]:
    """Every puzzle in ``data``, the bytes of a file called ``name`` that did not come from a
    path, each read on its own: a puzzle, or its error (see :func:`load_each`).

    >>> [type(x).__name__ for x in load_bytes_each(b"$1\\n1\\n1\\n$2\\n2\\n1\\n", "set.taai")]
    ['Puzzle', 'InvalidPuzzle']
    """
    from nonolab.formats.limits import check_bytes
    with applied(limits) as resolved:
        try:
            check_bytes(len(data), resolved.max_bytes)
        except NonolabError as err:
            raise err.located(path=name)
        return _parse_bytes(data, name, fmt)


def load_bytes_all(data: bytes, name: str, fmt: str | None = None,
                   limits: InputLimits | None = None) -> list[Puzzle]:
    """Every puzzle in ``data``, the bytes of a file called ``name`` that did not come
    from a path (an upload, a drop): read exactly as :func:`load_all` reads a file of
    that name, its errors named after it.

    >>> [p.rows for p in load_bytes_all(b"#.\\n##\\n", "cat.grid")]
    [((1,), (2,))]
    >>> load_bytes_all(b"", "cat.non")
    Traceback (most recent call last):
    ...
    nonolab.errors.ParseError: cat.non:1: the file is empty
    """
    return every(load_bytes_each(data, name, fmt, limits))


def detect_format(path: str | os.PathLike, limits: InputLimits | None = None) -> str:
    """The format :func:`load` reads the file at ``path`` as, without parsing it.

    Raises:
        ParseError: the file cannot be read, is empty or is not text.
        UnknownFormat: neither the content nor the suffix tells the format.
    """
    data = read_bytes(path, (limits or InputLimits()).resolved().max_bytes)
    try:
        return _choose(_text_of(data, None), _suffix_formats(path)).name
    except NonolabError as err:
        raise err.located(path=str(path))


def load_each(path: str | os.PathLike, fmt: str | None = None,
              limits: InputLimits | None = None) -> list[Puzzle | NonolabError]:
    """Every puzzle in the file at ``path``, each read on its own: a puzzle, or the error that
    puzzle alone raised, one line naming the file, the line and the puzzle (``set.txt:53:
    puzzle 2: column 1: clue 30 needs 30 cells but the column has 25``); its place in the
    list is its 1-based index less one.  So one bad puzzle of a set (a TAAI file, a webpbn
    ``<puzzleset>``, a JSON list or JSON Lines, concatenated ``.non`` files) leaves the others
    readable.  What holds the set together is read whole: a file that cannot be read, or
    whose structure is broken (XML or JSON that is not well formed, a TAAI header without its
    number), raises, as :func:`load` does.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "set.taai")
    >>> with open(path, "w") as f:
    ...     _ = f.write("$1\\n1\\n1\\n$2\\n2\\n1\\n")
    >>> [type(x).__name__ for x in load_each(path)]
    ['Puzzle', 'InvalidPuzzle']
    >>> str(load_each(path)[1]) == f"{path}:5: puzzle 2: column 1: clue 2 needs 2 cells but the column has 1"
    True
    """
    return _read(path, fmt, limits)


def load_all(path: str | os.PathLike, fmt: str | None = None, limits: InputLimits | None = None) -> list[Puzzle]:
    """Every puzzle in the file at ``path``; see :func:`load`.  A set with a bad puzzle raises
    that puzzle's error (:func:`load_each` reads the others)."""
    return every(_read(path, fmt, limits))


def load(path: str | os.PathLike, fmt: str | None = None, limits: InputLimits | None = None) -> Puzzle:
    """The (first) puzzle in the file at ``path``.

    The format is ``fmt`` if given, else recognised by content with the suffix
    breaking ties: an unmistakable signature (XML, JSON, PBM magic, Tatham game
    ID) decides; otherwise a suffix naming one format wins over the line-shape
    heuristics (``.nin`` has no signature at all), and the heuristics decide for
    other or ambiguous suffixes (``.txt``).  Every error carries ``path``; a file
    that cannot be read raises ParseError.  ``"-"`` is standard input.  In a set,
    the first puzzle is read whatever the others are (:func:`load_each` reads each).

    ``limits`` bounds the file bytes and grid cells accepted (default: 64 MiB and
    100,000,000 cells, or the environment's ``NONOLAB_MAX_INPUT_BYTES`` and
    ``NONOLAB_MAX_CELLS``); beyond them TooLarge is raised before the file is read
    or the grid built (see :mod:`nonolab.formats.limits`).

    >>> from nonolab import load
    >>> load("/nonexistent/cat.non")
    Traceback (most recent call last):
    ...
    nonolab.errors.ParseError: /nonexistent/cat.non: cannot read the file: No such file or directory
    """
    return _first(_read(path, fmt, limits))


def dumps(puzzle: Puzzle, fmt: str) -> str:
    """The text of ``puzzle`` in format ``fmt``.

    Raises:
        InvalidPuzzle: a colour puzzle and a format that holds black and white only, or
            a puzzle with givens and a format that cannot hold them.

    >>> from nonolab import dumps, loads
    >>> dumps(loads("#.\\n##\\n"), "tatham")
    '2x2:2/1/1/2\\n'
    """
    require_puzzle(puzzle, "dumps")   # (not an AttributeError from inside a writer)
    f = _get(fmt, "dumps")
    _refuse_colour(f, [puzzle])
    _refuse_givens(f, [puzzle])
    return f.write(puzzle)


def dump_bytes(puzzle: Puzzle, fmt: str) -> bytes:
    """The file content of ``puzzle`` in format ``fmt``, as bytes: a text format's text
    in UTF-8, a binary format's own bytes (PNG), exactly what :func:`dump` writes.

    >>> dump_bytes(loads("#.\\n##\\n"), "png")[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    text = dumps(puzzle, fmt)
    return text.encode("latin-1") if _get(fmt, "dump_bytes").binary else text.encode("utf-8")


def _holding(puzzles: Sequence[Puzzle]) -> str:
    """The formats that hold all these puzzles have (colour, givens): the ones a refusal offers."""
    colour, givens = any(p.is_colour for p in puzzles), any(p.givens for p in puzzles)
    return ", ".join(g.name for g in _REGISTRY if (g.colour or not colour) and (g.givens or not givens))


def _refuse_colour(f: Format, puzzles: Sequence[Puzzle]) -> None:
    if not f.colour and any(p.is_colour for p in puzzles):
        raise InvalidPuzzle(f"the {f.name!r} format holds black-and-white puzzles only; colour puzzles can be "
                            f"written in: {_holding(puzzles)}", kind="palette")


def _refuse_givens(f: Format, puzzles: Sequence[Puzzle]) -> None:
    with_givens = [p for p in puzzles if p.givens]
    if not f.givens and with_givens:
        n = len(with_givens[0].givens)
        raise InvalidPuzzle(f"the {f.name!r} format cannot hold givens, and the puzzle has {n} "
                            f"(write {_holding(puzzles)})", kind="givens")


def dumps_all(puzzles: Iterable[Puzzle], fmt: str) -> str:
    """The text of several puzzles, for the formats that hold several.

    Raises:
        InvalidArgument (a ValueError): no puzzles, or several for a format that holds one.

    >>> print(dumps_all([loads("1x1:1/1"), loads("1x1:/")], "taai"), end="")
    $1
    1
    1
    $2
    0
    0
    """
    require_many(puzzles, "dumps_all", "puzzles")
    puzzles = [require_puzzle(p, "dumps_all") for p in puzzles]
    f = _get(fmt, "dumps_all")
    if not puzzles:
        raise InvalidArgument("no puzzles to write")
    _refuse_colour(f, puzzles)
    _refuse_givens(f, puzzles)
    if f.several:
        return f.write_all(puzzles)
    refuse_several(f.name, len(puzzles))
    return f.write(puzzles[0])


def format_to_write(path: str | os.PathLike, fmt: str | None = None) -> str:
    """The format :func:`dump` writes ``path`` in: ``fmt``, else the one its suffix names
    (a command asks before any work, not at the write after it).

    >>> format_to_write("out.non"), format_to_write("out.txt", "tatham")
    ('non', 'tatham')

    Raises:
        UnknownFormat: no ``fmt`` and the suffix names no single format.
    """
    if fmt is not None:
        return fmt
    found = format_for_path(path)
    if found is None:
        raise UnknownFormat(f"cannot tell the format from the suffix {_suffix(path)!r}; "
                            f"name it with {{arg}} (one of: {', '.join(names())})",
                            path=str(path), argument="dump:fmt")
    return found


def dump(puzzle: Puzzle, path: str | os.PathLike, fmt: str | None = None) -> None:
    """Write ``puzzle`` to ``path`` atomically, in ``fmt`` or the format of the suffix.

    The text is produced before the file is touched, and written to a temporary
    file that replaces ``path`` only once complete.

    Raises:
        UnknownFormat: no ``fmt`` and the suffix names no single format.
    """
    require_puzzle(puzzle, "dump")
    try:
        data = dump_bytes(puzzle, format_to_write(path, fmt))
    except NonolabError as err:
        raise err.located(path=str(path))
    write_atomically(path, data)


def dump_all(puzzles: Iterable[Puzzle], path: str | os.PathLike, fmt: str | None = None) -> None:
    """Write several puzzles to ``path`` atomically; see :func:`dumps_all`."""
    try:
        text = dumps_all(puzzles, format_to_write(path, fmt))
    except NonolabError as err:
        raise err.located(path=str(path))
    write_atomically(path, text)
