"""Writing a generated set: one file per puzzle and an index, each written atomically.

Files are named after the puzzle (``gen-30x30-seed7-003.non``: source, size,
master seed, number) with the format's usual suffix; ``index.csv`` lists them
with their size, density, grade, candidates tried, repairs and time.  The index
is rewritten with each puzzle, the two landing together or not at all
(``write_together``), so an interrupted run leaves a directory whose index
matches its files.  A folder holding an earlier set (its ``index.csv``) is refused, and no
file of the folder is ever overwritten.

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

from nonolab.errors import InvalidArgument
from nonolab.formats import dump_bytes, suffix_of, write_together
from nonolab.generate.make import GeneratedPuzzle

__all__ = ["INDEX_NAME", "INDEX_FIELDS", "SetWriter"]

INDEX_NAME = "index.csv"
INDEX_FIELDS = ("file", "name", "width", "height", "source", "seed", "density", "grade", "candidates",
                "repairs", "time")


class SetWriter:
    """Writes generated puzzles into ``folder`` in format ``fmt``, keeping ``index.csv`` current.

    Raises:
        UnknownFormat: ``fmt`` is not a format name (checked before anything is written).
        OSError: ``folder`` cannot be created or written.
    """

    def __init__(self, folder: str | os.PathLike, fmt: str = "non"):
        if str(folder) == "-":   # one file per puzzle and an index: a folder, never standard output
            raise InvalidArgument("--out names the folder for the puzzles and index.csv; to print the puzzles "
                                  "to standard output, leave out --out")
        self.suffix = suffix_of(fmt)
        self.fmt = fmt
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():   # mkdir's own word is only "File exists"
            raise InvalidArgument(f"{folder}: --out names a folder for the puzzles and index.csv, and this is a file")
        if (self.folder / INDEX_NAME).exists():   # its index would be replaced, its puzzles overwritten
            raise InvalidArgument(f"{self.folder / INDEX_NAME}: --out holds an earlier generated set; write the "
                                  "new one to another folder (or remove that one)")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.records: list[dict] = []

    def add(self, generated: GeneratedPuzzle) -> Path:
        """Write one puzzle (goal included where the format carries one); returns its path."""
        path = self.folder / (generated.puzzle.name + self.suffix)
        if path.exists():   # a file of the folder that is not of this set: never overwritten
            raise InvalidArgument(f"{path}: exists, and is not of this set; generate writes new files only "
                                  "(write the set to another folder)")
        data = dump_bytes(generated.puzzle, self.fmt)   # bytes for a binary format such as png
        records = [*self.records, {"file": path.name, **generated.as_record()}]
        # One write of the two: a signal between a puzzle and its index line left a file the
        # index did not list (the index's write was refused after the puzzle's had landed).
        write_together([(path, data), (self.folder / INDEX_NAME, _csv(records))])
        self.records = records
        return path


def _csv(records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=INDEX_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()
