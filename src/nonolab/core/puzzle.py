"""The puzzle: row and column clues, with optional name, metadata and goal picture."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from nonolab.core.grid import Solution
from nonolab.core.violations import clues_of, violations
from nonolab.errors import InvalidPuzzle

Clue = tuple[int, ...]
"""Block lengths of one line, in reading order; ``()`` is a line with no filled cell."""


@dataclass(frozen=True)
class Puzzle:
    """An immutable black-and-white nonogram.

    Two puzzles are equal when their clues are: name, metadata and goal are not compared.

    Args:
        rows: one clue per row, top to bottom.
        columns: one clue per column, left to right.
        name: a title, for messages and file headers.
        metadata: other keys kept from the source file (author, licence, ...).
        goal: the intended picture, if the file has one; it must match the clues.
    Raises:
        InvalidPuzzle: empty size, a block that is not a positive integer, a clue
            longer than its line, row and column totals that differ, or a goal that
            does not give the clues.

    >>> p = Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))
    >>> p.width, p.height
    (2, 2)
    """

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    name: str = field(default="", compare=False)
    metadata: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    goal: Solution | None = field(default=None, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _normalise_clues(self.rows, "row"))
        object.__setattr__(self, "columns", _normalise_clues(self.columns, "column"))
        object.__setattr__(self, "metadata", dict(self.metadata))
        if not self.rows or not self.columns:
            raise InvalidPuzzle(
                f"empty size: {len(self.columns)} columns x {len(self.rows)} rows", kind="size")
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.columns, self.height)):
            for i, clue in enumerate(clues):
                need = sum(clue) + len(clue) - 1 if clue else 0
                if need > length:
                    raise InvalidPuzzle(
                        f"{kind} {i + 1}: clue {' '.join(map(str, clue))} needs {need} cells "
                        f"but the {kind} has {length}", kind=kind, index=i)
        row_total = sum(map(sum, self.rows))
        col_total = sum(map(sum, self.columns))
        if row_total != col_total:
            raise InvalidPuzzle(
                f"row clues fill {row_total} cells but column clues fill {col_total}", kind="size")
        if self.goal is not None:
            problems = violations(self, self.goal)
            if problems:
                raise InvalidPuzzle(f"goal does not match the clues: {problems[0]}", kind="goal")

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)``, the order puzzle files give it in."""
        return self.width, self.height

    def lines(self) -> list[tuple[str, int, Clue]]:
        """Every line as ``(kind, index, clue)``, rows first."""
        return [("row", i, c) for i, c in enumerate(self.rows)] + [
            ("column", i, c) for i, c in enumerate(self.columns)]

    def _repr_svg_(self) -> str | None:
        """The empty grid with its clues (Jupyter; the drawing code loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

    def with_(self, **changes: Any) -> "Puzzle":
        """A copy with some fields replaced (the puzzle itself is immutable)."""
        fields = dict(rows=self.rows, columns=self.columns, name=self.name,
                      metadata=self.metadata, goal=self.goal)
        fields.update(changes)
        return Puzzle(**fields)

    @classmethod
    def from_solution(cls, solution: Solution, name: str = "", **metadata: str) -> "Puzzle":
        """The puzzle whose clues a picture gives, with the picture as its goal.

        >>> Puzzle.from_solution(Solution.from_rows(["#.", "##"])).rows
        ((1,), (2,))
        """
        rows = tuple(clues_of(solution.row_bytes(r)) for r in range(solution.height))
        cols = tuple(clues_of(solution.column_bytes(c)) for c in range(solution.width))
        return cls(rows=rows, columns=cols, name=name, metadata=metadata, goal=solution)

    def transposed(self) -> "Puzzle":
        goal = None
        if self.goal is not None:
            goal = Solution(tuple(self.goal.column(c) for c in range(self.goal.width)))
        return Puzzle(rows=self.columns, columns=self.rows, name=self.name,
                      metadata=self.metadata, goal=goal)


def _normalise_clues(clues: Iterable[Iterable[int]], kind: str) -> tuple[Clue, ...]:
    out = []
    for i, clue in enumerate(clues):
        blocks = []
        for b in clue:
            if isinstance(b, bool) or not isinstance(b, int):
                raise InvalidPuzzle(f"{kind} {i + 1}: block {b!r} is not an integer", kind=kind, index=i)
            if b <= 0:
                raise InvalidPuzzle(f"{kind} {i + 1}: block {b} is not positive", kind=kind, index=i)
            blocks.append(b)
        out.append(tuple(blocks))
    return tuple(out)
