"""Writing a generated set: one file per puzzle and an index, each written atomically.

Files are named after the puzzle (``gen-30x30-seed7-003.non``: source, size,
master seed, number) with the format's usual suffix; ``index.csv`` lists them
with their size, density, grade, candidates tried, repairs and time.  The index
is rewritten with each puzzle, the two landing together or not at all
(``write_together``), so an interrupted run leaves a directory whose index
matches its files.  A folder holding an earlier set (its ``index.csv``) is refused, and no
file of the folder is ever overwritten.

With ``force`` such a folder is taken, and nothing of the earlier set is lost or half
replaced: the new set is written whole to temporary files beside its targets first
(:class:`~nonolab.formats.Staged`), and only :meth:`SetWriter.finish`, once the run has
ended well, puts it in place of the earlier one (its files and index.csv; the files its
index does not list stay, and are never overwritten).  An error or an interrupt before
leaves the earlier set as it was, and no file of the new one.

A folder the writer made (``--out NEW``, and any missing parent) is removed again when no
puzzle landed in it: no puzzle found, an error or an interrupt before the first.  A folder
that existed before is never removed.

>>> import tempfile
>>> from nonolab.generate.make import Recipe, make_puzzles
>>> folder = tempfile.mkdtemp()
>>> writer = SetWriter(folder, "non")
>>> for generated in make_puzzles(2, Recipe(6, 6, unique=True), seed=1).puzzles:
...     path = writer.add(generated)
>>> sorted(os.listdir(folder))
['gen-6x6-seed1-001.non', 'gen-6x6-seed1-002.non', 'index.csv']
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Iterable

from nonolab.errors import InvalidArgument
from nonolab.formats import Staged, dump_bytes, suffix_of, write_together
from nonolab.formats._files import make_folder, remove_made_folders
from nonolab.formats._input_guard import refuse_replacing_inputs
from nonolab.generate.make import GeneratedPuzzle

__all__ = ["INDEX_NAME", "INDEX_FIELDS", "SetWriter"]

INDEX_NAME = "index.csv"
INDEX_FIELDS = ("file", "name", "width", "height", "source", "seed", "density", "grade", "candidates",
                "repairs", "time")


class SetWriter:
    """Writes generated puzzles into ``folder`` in format ``fmt``, keeping ``index.csv`` current.
    ``inputs``: the files the run reads (an image), never replaced or removed.

    Raises:
        UnknownFormat: ``fmt`` is not a format name (checked before anything is written).
        InvalidArgument: the folder is a file, holds an earlier set (without ``force``), or
            what the run would replace there (with ``force``, the earlier set) is one of ``inputs``.
        OSError: ``folder`` cannot be created or written.
    """

    def __init__(self, folder: str | os.PathLike, fmt: str = "non", force: bool = False,
                 inputs: Iterable[str | os.PathLike] = ()):
        if str(folder) == "-":   # one file per puzzle and an index: a folder, never standard output
            raise InvalidArgument("--out names the folder for the puzzles and index.csv; to print the puzzles "
                                  "to standard output, leave out --out")
        self.suffix = suffix_of(fmt)
        self.fmt = fmt
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():   # mkdir's own word is only "File exists"
            raise InvalidArgument(f"{folder}: --out names a folder for the puzzles and index.csv, and this is a file")
        index = self.folder / INDEX_NAME
        if index.exists() and not force:   # its index would be replaced, its puzzles overwritten
            raise InvalidArgument(f"{index}: --out holds an earlier generated set; write the new one to another "
                                  "folder, or replace it (--force)")
        # force: the earlier set (the files its index lists), replaced by finish(); None: no earlier set
        self.earlier = _listed(index) if index.exists() else None
        # What the run replaces or removes here (the index; with force, every file of the
        # earlier set): none may be a file the run reads (--from-image), force or not.
        refuse_replacing_inputs("--out", folder, [index, *(self.folder / name for name in self.earlier or ())],
                                inputs)
        self.staged = Staged() if self.earlier is not None else None
        # The folders made here go again if no puzzle lands in them (none found, an error, an interrupt).
        self.made = make_folder(self.folder)
        self.records: list[dict] = []

    def add(self, generated: GeneratedPuzzle) -> Path:
        """Write one puzzle (goal included where the format carries one); returns its path
        (with ``force`` over an earlier set: staged beside it, in place at :meth:`finish`)."""
        path = self.folder / (generated.puzzle.name + self.suffix)
        if path.exists() and path.name not in (self.earlier or ()):   # not of a set: never overwritten
            raise InvalidArgument(f"{path}: exists, and is not of this set; generate writes new files only "
                                  "(write the set to another folder)")
        data = dump_bytes(generated.puzzle, self.fmt)   # bytes for a binary format such as png
        records = [*self.records, {"file": path.name, **generated.as_record()}]
        if self.staged is not None:
            self.staged.add(path, data)
        else:
            # One write of the two: a signal between a puzzle and its index line left a file the
            # index did not list (the index's write was refused after the puzzle's had landed).
            write_together([(path, data), (self.folder / INDEX_NAME, _csv(records))])
        self.records = records
        return path

    def finish(self) -> None:
        """The run ended well: with ``force`` over an earlier set, the new set (its files, then
        index.csv) takes its place, and the earlier set's files the new one does not name are
        removed, all past the interrupt's gate at once.  Without, nothing to do (each puzzle
        landed with its index line)."""
        if self.staged is None:
            remove_made_folders(self.made)   # (only an empty one goes: no puzzle was found)
            return
        self.staged.add(self.folder / INDEX_NAME, _csv(self.records))
        kept = {r["file"] for r in self.records}
        self.staged.land(remove=[self.folder / name for name in sorted(self.earlier or ()) if name not in kept])
        self.staged = None

    def discard(self) -> None:
        """The run failed: drop the staged new set (the earlier one stays as it was)."""
        if self.staged is not None:
            self.staged.discard()
            self.staged = None
        remove_made_folders(self.made)   # (only an empty one goes: the puzzles written before stay)

    def __enter__(self) -> "SetWriter":
        return self

    def __exit__(self, kind, *exc) -> None:
        if kind is None:
            self.finish()
        else:
            self.discard()


def _listed(index: Path) -> set[str]:
    """The files an earlier set's index.csv lists: plain names in its folder (a name with a
    path in it, or an index that cannot be read, names nothing to remove)."""
    try:
        with index.open(encoding="utf-8", newline="") as handle:
            names = {row.get("file") or "" for row in csv.DictReader(handle)}
    except (OSError, UnicodeDecodeError, csv.Error):
        return set()
    return {n for n in names if n and n not in (".", "..", INDEX_NAME) and os.sep not in n
            and (os.altsep is None or os.altsep not in n)}


def _csv(records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=INDEX_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()
