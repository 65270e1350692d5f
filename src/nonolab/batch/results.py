"""The results file (JSON Lines, one record per puzzle) and the summary of a batch.

Nothing is lost on a crash: each record is written with one ``write`` call as soon
as its job ends, so a killed batch leaves every finished record in the file and at
most one torn last line, which ``resume`` cuts off before appending, saying so
(:class:`TornLine`, a warning the CLI prints in one line).  Records that
come together share one ``fsync``: the batch syncs the file whenever no other record
is waiting to be written (and at the end), so no record waits for a slow puzzle to be
made durable; one ``fsync`` a record cost milliseconds, more than a small puzzle's check.  An existing file is never replaced unless asked (``force``).

A file resumed across versions holds records of each (``schema_version`` in every one):
:func:`parse_records` reads those of versions 1 to 3 as version 4 (:func:`upgraded`) and refuses,
naming the file and line, a record of a version newer than this nonolab knows.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from nonolab.batch.tasks import SCHEMA_VERSION
from nonolab.errors import BatchError

try:  # POSIX: keep two batches from appending to the same file
    import fcntl
except ImportError:  # pragma: no cover — Windows: no lock
    fcntl = None  # type: ignore[assignment]  # no module to name here: every use checks for None


def record_key(record: dict[str, Any]) -> tuple[str, int, str, str]:
    """What identifies a result: the puzzle file (as an absolute path: ``path``, which the
    results file adds as it writes the record, else ``file`` taken from here), the puzzle's
    1-based index in it (1 for records written before sets had one), the task and the
    backend as asked (a file may hold several backends' runs of one puzzle: resuming
    with ``-b native`` must not take ``auto``'s answers for native's).

    >>> record_key({"file": "/p/set.xml", "index": 2, "task": "check", "backend": "native"})
    ('/p/set.xml', 2, 'check', 'native')
    """
    return (record.get("path") or os.path.abspath(record["file"]), record.get("index") or 1, record["task"],
            record.get("backend") or "")


def record_keys(record: dict[str, Any]) -> set[tuple[str, int, str, str]]:
    """Every key a puzzle of this run may match ``record`` by: :func:`record_key` (the absolute
    path it was written with) and the name as given taken from here (the set and its
    results moved together, resumed from the same place in them).

    >>> len(record_keys({"file": "/p/a.non", "path": "/p/a.non", "task": "check"}))
    1
    """
    rest = (record.get("index") or 1, record["task"], record.get("backend") or "")
    return {record_key(record), (os.path.abspath(record["file"]), *rest)}


def file_digest(path: str) -> str | None:
    """The SHA-256 of a puzzle file's bytes (hex), what a record keeps as ``digest`` so that
    ``--resume`` runs a puzzle again when its file changed since; ``None`` when the file
    cannot be read or is not a regular file (never opened: a FIFO would block), its record
    then matched by name as before.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"abc")
    >>> file_digest(f.name)[:16], os.unlink(f.name)
    ('ba7816bf8f01cfea', None)
    """
    digest = hashlib.sha256()
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):   # a FIFO or a device: opening it could block
            return None
        with open(path, "rb") as stream:
            for chunk in iter(lambda: stream.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def is_current(record: dict[str, Any], digests: dict[str, str | None]) -> bool:
    """Whether ``record`` still answers its puzzle: its file (by any of :func:`record_keys`'
    paths) has the ``digest`` it was run on, or the record has none (written before records
    kept one, or of a file that could not be read).

    >>> is_current({"file": "/p/a.non", "task": "check", "digest": "1"}, {"/p/a.non": "2"})
    False
    >>> is_current({"file": "/p/a.non", "task": "check"}, {"/p/a.non": "2"})
    True
    """
    kept = record.get("digest")
    return kept is None or any(digests.get(key[0]) == kept for key in record_keys(record))


def _is_record(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("file"), str) and isinstance(value.get("task"), str)


#: The oldest record version :func:`upgraded` reads (1: before sets had an ``index``).
OLDEST = 1

#: What a summary counts a record that could not be checked under (no verdict: no word of the four).
UNCHECKED = "could not be checked"


#: How a record's line begins, as :class:`ResultsFile` writes it (``json.dumps`` of the record,
#: its fields in :data:`~nonolab.batch.tasks.FIELDS` order: ``schema_version`` first since
#: version 2, ``file`` first before).
RECORD_STARTS = (b'{"schema_version": ', b'{"file": "')


def holds_results(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` is empty or begins with a result record (so it is a
    results file, not a puzzle); a file that cannot be read holds none.  A lone first line
    torn by an interrupted append (no newline after it, the start of a record's line cut
    short) is a record too, as :func:`parse_records` takes a torn last line: the run was
    killed while writing its first record.

    >>> holds_results(os.devnull)
    True
    """
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
            while first and not first.strip():
                first = handle.readline(1 << 20)
            at_end = not first.endswith(b"\n") and not handle.read(1)
    except OSError:
        return False
    if not first.strip():
        return True
    try:
        return _is_record(json.loads(first))
    except ValueError:
        return at_end and first.startswith(RECORD_STARTS)


def upgraded(record: dict[str, Any], path: str = "results", line: int | None = None) -> dict[str, Any]:
    """``record`` read as this version means it.  Before version 3 a puzzle that could not be
    checked had ``"verdict": "error"`` (and a cross-check's failed answer too): it is
    ``None`` now, beside ``status`` ``error``, for "error" is no verdict.  Before version 4 a
    cross-check's ``verdict`` was agree, disagree or inconclusive, and its word was in
    ``consensus``: the word is the ``verdict`` now, the rest ``agreement``.  Nothing else
    changed meaning; ``schema_version`` stays what wrote the line.

    >>> upgraded({"schema_version": 2, "file": "a.non", "task": "check", "status": "error",
    ...           "verdict": "error", "error": "a.non: cannot read the file"})["verdict"] is None
    True
    >>> old = upgraded({"schema_version": 3, "file": "a.non", "task": "verify", "status": "ok",
    ...                 "verdict": "agree", "consensus": "multiple"})
    >>> old["verdict"], old["agreement"], "consensus" in old
    ('multiple', 'agree', False)

    Raises:
        BatchError: the record was written by a newer nonolab (its ``schema_version`` is
            above :data:`~nonolab.batch.tasks.SCHEMA_VERSION`), or its version is no number.
    """
    version = record.get("schema_version", OLDEST)
    if not isinstance(version, int) or isinstance(version, bool) or not OLDEST <= version <= SCHEMA_VERSION:
        raise BatchError(f"a record of schema_version {version!r}: this nonolab reads versions {OLDEST} to "
                         f"{SCHEMA_VERSION} (was the file written by a newer nonolab?)", path=path, line=line)
    if version >= SCHEMA_VERSION:
        return record
    fixed = dict(record)   # its schema_version stays: it says what wrote the line
    if fixed.get("verdict") == "error":
        fixed.update(verdict=None, status="error")
    if isinstance(fixed.get("answers"), list):
        fixed["answers"] = [dict(a, verdict=None) if isinstance(a, dict) and a.get("verdict") == "error"
                            else a for a in fixed["answers"]]
    if fixed.get("verdict") in _AGREEMENTS:   # a cross-check before version 4
        fixed["agreement"] = fixed["verdict"]
        fixed["verdict"] = fixed.pop("consensus", None)
    return fixed


#: What a cross-check's ``verdict`` held before version 4 (its ``agreement`` now).
_AGREEMENTS = ("agree", "disagree", "inconclusive")


def parse_records(data: bytes, path: str = "results") -> tuple[list[dict[str, Any]], int, bool]:
    """The records in the bytes of a results file, and where the intact part ends.

    Returns ``(records, keep, newline)``: the file should be cut to ``keep`` bytes,
    then ``newline`` says whether a newline must follow (a complete last record
    whose newline was not written).  A torn last line (no newline after it: a record's
    line is written whole with its newline, so only an interrupted write leaves one) is
    dropped; any other line that is not a record raises :class:`BatchError` naming it, as
    it cannot come from an interrupted append and deserves a look (a complete last line
    too: its newline was written).  Records of an earlier version come as this
    version writes them (:func:`upgraded`); one of a newer version raises :class:`BatchError`.

    >>> parse_records(b'{"file": "a.non", "task": "check"}\\n{"file": "b.n')
    ([{'file': 'a.non', 'task': 'check'}], 35, False)
    """
    records: list[dict[str, Any]] = []
    lines = data.split(b"\n")
    offset = 0
    for number, line in enumerate(lines, 1):
        last = number == len(lines)   # no newline after it: where an interrupted append stops
        end = offset + len(line) + (number < len(lines))
        if line.strip():
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not _is_record(record):
                if last:
                    return records, offset, False
                raise BatchError("not a result record, nor a torn last line (an interrupted write leaves no "
                                 "newline after it); the file is left as it is: repair or remove the line",
                                 path=path, line=number)
            records.append(upgraded(record, path, number))
            if number == len(lines):  # intact, but its newline was never written
                return records, len(data), True
        offset = end
    return records, len(data), False


def _said_torn(path: str, data: bytes, keep: int) -> None:
    """Warn (:class:`TornLine`) that ``data[keep:]``, the torn last line, was cut off."""
    import warnings

    torn = data[keep:]
    start = torn[:40].decode("utf-8", "replace")
    line = data.count(b"\n", 0, keep) + 1
    warnings.warn(TornLine(f"{path}:{line}: dropped a torn last line (a run "
                           f"stopped while writing it): {len(torn)} bytes, "
                           f"{start!r}{'...' if len(torn) > 40 else ''}"), stacklevel=3)


class TornLine(UserWarning):
    """``resume`` dropped a torn last line (a batch killed while writing it): the message
    names the file, the line and the start of what was dropped."""


class ResultsFile:
    """A JSONL results file opened for appending, locked against a second batch.

    Args:
        path: the file; created if missing.
        resume: keep its records (``records`` lists them) and append the missing ones.
        force: replace its content (cut when the first record is written, or when the run
            ends well without one: a batch that fails before leaves it as it was).  Without
            ``resume`` or ``force``, a non-empty file is refused, so that no earlier results
            are ever lost by accident.

    Raises:
        BatchError: the file is not empty and neither flag was given, both were given,
            another batch holds it, or a line before the last is damaged.

    >>> with ResultsFile("results.jsonl", resume=True) as out:        # doctest: +SKIP
    ...     done = {record_key(r) for r in out.records}
    ...     out.append({"file": "cat.non", "task": "check", "verdict": "unique"})
    """

    def __init__(self, path: str | os.PathLike, *, resume: bool = False, force: bool = False):
        if resume and force:
            raise BatchError("resume and force exclude each other: keep the results or replace them")
        self.path = str(path)
        self.records: list[dict[str, Any]] = []
        self._written = 0
        self._unsynced = False
        self._replace = False   # force: the earlier content is still to be cut (at the first write)
        try:  # created here: removed again if the batch fails before its first record
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
            self._created = True
        except FileExistsError:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            self._created = False
        try:
            self._open(resume, force)
        except OSError as err:   # (ftruncate, flock: bare errors that named no file)
            os.close(self._fd)
            raise OSError(err.errno, err.strerror, self.path) from None
        except BaseException:
            os.close(self._fd)
            raise

    def _open(self, resume: bool, force: bool) -> None:
        if not stat.S_ISREG(os.fstat(self._fd).st_mode):
            # /dev/null with --force said only "Invalid argument" (its truncation failed).
            raise BatchError("is not a regular file: the results go to a file that --resume can read back",
                             path=self.path)
        if fcntl is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise BatchError("another batch is writing to this file", path=self.path) from None
        size = os.fstat(self._fd).st_size
        if size and not (resume or force):
            raise BatchError("the results file exists: resume (--resume) adds the missing puzzles to it, "
                             "force (--force) replaces it", path=self.path)
        if force:
            # Emptied when the first record comes (or a run ends well without one), not now: a
            # batch that fails before it (an unknown backend, a scheduler out of reach) leaves
            # the earlier results as they were.
            self._replace = bool(size)
        elif size:
            data = Path(self.path).read_bytes()
            self.records, keep, newline = parse_records(data, self.path)
            if keep < len(data):
                os.ftruncate(self._fd, keep)
                _said_torn(self.path, data, keep)
            os.lseek(self._fd, 0, os.SEEK_END)
            if newline:
                self._write(b"\n")
        os.lseek(self._fd, 0, os.SEEK_END)

    def _write(self, data: bytes, sync: bool = True) -> None:
        view = memoryview(data)
        try:
            self._cut_earlier()
            while view:
                view = view[os.write(self._fd, view):]
            self._unsynced = True
            if sync:
                self.sync()
        except OSError as err:   # a full disk, a quota: the error names the results file
            raise OSError(err.errno, err.strerror, str(self.path)) from None

    def _cut_earlier(self) -> None:
        if self._replace:
            os.ftruncate(self._fd, 0)
            os.lseek(self._fd, 0, os.SEEK_SET)
            self._replace = False

    def sync(self) -> None:
        """``fsync`` what was written since the last time."""
        if self._unsynced and self._fd >= 0:
            os.fsync(self._fd)
            self._unsynced = False

    def append(self, record: dict[str, Any], sync: bool = True) -> None:
        """Write one record as one line (in the file when this returns), and make it durable
        before returning unless ``sync`` is false (then :meth:`sync` or :meth:`close` does).

        The line also holds ``path``, the file as an absolute path from where this batch
        runs: ``file`` is the name as given (``set/cat.non``), relative to a folder that a
        resumed batch, run from elsewhere, would not know."""
        if "path" not in record and isinstance(record.get("file"), str):
            record = {**record, "path": os.path.abspath(record["file"])}
        self._write((json.dumps(record) + "\n").encode("utf-8"), sync)
        self._written += 1

    def close(self) -> None:
        if self._fd >= 0:
            try:
                self.sync()
            except OSError as err:
                raise OSError(err.errno, err.strerror, str(self.path)) from None
            finally:
                os.close(self._fd)  # releases the lock
                self._fd = -1

    def __enter__(self) -> "ResultsFile":
        return self

    def __exit__(self, kind, *exc) -> None:
        if kind is None and self._fd >= 0:   # a run that ended well with no record replaces the file too
            self._cut_earlier()
        failed_empty = kind is not None and self._created and not self._written
        self.close()
        if failed_empty:  # a batch that failed at once leaves no empty results file behind
            try:
                os.unlink(self.path)
            except OSError:
                pass




@dataclass
class BatchSummary:
    """What a batch found: one record per puzzle, earlier runs' included.

    Attributes:
        records: the record of every collected puzzle (for ``--resume``, the ones
            found in the file come first).
        written: how many of them this run added.
        wall_time: this run's wall time, in seconds.
        jobs: worker processes (local) or ``None`` on Dask.
    """

    records: list[dict[str, Any]]
    written: int
    wall_time: float
    jobs: int | None = None
    out: str = ""
    scheduler: str | None = None
    earlier: int = field(init=False)

    def __post_init__(self) -> None:
        self.earlier = len(self.records) - self.written

    def counts(self, field: str = "verdict") -> dict[str, int]:
        """Puzzles per verdict (or per value of another field, e.g. ``status``), most frequent first.

        A ``solve`` record without a verdict (a first solution) counts under
        ``uniqueness not asked``, as ``nonolab solve`` says it.  Per verdict, the puzzles
        that could not be checked are left out: they have none (:attr:`unchecked` counts them).
        """
        found: dict[str, int] = {}
        for record in self.records:
            value = str(summary_word(record) if field == "verdict" else record.get(field) or "error")
            if field == "verdict" and value == UNCHECKED:
                continue
            found[value] = found.get(value, 0) + 1
        return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def disagreements(self) -> int:
        """How many cross-checked puzzles' backends disagree (``agreement`` ``disagree``): a bug in
        one of them, said apart from the verdicts (which stay words)."""
        return sum(record.get("agreement") == "disagree" for record in self.records)

    @property
    def unchecked(self) -> int:
        """How many puzzles could not be checked (status ``error``: unreadable, over a limit, a library error)."""
        return sum(summary_word(record) == UNCHECKED for record in self.records)

    @property
    def puzzle_time(self) -> float:
        """The sum of the per-puzzle times (what one worker would have needed)."""
        return sum(r.get("time") or 0.0 for r in self.records)

    def slowest(self, n: int = 5) -> list[dict[str, Any]]:
        return sorted(self.records, key=lambda r: r.get("time") or 0.0, reverse=True)[:n]

    @property
    def answered(self) -> bool:
        """Every puzzle got the answer asked for: no timeout, no error, no disagreement."""
        return all(r.get("status") == "ok" and r.get("agreement") != "disagree" for r in self.records)


def summary_word(record: dict[str, Any]) -> str:
    """The words a summary counts a record under: its verdict; for a ``solve`` that found a
    first solution (uniqueness not asked: no verdict), ``uniqueness not asked``, as
    ``nonolab solve`` says it; else (no verdict: status ``error``) :data:`UNCHECKED`,
    never "error", which is no verdict.

    >>> summary_word({"task": "solve", "status": "ok", "verdict": None, "solver_status": "solved"})
    'uniqueness not asked'
    >>> summary_word({"task": "check", "status": "error", "verdict": None, "error": "a.non: ..."})
    'could not be checked'
    """
    if record.get("verdict") and record["verdict"] != "error":   # "error": a record of version 2 read raw
        return record["verdict"]
    if record.get("task") == "solve" and record.get("status") == "ok" and record.get("solver_status") == "solved":
        return "uniqueness not asked"
    return UNCHECKED


def latest(records: Iterable[dict[str, Any]]) -> dict[tuple[str, int, str, str], dict[str, Any]]:
    """The last record of every (file, index, task, backend): what a file holds after several runs."""
    return {record_key(r): r for r in records}
