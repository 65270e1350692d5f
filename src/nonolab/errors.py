"""The exception hierarchy of nonolab.

Every error the library raises on purpose derives from :class:`NonolabError`, so a
caller can catch one type.  Three families are kept apart, as users act on them
differently:

* invalid input: :class:`ParseError` (the text cannot be read) and
  :class:`InvalidPuzzle` (it reads, but the clues are impossible as written);
* no solution: :class:`Contradiction`;
* cannot run: :class:`BackendUnavailable`, :class:`UnknownBackend`,
  :class:`UnknownFormat`, :class:`BatchError`, :class:`BenchError`, :class:`MissingDependency`;
* bad arguments to a library function: :class:`InvalidArgument` (and :class:`Unsupported`,
  a puzzle a backend does not take by the capabilities it declares);
* beyond a size limit: :class:`TooLarge`.

Only the CLI turns these into messages and exit codes.  This module imports nothing
else of nonolab.
"""

from __future__ import annotations


class NonolabError(Exception):
    """Root of every nonolab error.

    ``path`` and ``line`` say where in a file the problem is, when known; ``str()``
    gives the one-line message ``path:line: message``.

    ``argument`` names the library parameter a message is about (``"density"``, or
    ``"dump:fmt"`` when the function matters), written ``{arg}`` in the message: ``str()`` says the parameter's
    name, as a Python caller knows it, and :meth:`said_as` lets a front end say it in its
    own words (the command line's ``--to``), so no message of the library leaks a Python
    name into the CLI.

    >>> from nonolab.errors import InvalidArgument
    >>> err = InvalidArgument("{arg} must be between 0 and 1, got 1.5", argument="density")
    >>> str(err), err.said_as("--density")
    ('density must be between 0 and 1, got 1.5', '--density must be between 0 and 1, got 1.5')
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 argument: str | None = None):
        self.template = message
        self.argument = argument
        # "dump:fmt": the parameter fmt of dump, so a front end can tell it from load's.
        self.message = message if argument is None else message.replace("{arg}", argument.rpartition(":")[2])
        super().__init__(self.message)
        self.path = path
        self.line = line

    def located(self, path: str | None = None, line: int | None = None) -> "NonolabError":
        """Fill in the file and line where they are not known yet; returns self."""
        if self.path is None and path is not None:
            self.path = str(path)
        if self.line is None and line is not None:
            self.line = line
        return self

    def within(self, part: str) -> "NonolabError":
        """Say which part of the file the problem is in (``puzzle 2`` of a set), before the
        message; returns self.

        >>> from nonolab import ParseError
        >>> str(ParseError("row 1: clue 9 needs 9 cells", line=1).within("puzzle 2"))
        'line 1: puzzle 2: row 1: clue 9 needs 9 cells'
        """
        self.template, self.message = f"{part}: {self.template}", f"{part}: {self.message}"
        self.args = (self.message,)
        return self

    def __str__(self) -> str:
        return self._where() + self.message

    def said_as(self, name: str) -> str:
        """The one-line message with the parameter spoken of as ``name`` (an option)."""
        return self._where() + self.template.replace("{arg}", name)

    def _where(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:"
            if self.line is not None:
                where += f"{self.line}:"
            where += " "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where


class ParseError(NonolabError):
    """The text is not a well-formed puzzle in the format it was read as."""


class UnknownFormat(NonolabError):
    """No reader knows this format name, or the content could not be recognised."""


class InvalidPuzzle(NonolabError):
    """The clues are well formed but impossible as written.

    ``kind`` is ``"row"``, ``"column"``, ``"goal"`` or ``"size"`` and ``index`` the
    0-based line the problem is on (``None`` when it concerns the whole puzzle), so
    that a reader can point at the line of the file it came from.
    """

    def __init__(self, message: str, *, kind: str | None = None, index: int | None = None,
                 path: str | None = None, line: int | None = None):
        super().__init__(message, path=path, line=line)
        self.kind = kind
        self.index = index


class Contradiction(NonolabError):
    """A line (or the whole puzzle) has no arrangement consistent with its clue."""


class BackendUnavailable(NonolabError):
    """A solver backend cannot run here (its library is missing or broken)."""


class UnknownBackend(NonolabError):
    """No backend is registered under this name."""


class InvalidArgument(NonolabError, ValueError):
    """An argument is out of its range (a grid size of 0, a density of 1.5).

    Also a ``ValueError``, so callers that catch that keep working.
    """


class Unsupported(InvalidArgument):
    """A backend does not declare a capability the puzzle needs (colour, given cells): it
    does not take the puzzle, as a declared limit (:class:`TooLarge`) does not; the message
    names the backends that do.  An :class:`InvalidArgument` too, so callers that catch
    that keep working."""


class MissingDependency(NonolabError):
    """An optional library a feature needs is not installed (the message names it)."""


class TooLarge(NonolabError):
    """An input or a model is beyond a documented size limit (file bytes, cells, clue
    numbers, or what a model-building backend can hold); the message names the size,
    the limit, and how to raise it or which backend to use instead.

    ``raise_with`` (when the limit is one of :mod:`nonolab.formats.limits`) is how whoever
    runs nonolab raises it, kept apart from the message so that a front end whose user
    cannot follow it (a web page: the server's operator sets the environment) says the
    limit without it (:meth:`limit_only`); ``str()`` ends with it, as the CLI prints it.

    >>> from nonolab.errors import TooLarge
    >>> err = TooLarge("the image is 9 pixels, beyond the limit of 4 pixels", raise_with="NONOLAB_MAX_PIXELS=N")
    >>> str(err)
    'the image is 9 pixels, beyond the limit of 4 pixels (raise it with NONOLAB_MAX_PIXELS=N)'
    >>> err.limit_only()
    'the image is 9 pixels, beyond the limit of 4 pixels'
    """

    def __init__(self, message: str, *, raise_with: str | None = None, path: str | None = None,
                 line: int | None = None, argument: str | None = None):
        super().__init__(message, path=path, line=line, argument=argument)
        self.raise_with = raise_with
        self.args = (self.message + (f" (raise it with {raise_with})" if raise_with else ""),)   # as pickled

    def __str__(self) -> str:
        return self.limit_only() + (f" (raise it with {self.raise_with})" if self.raise_with else "")

    def limit_only(self) -> str:
        """The one line (where, size, limit) without how to raise the limit."""
        return self._where() + self.message


class LimitReached(NonolabError):
    """A time, node or conflict limit ended a search; raised internally, reported as TIMEOUT."""


class WrongAnswer(NonolabError):
    """A backend returned a picture that does not satisfy the clues: a solver bug."""


class BatchError(NonolabError):
    """A batch cannot run as asked: no puzzle files, or a results file that exists,
    is locked by another run, or holds a damaged record before its last line."""


class BenchError(NonolabError):
    """A benchmark cannot run as asked: an unknown suite, an external solver that is not
    there or is declared wrongly, an output folder that cannot be used."""
