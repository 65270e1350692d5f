"""The registry of formats: each format's name, module, suffixes and what it holds.

Kept apart from the reading and writing entry points (:mod:`nonolab.formats`), which
re-export the public queries here.

>>> suffix_of("webpbn"), holds_colour("png"), holds_givens("mk")
('.xml', True, False)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Sequence

from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument, NonolabError, UnknownFormat

__all__ = ["Format", "names", "suffixes", "suffix_of", "holds_colour", "colour_formats", "holds_givens",
           "holds_several", "reads_concatenated",
           "givens_formats", "refuse_several", "is_binary"]


@dataclass(frozen=True)
class Format:
    """One registered format, read and written by the module ``nonolab.formats.<module>``.

    The module is imported when the format is first used, so that reading a ``.non``
    file imports the ``non`` reader alone (a suffix that names one format is sniffed by
    that format first), not the other twenty.  ``strong`` marks content signatures that
    cannot be mistaken (``<``, ``{``, ``P1``, ``WxH:``): they win over a file suffix,
    while the weaker line-shape heuristics only decide when the suffix does not.
    """

    name: str
    module: str
    suffixes: tuple[str, ...]
    several: bool = False   # it writes several puzzles to one file (its module's write_all)
    strong: bool = False
    binary: bool = False    # its text is bytes as latin-1 characters (PNG)
    colour: bool = False    # it holds colour puzzles (the others are refused them on writing)
    givens: bool = False    # it holds a puzzle's givens (the others are refused such puzzles on writing)
    concatenated: bool = False   # files one after another read back as every puzzle (`cat a b`): a
    #                              reading property; a format that holds one puzzle still writes one
    reads_all: bool = False   # its sniffer reads every line (a headerless format, its clues' fit):
    #                           it is told whether it has the whole text or a head cut at SNIFF_CHARS

    def code(self) -> ModuleType:
        """The module that reads and writes the format (imported on first use)."""
        return importlib.import_module(f"nonolab.formats.{self.module}")

    def parse(self, text: str) -> list[Puzzle]:
        return self.code().parse(text)

    def parse_each(self, text: str) -> "list[Puzzle | NonolabError]":
        """Every puzzle of ``text`` or its own error, for a format that holds several (its module's
        ``parse_each``); a format of one puzzle a file gives its one puzzle (its error is raised)."""
        code = self.code()
        return code.parse_each(text) if hasattr(code, "parse_each") else code.parse(text)

    def write(self, puzzle: Puzzle) -> str:
        return self.code().write(puzzle)

    def write_all(self, puzzles: Sequence[Puzzle]) -> str:
        return self.code().write_all(puzzles)

    def sniff(self, text: str, whole: bool = True) -> bool:
        """Whether ``text`` is in this format; ``whole`` false when ``text`` is a file's head (cut
        after a line), which a sniffer that reads every line (``reads_all``) judges by what a head
        can show: the rest of the file could complete it."""
        code = self.code()
        return code.sniff(text, whole) if self.reads_all else code.sniff(text)


# The order is the sniffing order: the first format that recognises a text wins.
_REGISTRY = [
    Format("png", "png", (".png",), strong=True, binary=True, colour=True),
    Format("webpbn", "webpbn", (".xml", ".pbn"), several=True, strong=True, colour=True),
    # Before json, whose sniffer takes any text starting with '[' such as '[clues]';
    # nonogrid's TOML before pynogram's text, which has a '[clues]' section too.
    Format("toml", "toml", (".toml",), strong=True, colour=True),
    Format("pynogram", "pynogram", (".txt",), strong=True, colour=True),
    Format("json", "json_", (".json",), several=True, strong=True, colour=True, givens=True),
    Format("pbm", "pbm", (".pbm",), strong=True),
    Format("tatham", "tatham", (".tatham", ".pattern", ".txt"), strong=True, givens=True),
    Format("dzn", "dzn", (".dzn",), strong=True),
    Format("lp", "lp", (".lp",), strong=True),
    Format("emoji", "emoji", (".emoji", ".txt"), strong=True, colour=True),
    Format("ctu", "ctu", (".ctu", ".txt"), colour=True, reads_all=True),
    Format("taai", "taai", (".taai", ".txt"), several=True),
    Format("g", "g", (".g",), colour=True),
    # Before non, whose sniffer takes any bare 'rows' line.
    Format("faase", "faase", (".faase",), reads_all=True),
    # webpbn's 'ss' export is Steve Simpson's format, which is .non.  One puzzle a file, as
    # pbnsolve and webpbn read it (pbnsolve reads several as one mix of them, in silence): it
    # writes no set; it reads `cat a.non b.non` as the files' puzzles (`concatenated`).
    Format("non", "non", (".non", ".nonpack", ".ss"), colour=True, givens=True, concatenated=True),
    Format("mk", "mk", (".mk",)),
    # The headerless two-block formats ask their reader whether the clues fit together,
    # so they come before cwd, whose sniffer looks at the line shapes only.
    Format("keen", "keen", (".keen", ".txt"), reads_all=True),
    Format("syro", "syro", (".syro",), reads_all=True),
    Format("ish", "ish", (".ish",), reads_all=True),
    Format("makhorin", "makhorin", (".makhorin",), reads_all=True),
    Format("cwd", "cwd", (".cwd",)),
    Format("picture", "picture", (".grid", ".txt")),
    Format("nin", "nin", (".nin",)),
]
# A PNG file's first bytes (formats/png.py checks them too): its pixels are read as bytes.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_BY_NAME = {f.name: f for f in _REGISTRY}


def names() -> list[str]:
    """The registered format names, in sniffing order.

    >>> from nonolab.formats import names
    >>> "non" in names() and "webpbn" in names()
    True
    """
    return [f.name for f in _REGISTRY]


def suffixes() -> list[str]:
    """Every file suffix some format reads (lower case, with the dot), sorted.

    ``.txt`` is among them although it names no single format: the content decides.

    >>> ".non" in suffixes() and ".txt" in suffixes() and ".md" not in suffixes()
    True
    """
    return sorted({s for f in _REGISTRY for s in f.suffixes})


def suffix_of(fmt: str) -> str:
    """The usual file suffix of format ``fmt`` (its first), for naming files written in it.

    Raises:
        UnknownFormat: ``fmt`` is not a format name.

    >>> suffix_of("non"), suffix_of("webpbn"), suffix_of("picture")
    ('.non', '.xml', '.grid')
    """
    return _get(fmt, "suffix_of").suffixes[0]


def _get(fmt: str, caller: str) -> Format:
    if not isinstance(fmt, str):
        raise TypeError(f"{caller}: fmt must be a format name (str), not {type(fmt).__name__}")
    try:
        return _BY_NAME[fmt.lower()]
    except KeyError:
        raise UnknownFormat(f"unknown format {fmt!r} (known: {', '.join(names())})") from None


def holds_colour(fmt: str) -> bool:
    """Whether format ``fmt`` holds colour puzzles (the others refuse them on writing).

    >>> holds_colour("webpbn"), holds_colour("pbm")
    (True, False)
    """
    return _get(fmt, "holds_colour").colour


def colour_formats() -> list[str]:
    """The formats that hold colour puzzles, in sniffing order.

    >>> "png" in colour_formats() and "tatham" not in colour_formats()
    True
    """
    return [f.name for f in _REGISTRY if f.colour]


def refuse_several(fmt: str, n: int) -> None:
    """Refuse ``n`` puzzles (more than one) for ``fmt`` when that format holds one puzzle a file.

    >>> refuse_several("non", 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: the 'non' format holds one puzzle, and there are 3 to write (formats holding ...
    """
    if n > 1 and not _get(fmt, "refuse_several").several:
        several = ", ".join(g.name for g in _REGISTRY if g.several)
        raise InvalidArgument(f"the {fmt!r} format holds one puzzle, and there are {n} to write "
                              f"(formats holding several: {several})")


def holds_several(fmt: str) -> bool:
    """Whether format ``fmt`` writes several puzzles as one document (``write_all``).

    >>> holds_several("json"), holds_several("tatham")
    (True, False)
    """
    return _get(fmt, "holds_several").several


def reads_concatenated(fmt: str) -> bool:
    """Whether files of format ``fmt`` one after another read back as every puzzle
    (``cat a.non b.non``).  Reading only: nothing writes such a stream (``non`` holds one
    puzzle a file, see :func:`holds_several`).

    >>> reads_concatenated("non"), reads_concatenated("g")
    (True, False)
    """
    return _get(fmt, "reads_concatenated").concatenated


def holds_givens(fmt: str) -> bool:
    """Whether format ``fmt`` holds a puzzle's givens (the others refuse such puzzles on writing).

    >>> holds_givens("json"), holds_givens("webpbn")
    (True, False)
    """
    return _get(fmt, "holds_givens").givens


def givens_formats(colour: bool = False) -> list[str]:
    """The formats that hold givens (and, with ``colour``, colour too), in sniffing order.

    >>> givens_formats(), givens_formats(colour=True)
    (['json', 'tatham', 'non'], ['json', 'non'])
    """
    return [f.name for f in _REGISTRY if f.givens and (f.colour or not colour)]


def is_binary(fmt: str) -> bool:
    """Whether format ``fmt`` is bytes (PNG), carried as latin-1 text by :func:`dumps`.

    >>> is_binary("png"), is_binary("non")
    (True, False)
    """
    return _get(fmt, "is_binary").binary
