"""The CNF encoding of a colour puzzle: one-hot cells and the regular encoding of each
line's colour automaton (:mod:`nonolab.solvers.colour`).

Cell ``(r, c)`` with value ``v`` (0 background, 1..k colours) is variable
``(r * width + c) * (k + 1) + v + 1``, so the cells come first; exactly one value per
cell (one at-least-one clause, pairwise at-most-one).  Each line's automaton is
unrolled to the transitions on some accepting run (:func:`~nonolab.solvers.colour.layers`)
and encoded with the families of :mod:`.encode` (state and transition variables;
transition, forward, backward and value support clauses), so unit propagation narrows
every cell as far as the complete colour line solver does
(:func:`~nonolab.solvers.colour.solve_line`; tested on every short line).

>>> from nonolab.core import Puzzle, Palette
>>> p = Puzzle(rows=((1, 1),), columns=((1,), (1,)), row_colours=((1, 2),),
...            column_colours=((1,), (2,)), palette=Palette.default_for(2))
>>> enc = encode_colour(p)
>>> enc.cell_var(0, 1, 2), enc.num_cells
(6, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Mapping, Sequence

from nonolab.core.puzzle import Blocks, Puzzle
from nonolab.errors import LimitReached
from nonolab.solvers.cnf.encode import Clause, VarPool
from nonolab.solvers.colour import layers

__all__ = ["ColourEncoding", "encode_colour", "encode_colour_line"]


@dataclass(frozen=True)
class ColourEncoding:
    """The CNF of a colour puzzle; see the module notes for the cell numbering."""

    clauses: list[Clause]
    num_vars: int
    width: int
    height: int
    values: int          # k + 1: the background and the k colours

    def cell_var(self, r: int, c: int, v: int) -> int:
        return (r * self.width + c) * self.values + v + 1

    @property
    def num_cells(self) -> int:
        return self.width * self.height

    @property
    def cell_literals(self) -> int:
        """The variables ``1 .. cell_literals`` are the cells' one-hot values."""
        return self.num_cells * self.values

    def units(self, cells: Mapping[tuple[int, int], int]) -> list[int]:
        """Given cells ``{(row, column): value}`` as literals."""
        return [self.cell_var(r, c, v) for (r, c), v in sorted(cells.items())]

    def implication_clauses(self, implications: Sequence[tuple[tuple[int, int, int], tuple[int, int, int]]]
                            ) -> list[Clause]:
        """``cell (r, c) = a  ->  cell (q, d) = b`` as binary clauses."""
        return [[-self.cell_var(r, c, a), self.cell_var(q, d, b)] for (r, c, a), (q, d, b) in implications]

    def picture(self, model: Sequence[int]) -> bytes:
        """The cell values (one byte each, row-major) of a model whose first literals are the cells."""
        k1 = self.values
        return bytes(next(v for v in range(k1) if model[i * k1 + v] > 0) for i in range(self.num_cells))


def encode_colour_line(blocks: Blocks, cells: Sequence[Sequence[int]], pool: VarPool,
                       tag: Hashable) -> list[Clause]:
    """The clauses that make the one-hot ``cells`` (``cells[i][v]`` is cell i's value-v
    variable) spell a line of ``blocks``; a line no picture fits gets the empty clause.

    >>> pool = VarPool(first=7)
    >>> len(encode_colour_line(((1, 1), (1, 2)), [[1, 2, 3], [4, 5, 6]], pool, "row"))
    18
    """
    n = len(cells)
    if not blocks:
        return [[-cells[i][v]] for i in range(n) for v in range(1, len(cells[i]))]
    steps = layers(blocks, n)
    if n and not steps[0]:
        return [[]]

    def q(i: int, s: int) -> int:
        return pool.id((tag, "q", i, s))

    def t(i: int, s: int, v: int) -> int:
        return pool.id((tag, "t", i, s, v))

    out: list[Clause] = [[q(0, 0)], [q(n, s) for s in sorted({e[2] for e in steps[n - 1]})]]
    for i, edges in enumerate(steps):
        incoming: dict[int, Clause] = {}
        outgoing: dict[int, Clause] = {}
        support: dict[int, Clause] = {v: [-cells[i][v]] for v in range(len(cells[i]))}
        for s, v, nxt in edges:
            tv = t(i, s, v)
            out += [[-tv, q(i, s)], [-tv, cells[i][v]], [-tv, q(i + 1, nxt)]]
            incoming.setdefault(nxt, [-q(i + 1, nxt)]).append(tv)
            outgoing.setdefault(s, [-q(i, s)]).append(tv)
            support[v].append(tv)
        out += list(incoming.values()) + list(outgoing.values()) + list(support.values())
    return out


def encode_colour(puzzle: Puzzle, stop: Callable[[], bool] | None = None) -> ColourEncoding:
    """The one-hot regular encoding of every row and column of a colour puzzle.

    ``stop`` is asked after each line; when it returns true the encoding ends with
    :class:`~nonolab.errors.LimitReached`.
    """
    w, h, k1 = puzzle.width, puzzle.height, puzzle.colours + 1
    pool = VarPool(first=w * h * k1 + 1)

    def var(r: int, c: int, v: int) -> int:
        return (r * w + c) * k1 + v + 1

    clauses: list[Clause] = []
    for r in range(h):
        for c in range(w):
            values = [var(r, c, v) for v in range(k1)]
            clauses.append(values)
            clauses += [[-a, -b] for i, a in enumerate(values) for b in values[i + 1:]]
    lines = [(("row", r), blocks, [[var(r, c, v) for v in range(k1)] for c in range(w)])
             for r, blocks in enumerate(puzzle.coloured_rows)]
    lines += [(("col", c), blocks, [[var(r, c, v) for v in range(k1)] for r in range(h)])
              for c, blocks in enumerate(puzzle.coloured_columns)]
    for tag, blocks, cells in lines:
        if stop is not None and stop():
            raise LimitReached("cnf: stopped while encoding")
        clauses += encode_colour_line(blocks, cells, pool, tag)
    return ColourEncoding(clauses, max(pool.top, w * h * k1), w, h, k1)
