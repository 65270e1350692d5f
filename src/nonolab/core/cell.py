"""One cell of a grid, where Python's 0-based indexes meet people's 1-based rows and columns.

Python and JSON count rows and columns from 0 (``puzzle.rows[0]``, ``[row, column]`` in
every ``--json``); the command line, its messages, ``--given R,C`` and the workbench count
from 1, as people do.  A :class:`Cell` is a ``(row, column)`` tuple, 0-based, that prints
itself 1-based, so the two never meet without a word:

>>> cell = Cell(0, 2)
>>> cell.row, cell.column, cell == (0, 2)
(0, 2, True)
>>> print(cell), cell
(1,3)
(None, Cell(row=0, column=2))
>>> Cell.from_people(1, 3)
Cell(row=0, column=2)
"""

from __future__ import annotations

from typing import NamedTuple


class Cell(NamedTuple):
    """A cell, 0-based (``row``, ``column``); ``str()`` gives it 1-based, ``(row,column)``, as the CLI prints it."""

    row: int
    column: int

    def __str__(self) -> str:
        return f"({self.row + 1},{self.column + 1})"

    @classmethod
    def from_people(cls, row: int, column: int) -> "Cell":
        """The cell a person calls row ``row``, column ``column`` (1-based)."""
        return cls(row - 1, column - 1)
