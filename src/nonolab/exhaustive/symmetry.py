"""The grid's symmetries, and one picture per orbit with the size of its orbit.

A symmetry of the W x H grid (the flips; for a square also the transposes and quarter
turns: 4 or 8 of them) maps a picture P with clues K to a picture g(P) with clues
g(K) (lines permuted, some read backwards), and every picture with clues K to one with
clues g(K): so K and g(K) have as many pictures, and a line solver that treats every
line alike decides g(K) as it decides K.  Unique, line-solvable and the grade are
properties of the orbit; the census counts one picture of each orbit, weighted by
the orbit's size.

The picture kept is the orbit's least by (clue key, picture): its clue key is the least
of its clue orbit, so every kept picture whose clues are in one clue orbit has the same
key, hence the same first rows' clues, hence the same chunk.  The grouping count stays
whole inside a chunk: the N pictures of a clue orbit of c clue sets are spread evenly
(N / c each), and a clue set is unique when N equals c.

>>> plan = Plan(3, 2)
>>> group = Symmetries.of(plan)
>>> [g.name for g in group.elements]
['identity', 'flip-columns', 'flip-rows', 'half-turn']
>>> pictures = plan.pictures(())
>>> kept, weight = group.orbits(pictures, plan.line_numbers(pictures))
>>> int(weight.sum()), int(kept.sum())  # every 3x2 picture counted once, in 24 orbits
(64, 24)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nonolab.exhaustive.pictures import Plan

__all__ = ["Symmetries", "Symmetry"]


@dataclass(frozen=True)
class Symmetry:
    """One symmetry: ``source[i]`` is the cell of P that becomes cell i of g(P);
    ``lines[j] = (k, reversed)``: line j of g(P) (rows, then columns) is line k of P,
    read backwards when ``reversed``."""

    name: str
    source: tuple[int, ...]
    lines: tuple[tuple[int, bool], ...]


def _elements(width: int, height: int) -> list[Symmetry]:
    names = {(False, False, False): "identity", (False, False, True): "flip-columns",
             (False, True, False): "flip-rows", (False, True, True): "half-turn",
             (True, False, False): "transpose", (True, False, True): "quarter-turn",
             (True, True, False): "three-quarter-turn", (True, True, True): "anti-transpose"}
    out = []
    for swap in ((False, True) if width == height else (False,)):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                def at(r: int, c: int) -> tuple[int, int]:
                    a, b = (c, r) if swap else (r, c)
                    return (height - 1 - a if flip_rows else a), (width - 1 - b if flip_columns else b)
                source = tuple(a * width + b for r in range(height) for c in range(width) for a, b in [at(r, c)])
                rows = [[at(r, c) for c in range(width)] for r in range(height)]
                columns = [[at(r, c) for r in range(height)] for c in range(width)]
                lines = tuple(_line(cells, width, height, row_first=True) for cells in rows) + \
                    tuple(_line(cells, width, height, row_first=False) for cells in columns)
                out.append(Symmetry(names[swap, flip_rows, flip_columns], source, lines))
    return out


def _line(cells: list[tuple[int, int]], width: int, height: int, row_first: bool) -> tuple[int, bool]:
    """The line of P (its index, and whether read backwards) that holds ``cells`` in order.
    A line of one cell is both a row and a column: an image row is then taken as a row."""
    same_row = len({a for a, _ in cells}) == 1 and len(cells) == width
    same_column = len({b for _, b in cells}) == 1 and len(cells) == height
    if same_row and (row_first or not same_column):
        return cells[0][0], len(cells) > 1 and cells[0][1] > cells[1][1]
    assert same_column, cells
    return height + cells[0][1], len(cells) > 1 and cells[0][0] > cells[1][0]


class Symmetries:
    """The symmetries of the W x H grid acting on pictures and on clue numbers
    (``row_clues``, ``column_clues``: the clue tables of :func:`line_clues`)."""

    def __init__(self, row_clues: list, column_clues: list, width: int, height: int):
        import numpy as np
        self.width, self.height = width, height
        self.elements = _elements(width, height)
        self.order = len(self.elements)
        self.row_base, self.column_base = len(row_clues), len(column_clues)

        def reversal(table: list) -> Any:
            number = {clue: i for i, clue in enumerate(table)}
            return np.array([number[tuple(reversed(c))] for c in table], dtype=np.uint64)
        self._reverse = (reversal(row_clues), reversal(column_clues))

    @classmethod
    def of(cls, plan: Plan) -> "Symmetries":
        """The symmetries of ``plan``'s grid."""
        return cls(plan.row_clues, plan.column_clues, plan.width, plan.height)

    def image_numbers(self, g: Symmetry, numbers: Any, lines: int | None = None) -> Any:
        """The clue numbers of g(P) (its first ``lines`` lines) from those of P."""
        import numpy as np
        lines = len(g.lines) if lines is None else lines
        out = np.empty((len(numbers), lines), dtype=np.uint64, order="F")
        for j, (k, backwards) in enumerate(g.lines[:lines]):
            column = numbers[:, k]
            out[:, j] = self._reverse[0 if k < self.height else 1][column] if backwards else column
        return out

    def key(self, numbers: Any) -> Any:
        """The clue key (as :meth:`Plan.keys`) of clue numbers, or of their first rows."""
        return self.image_key(self.elements[0], numbers, numbers.shape[1])

    def image_key(self, g: Symmetry, numbers: Any, lines: int | None = None) -> Any:
        """The clue key of g(P) (of its first ``lines`` lines) from P's clue numbers,
        without building g(P)'s numbers."""
        import numpy as np
        key = np.zeros(len(numbers), dtype=np.uint64)
        for j, (k, backwards) in enumerate(g.lines[:len(g.lines) if lines is None else lines]):
            column = numbers[:, k]
            key *= np.uint64(self.row_base if j < self.height else self.column_base)
            key += self._reverse[0 if k < self.height else 1][column] if backwards else \
                column.astype(np.uint64, copy=False)
        return key

    def image_pictures(self, g: Symmetry, pictures: Any) -> Any:
        """g(P) for every picture P (uint64)."""
        import numpy as np
        out = np.zeros(len(pictures), dtype=np.uint64)
        for i, s in enumerate(g.source):
            out |= ((pictures >> np.uint64(s)) & np.uint64(1)) << np.uint64(i)
        return out

    def row_stage(self) -> list[Symmetry]:
        """The symmetries other than the identity whose image rows are P's rows."""
        return [g for g in self.elements[1:] if all(k < self.height for k, _ in g.lines[:self.height])]

    def prefix_excluded(self, chunk: tuple[int, ...]) -> bool:
        """Whether no picture whose first rows have the clues ``chunk`` is kept: some
        symmetry's image has rows whose first clues, fixed by ``chunk``, come first."""
        for g in self.row_stage():
            image: list[int] = []
            for k, backwards in g.lines[:self.height]:
                if k >= len(chunk):
                    break
                image.append(int(self._reverse[0][chunk[k]]) if backwards else chunk[k])
            if tuple(image) < tuple(chunk[:len(image)]):
                return True
        return False

    def orbits(self, pictures: Any, numbers: Any) -> tuple[Any, Any]:
        """``(kept, weight)``: which pictures are their orbit's least by (clue key,
        picture), a boolean array, and for each the size of its orbit (0 where not kept).

        ``numbers``: the pictures' clue numbers (rows then columns, as :meth:`Plan.line_numbers`).
        """
        import numpy as np
        key = self.key(numbers)
        kept = np.ones(len(pictures), dtype=bool)
        fixed = np.ones(len(pictures), dtype=np.int64)  # the symmetries that map P to itself
        for g in self.elements[1:]:
            other = self.image_key(g, numbers)
            tie = key == other
            images = self.image_pictures(g, pictures[tie])
            kept &= key <= other
            kept[tie] &= pictures[tie] <= images
            fixed[tie] += pictures[tie] == images
        return kept, np.where(kept, self.order // fixed, 0)

    def clue_orbit(self, numbers: Any) -> Any:
        """For clue sets given by their numbers: how many distinct clue sets their orbits hold."""
        import numpy as np
        key = self.key(numbers)
        fixed = np.ones(len(numbers), dtype=np.int64)
        for g in self.elements[1:]:
            fixed += key == self.image_key(g, numbers)
        return self.order // fixed

