"""Standard output for the commands: quiet on a closed pipe, and big grids summarised.

``nonolab solve BIG | head -1``: once ``head`` exits, every write to the pipe fails
with ``EPIPE``.  :func:`quiet_closed_pipe` puts a file object under ``sys.stdout``
whose writes, after the first such failure, go to ``/dev/null`` (the Python
documentation's advice for SIGPIPE, so that no "Broken pipe" message follows) and
which stops the command there (:func:`nonolab.cli.interrupt.stdout_closed`): nobody
reads the rest, so ``nonolab label CORPUS | head -2`` ends at once, with 141 as a
process SIGPIPE killed.  A command whose whole output was written keeps its own code.

``nonolab check FILE >&-`` (or ``2>&-``): a standard descriptor closed when the command
starts.  :func:`reopen_closed_descriptors` puts ``/dev/null`` there, so that the next
file the command opens does not become descriptor 1 or 2 (where a C library's output,
or the signal handler's silencing, would land in it) and the one-line messages have
somewhere to go; Python has set that stream to ``None`` already, so standard output
and error are given a stream on that ``/dev/null`` too, and no caller (a progress bar asking ``isatty()``,
click echoing) meets ``None``.
"""

from __future__ import annotations

import io
import os
import sys

#: Grids with more rows or columns than this are summarised in text output unless --full.
MAX_SHOWN = 100
#: Differing cells listed before the rest are counted.
MAX_CELLS_LISTED = 40


class _PipeEnd(io.FileIO):
    """Standard output's file descriptor; a closed pipe turns it into ``/dev/null`` and stops the command."""

    def write(self, data) -> int:  # type: ignore[override]
        try:
            return super().write(data)
        except BrokenPipeError:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.fileno())
            os.close(devnull)
            from nonolab.cli.interrupt import stdout_closed
            stdout_closed()
            return memoryview(data).nbytes


def reopen_closed_descriptors() -> None:
    """Put ``/dev/null`` on each of descriptors 0, 1 and 2 that is closed (see the module docstring)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)   # the lowest free descriptor: ``fd`` itself
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    # (Standard input stays None: reading ``-`` then says it is closed, not empty.)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "w", encoding="utf-8", closefd=False))


def quiet_closed_pipe() -> None:
    """Make a closed standard output end the command quietly (see the module docstring)."""
    current = sys.stdout
    if current is None or not hasattr(current, "fileno"):
        return
    try:
        fd = current.fileno()
    except (OSError, ValueError):
        return
    current.flush()
    raw = _PipeEnd(fd, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=current.encoding, errors=current.errors,
                                  line_buffering=bool(current.line_buffering))


def file_or_stdout(path: str | None, as_json: bool, option: str = "-o") -> str | None:
    """``-o -`` means standard output, as no ``-o`` does (``None``); with ``--json`` that is
    refused, so that standard output never carries the JSON answer and a file together.

    >>> file_or_stdout("-", False), file_or_stdout("out.non", True)
    (None, 'out.non')
    """
    if path != "-":
        if path is not None:
            writable_file(path)
        return path
    if as_json:
        from nonolab.errors import InvalidArgument
        raise InvalidArgument(f"--json and {option} - would both write to standard output: give {option} FILE "
                              "for the file, or leave out --json")
    return None


def writable_file(path: str) -> str:
    """``path`` if a file can be written there: checked before any work, not at the write
    after a long search (a name ending in /, a folder that does not exist, a read-only file
    are refused, each in one line naming it).  ``-`` (standard output) passes.

    >>> writable_file("-")
    '-'
    """
    if path == "-":
        return path
    from nonolab.errors import InvalidArgument
    if path.endswith(("/", os.sep)):
        raise InvalidArgument(f"{path}: names a folder (it ends with /): give the file's name")
    if not os.path.isdir(os.path.dirname(path) or "."):
        raise InvalidArgument(f"{path}: the folder {os.path.dirname(path)} does not exist (or is not a folder)")
    from nonolab.formats import refuse_read_only
    refuse_read_only(path)
    return path


def not_an_input(output: str, option: str, read: str) -> None:
    """Refuse writing ``output`` (given as ``option``) when it is ``read``, a file the same
    command reads: the same regular file by any name (a symbolic or hard link, another
    spelling), before anything is read or written.  ``--force`` does not lift it: it
    replaces earlier output, never the input.

    >>> not_an_input("-", "--output", "a.non")

    Raises:
        InvalidArgument: ``output`` is ``read``.
    """
    import stat

    if "-" in (output, read):
        return
    try:
        same = os.path.samefile(read, output) and stat.S_ISREG(os.stat(output).st_mode)
    except OSError:   # no output yet (or no input: reading it names it)
        return
    if same:   # (a terminal or a FIFO as both is written to, never replaced: nothing to lose)
        from nonolab.errors import InvalidArgument
        also = "" if os.path.abspath(read) == os.path.abspath(output) else " (the same file by another name)"
        raise InvalidArgument(f"{option} {output}: is the input file {read}{also}; writing there would "
                              f"replace it: write to another file")


def fits(width: int, height: int) -> bool:
    """Whether a grid is small enough to print whole by default.

    >>> fits(100, 100), fits(101, 5)
    (True, False)
    """
    return width <= MAX_SHOWN and height <= MAX_SHOWN


def too_big(width: int, height: int, what: str) -> str:
    """The line printed instead of a grid that does not fit."""
    return (f"({what}: {width}x{height}, more than {MAX_SHOWN} rows or columns, not shown; "
            f"--full prints it)")


def cell_list(cells, full: bool) -> str:
    """``(row,column)`` 1-based, the first :data:`MAX_CELLS_LISTED` unless ``full``.

    >>> cell_list([(0, 0), (1, 2)], False)
    '(1,1) (2,3)'
    """
    cells = list(cells)
    shown = cells if full else cells[:MAX_CELLS_LISTED]
    text = " ".join(f"({r + 1},{c + 1})" for r, c in shown)
    if len(shown) < len(cells):
        text += f" ... and {len(cells) - len(shown)} more (--full lists them all)"
    return text
