"""File input and output for the formats package: bytes in, text out, atomic writes."""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import warnings
from typing import TYPE_CHECKING

from nonolab.errors import LimitReached, NonolabError, ParseError

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Iterable


#: The name that means standard input (when read) or standard output (when written).
STDIO = "-"


def read_bytes(path: str | os.PathLike, max_bytes: int | None = None) -> bytes:
    """The bytes of the file at ``path`` (``"-"``: standard input, read once and kept for
    a second read), at most ``max_bytes``.

    A regular file's size is checked before it is read; a pipe is read up to one
    byte past the limit.  Raises ParseError if it cannot be read, TooLarge beyond it.
    """
    try:
        if str(path) == STDIO:
            data = _read_stdin(max_bytes)
        else:
            with open(path, "rb") as stream:
                data = _read_limited(stream, max_bytes)
    except OSError as err:
        raise ParseError(f"cannot read the file: {err.strerror or err}", path=str(path)) from None
    except NonolabError as err:
        raise err.located(path=str(path))
    return data


# Standard input can be read once: (the stream, its bytes), for a second read of "-"
# (a command that sniffs the format first, then loads).
_STDIN: list[tuple[object, bytes]] = []


def _read_stdin(max_bytes: int | None) -> bytes:
    if sys.stdin is None or not hasattr(sys.stdin, "buffer"):   # started with standard input closed
        raise ParseError("cannot read standard input: it is closed")
    stream = sys.stdin.buffer
    if _STDIN and _STDIN[0][0] is stream:
        data = _STDIN[0][1]
        if max_bytes is not None and len(data) > max_bytes:
            from nonolab.formats.limits import check_bytes
            check_bytes(len(data), max_bytes, streamed=True)
        return data
    data = _read_limited(stream, max_bytes)
    _STDIN[:] = [(stream, data)]
    return data


def _read_limited(stream, max_bytes: int | None) -> bytes:
    """All of ``stream``; a regular file's size is checked before, a pipe's while reading.

    Read in chunks into one growing buffer: asking for ``max_bytes + 1`` at once would
    make Python allocate that much before a byte arrives (a limit of 10**11 is a
    MemoryError on a ten-byte file).
    """
    from nonolab.formats.limits import check_bytes

    try:
        info = os.fstat(stream.fileno())
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        info = None  # an in-memory stream (a test's standard input)
    if info is not None and stat.S_ISREG(info.st_mode):
        check_bytes(info.st_size, max_bytes)
    if max_bytes is None:
        return stream.read()
    data = bytearray()
    while len(data) <= max_bytes:
        chunk = stream.read(min(_CHUNK, max_bytes + 1 - len(data)))
        if not chunk:
            break
        data += chunk
    if len(data) > max_bytes:
        check_bytes(len(data), max_bytes, streamed=True)
    return bytes(data)


#: What one read asks for.
_CHUNK = 1 << 20


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        m = re.match(rb"<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)", data)
        if m:   # an XML file may declare another encoding
            try:
                return data.decode(m.group(1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                pass
        raise ParseError(f"the file is not UTF-8 text (byte 0x{data[err.start]:02x})",
                         line=data.count(b"\n", 0, err.start) + 1) from None


# Temporary files being written: an interrupted command deletes them (discard_pending).
_PENDING: set[str] = set()

# The gate every write passes just before it replaces (or writes to) its target: once an
# interrupt closes it, no write lands, so a command stopped by Ctrl-C or SIGTERM leaves
# its targets as they were, whatever its cut-short work would still write (a repair
# stopped early writes the puzzle unrepaired).  Closed from a signal handler, so without
# a lock (the handler must never wait): only a write already past the gate when the
# signal came, the finished output of finished work, may still land.
_CLOSED: list[bool] = []


def close_writes() -> None:
    """From now on no write lands (the CLI calls it when Ctrl-C or SIGTERM arrives).

    >>> import tempfile; from pathlib import Path
    >>> folder = tempfile.TemporaryDirectory(); target = Path(folder.name) / "out.non"
    >>> close_writes()
    >>> write_atomically(target, "width 1")
    Traceback (most recent call last):
    ...
    nonolab.errors.LimitReached: ...out.non: interrupted: nothing written
    >>> open_writes(); target.exists()
    False
    >>> folder.cleanup()
    """
    _CLOSED[:] = [True]


def open_writes() -> None:
    """Writes land again (the CLI calls it as a command starts)."""
    _CLOSED.clear()


def _refused(path: str | os.PathLike) -> LimitReached:
    return LimitReached("interrupted: nothing written", path=str(path))


def discard_pending() -> None:
    """Delete the temporary files of writes still under way, then the folders :func:`make_folder`
    made that they leave empty (called on Ctrl-C or SIGTERM)."""
    for tmp in list(_PENDING):
        try:
            os.unlink(tmp)
        except OSError:
            pass
    remove_made_folders(tuple(_MADE_FOLDERS))


# Folders make_folder made, until remove_made_folders: an interrupt removes those still empty.
_MADE_FOLDERS: list[str] = []


def make_folder(path: str | os.PathLike) -> tuple[str, ...]:
    """Make the folder ``path`` and any missing parent (``mkdir -p``); returns the folders it
    made, outermost first (none that existed before), for :func:`remove_made_folders`.

    >>> import tempfile; top = tempfile.mkdtemp()
    >>> made = make_folder(os.path.join(top, "a", "b"))
    >>> [os.path.relpath(f, top) for f in made]
    ['a', 'a/b']
    >>> remove_made_folders(made); os.listdir(top)
    []
    >>> os.rmdir(top)
    """
    path = path_given = os.path.abspath(path)
    missing = []
    while not os.path.lexists(path):
        missing.append(path)
        path = os.path.dirname(path)
    for folder in reversed(missing):
        try:
            os.mkdir(folder)
        except FileExistsError:   # made meanwhile by another: not ours to remove
            missing.remove(folder)
            if not os.path.isdir(folder):
                raise
    os.makedirs(path_given, exist_ok=True)   # (a dangling link there: FileExistsError, as mkdir -p says)
    made = tuple(reversed(missing))
    _MADE_FOLDERS.extend(made)
    return made


def remove_made_folders(made: Iterable[str]) -> None:
    """Remove each folder of ``made`` (from :func:`make_folder`) that is empty, deepest
    first, and forget them: a folder a command made and wrote nothing into does not stay
    behind.  A folder with anything in it stays."""
    for folder in reversed(tuple(made)):
        try:
            os.rmdir(folder)
        except OSError:
            pass
        if folder in _MADE_FOLDERS:
            _MADE_FOLDERS.remove(folder)


class BrokenLink(UserWarning):
    """An atomic write replaced a file that had other hard links: they keep the old content."""


def refuse_read_only(path: str | os.PathLike) -> None:
    """Raise an OSError naming ``path`` if it is a regular file without any write permission.

    Replacing a file needs only its folder's permission, so an atomic write would quietly
    replace a file its owner made read-only (even for root, who passes every access check):
    the permission bits say "keep", and a write says so instead of replacing it.

    >>> refuse_read_only("/no/such/file")   # nothing there: nothing to keep
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and not mode & 0o222:
        raise OSError(errno.EACCES, "is read-only: make it writable (chmod u+w) to replace it", str(path))


def write_atomically(path: str | os.PathLike, text: str | bytes) -> None:
    """Replace ``path`` by ``text`` (UTF-8) or bytes so that no reader ever sees a partial file.

    ``"-"`` is standard output.  A target that is not a regular file (a device such
    as ``/dev/null``, a FIFO, a terminal) is written to directly, never replaced.  A
    symbolic link keeps being a link: the file it points to is replaced.  The text is
    written to a temporary file beside that file, which takes its place only once
    complete; on failure the target is untouched, no temporary file is left, and the
    error (an OSError) names the target.  A file with other hard links is replaced all the
    same (its other names keep the old content), with a :class:`BrokenLink` warning saying
    so; a path ending in ``/`` is refused (it names a folder), and so is a read-only file
    (:func:`refuse_read_only`).  After :func:`close_writes`
    (an interrupt) nothing is written and :class:`~nonolab.errors.LimitReached` is raised.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if str(path) == STDIO:
        _write_stream(sys.stdout, data)
        return
    if str(path).endswith(("/", os.sep)):   # "newdir/": a folder's name, never a file to create
        raise OSError(errno.EISDIR, "names a folder (it ends with /): give the file's name", str(path))
    from pathlib import Path  # writing only: a plain read does not import it

    target = Path(os.path.realpath(path))
    try:
        info = target.stat()
        mode, links = info.st_mode, info.st_nlink
    except FileNotFoundError:
        mode, links = None, 1
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(path)) from None
    refuse_read_only(path)
    if (mode is not None and not stat.S_ISREG(mode)) or _names_open_file(path):
        if _CLOSED:
            raise _refused(path)
        _write_in_place(path, data)
        return
    import secrets  # here, not at the top: it imports hmac and hashlib, which reading never needs

    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    _PENDING.add(str(tmp))
    try:
        # O_EXCL: never follow or reuse an existing file; the mode honours the umask.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            if mode is not None:
                os.chmod(fd, stat.S_IMODE(mode))
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            if _CLOSED:
                raise _refused(path)
            os.replace(tmp, target)
            if links > 1 and stat.S_ISREG(mode or 0):
                # Replacing is what makes the write atomic; a hard link cannot follow it (the
                # other names keep the old file).  Chosen over writing in place, which a reader
                # could see half done: said, not hidden.
                others = "its other name keeps" if links == 2 else f"its {links - 1} other names keep"
                warnings.warn(BrokenLink(f"{path}: it had {links} hard links; it was replaced whole, so "
                                         f"{others} the old content"), stacklevel=2)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(path)) from None
    finally:
        _PENDING.discard(str(tmp))


def write_together(files: "list[tuple[str | os.PathLike, str | bytes]]") -> None:
    """Write several regular files that belong together (a generated puzzle and the index
    that lists it) so that they land together or not at all: each is written whole to a
    temporary file beside its target first, and only then, past the interrupt's gate once
    (:func:`close_writes`), do they all take their places.  A signal that came while they
    were being written leaves every target as it was, never one without the other.

    >>> import tempfile; from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> close_writes()
    >>> write_together([(folder / "a.non", "width 1"), (folder / "index.csv", "file\\na.non\\n")])
    Traceback (most recent call last):
    ...
    nonolab.errors.LimitReached: ...a.non: interrupted: nothing written
    >>> open_writes(); sorted(p.name for p in folder.iterdir())
    []
    >>> write_together([(folder / "a.non", "width 1"), (folder / "index.csv", "file\\na.non\\n")])
    >>> sorted(p.name for p in folder.iterdir())
    ['a.non', 'index.csv']
    """
    staged = Staged()
    try:
        for path, text in files:
            staged.add(path, text)
        staged.land()
    finally:
        staged.discard()


class Staged:
    """Files written now that land later, together: :meth:`add` writes each whole to a
    temporary file beside its target, :meth:`land` puts them all in place past the
    interrupt's gate once (and removes the files it is told to), :meth:`discard` drops
    them.  Until they land no target is touched: an error, a signal (whose handler deletes
    the temporary files, :func:`discard_pending`) or a discard leaves every target as it
    was.  ``generate --out DIR --force`` stages its whole new set so, and the earlier set
    in DIR is replaced only when the new one is complete.

    >>> import tempfile; from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp()); (folder / "old.non").write_text("width 2")
    7
    >>> staged = Staged(); staged.add(folder / "a.non", "width 1")
    >>> sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    ['old.non']
    >>> staged.land(remove=[folder / "old.non"]); sorted(p.name for p in folder.iterdir())
    ['a.non']
    """

    def __init__(self) -> None:
        self._files: list[tuple[Path, Path, str]] = []   # (temporary, target, the target as named)

    # (pathlib is imported where a file is written: a plain read does not import it)

    def add(self, path: "str | os.PathLike", data: "str | bytes") -> None:
        """Write ``data`` whole to a temporary file beside ``path`` (the target is not touched).

        Raises:
            OSError: naming ``path``: it is read-only, not a regular file, or cannot be written.
        """
        import secrets
        from pathlib import Path

        target = Path(os.path.realpath(path))
        refuse_read_only(path)
        if target.exists() and not target.is_file():
            raise OSError(errno.EEXIST, "is not a regular file: it is not replaced", str(path))
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        _PENDING.add(str(tmp))
        self._files.append((tmp, target, str(path)))
        try:
            with open(tmp, "xb") as out:
                out.write(data if isinstance(data, bytes) else data.encode("utf-8"))
                out.flush()
                os.fsync(out.fileno())
        except OSError as err:
            raise OSError(err.errno, err.strerror, str(path)) from None

    def land(self, remove: "Iterable[str | os.PathLike]" = ()) -> None:
        """Every staged file to its target, then each of ``remove`` deleted (if there), past the
        gate once: after an interrupt nothing lands (:class:`LimitReached`, naming the first)."""
        from pathlib import Path

        try:
            if _CLOSED and self._files:
                raise _refused(self._files[0][2])
            for tmp, target, _ in self._files:   # past the gate: all of them land
                os.replace(tmp, target)
            for path in remove:
                Path(path).unlink(missing_ok=True)
        finally:
            self.discard()

    def discard(self) -> None:
        """Drop what is staged and not landed: no target is touched."""
        for tmp, _, _ in self._files:
            _PENDING.discard(str(tmp))
            tmp.unlink(missing_ok=True)
        self._files.clear()


_OPEN_FILE = re.compile(r"/proc/[^/]+/fd/[0-9]+")


def _names_open_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` leads through ``/proc/PID/fd/N`` (``/dev/stdout``, ``/dev/fd/1``):
    a file another program opened (a shell's ``> log``), to be written to, not replaced."""
    hop = os.path.abspath(path)
    for _ in range(40):  # the kernel's own bound on links followed
        hop = os.path.join(os.path.realpath(os.path.dirname(hop)), os.path.basename(hop))
        if _OPEN_FILE.fullmatch(hop):
            return True
        if not os.path.islink(hop):
            return False
        hop = os.path.join(os.path.dirname(hop), os.readlink(hop))
    return False


def _write_in_place(path: str | os.PathLike, data: bytes) -> None:
    """Write to a device, FIFO, terminal or open file (there is no file to replace).

    Appending: through ``/dev/stdout`` a shell's ``>> log`` keeps what it holds, and
    ``> log`` was emptied by the shell already.
    """
    try:
        sys.stdout.flush()  # what this process printed before comes first
    except (OSError, ValueError):
        pass
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        with open(fd, "wb", buffering=0) as out:
            view = memoryview(data)
            while view:
                view = view[out.write(view):]
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(path)) from None


def _write_stream(stream, data: bytes) -> None:
    stream.flush()
    stream.buffer.write(data)
    stream.flush()
