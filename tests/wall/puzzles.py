"""The wall's random small puzzles, black-and-white and colour, from a seed.

Three kinds, so that every outcome occurs:

* ``picture``: the clues of a random picture (at least one solution; often unique on
  dense pictures, often several on sparse ones);
* ``runs``: a picture drawn as runs (a cell repeats its left neighbour or starts a new
  run of the background or a random colour), so blocks of different colours touch;
* ``mixed``: the rows of one random picture and the columns of another with the same
  number of cells of each colour (the first one's cells shuffled): clues no picture
  need have, so contradictions and many-solution puzzles are common.

Sides run from 1 (1xN, Nx1 and one-cell lines) to ``max_side``, mostly near it; empty lines come from
sparse pictures.  Each puzzle also carries a few random givens (cells of a random
picture of the same size, so they may or may not agree with any solution) for the
backends that declare ``GIVEN_CELLS``, and one random implication for ``IMPLICATIONS``.
Clues are computed here with the oracle's own :func:`~tests.wall.brute.runs`.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from tests.wall.brute import runs

KINDS = ("picture", "runs", "mixed")


@dataclass(frozen=True)
class Case:
    """One random puzzle as plain data, and how it was made (to name and reproduce it)."""

    seed: str
    kind: str
    colours: int                                   # 1: black and white
    rows: tuple[tuple[tuple[int, int], ...], ...]   # (length, colour) blocks
    columns: tuple[tuple[tuple[int, int], ...], ...]
    givens: dict = field(default_factory=dict)      # (row, column) -> value
    implication: tuple = ()                          # ((r, c, v), (r, c, v)) or ()

    @property
    def values(self) -> int:
        return self.colours + 1

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    def puzzle(self):
        """The :class:`~nonolab.core.Puzzle` of these clues."""
        from nonolab.core import Palette, Puzzle

        lengths = lambda lines: tuple(tuple(n for n, _ in line) for line in lines)  # noqa: E731
        if self.colours == 1:
            return Puzzle(rows=lengths(self.rows), columns=lengths(self.columns), name=self.seed)
        colours = lambda lines: tuple(tuple(c for _, c in line) for line in lines)  # noqa: E731
        return Puzzle(rows=lengths(self.rows), columns=lengths(self.columns), row_colours=colours(self.rows),
                      column_colours=colours(self.columns), palette=Palette.default_for(self.colours),
                      name=self.seed)


def _side(rnd: random.Random, max_side: int) -> int:
    """A side: any length a quarter of the time (1xN grids, one-cell lines), else one of
    the three longest (where probing has room to go wrong: colour full probing once lost
    solutions on 1 in 35 6x6 puzzles of two colours, on almost no 3x3 one)."""
    return rnd.randint(1, max_side) if rnd.random() < 0.25 else rnd.randint(max(1, max_side - 2), max_side)


def _random_picture(rnd: random.Random, h: int, w: int, colours: int, density: float | None = None
                    ) -> list[list[int]]:
    # Sparse pictures weigh most: their many solutions are where probing once went wrong.
    density = rnd.choice((0.2, 0.3, 0.3, 0.4, 0.5, 0.7)) if density is None else density
    return [[rnd.randint(1, colours) if rnd.random() < density else 0 for _ in range(w)] for _ in range(h)]


def _runs_picture(rnd: random.Random, h: int, w: int, colours: int) -> list[list[int]]:
    background = rnd.choice((0.2, 0.4, 0.6))
    rows = []
    for _ in range(h):
        row: list[int] = []
        for c in range(w):
            if c and rnd.random() < 0.5:
                row.append(row[-1])
            else:
                row.append(0 if rnd.random() < background else rnd.randint(1, colours))
        rows.append(row)
    return rows


def _clues(picture: list[list[int]]) -> tuple[tuple, tuple]:
    return (tuple(runs(row) for row in picture),
            tuple(runs([row[c] for row in picture]) for c in range(len(picture[0]))))


def case(seed: str, colours: int, max_side: int = 6) -> Case:
    """The puzzle of ``seed`` (any string): a kind, a size up to ``max_side`` and its
    clues, with ``colours`` foreground colours (1: black and white).

    >>> c = case("doc-1", 3, 4)
    >>> c.colours, 1 <= c.height <= 4, c == case("doc-1", 3, 4)
    (3, True, True)
    """
    rnd = random.Random(seed)
    kind = rnd.choice(KINDS + ("picture",))
    h, w = _side(rnd, max_side), _side(rnd, max_side)
    draw = _runs_picture if kind == "runs" else _random_picture
    picture = draw(rnd, h, w, colours)
    rows, columns = _clues(picture)
    if kind == "mixed":
        cells = [v for row in picture for v in row]
        rnd.shuffle(cells)
        _, columns = _clues([cells[r * w:(r + 1) * w] for r in range(h)])
    other = _random_picture(rnd, h, w, colours)
    chosen = rnd.sample([(r, c) for r in range(h) for c in range(w)], rnd.randint(0, min(3, h * w)))
    givens = {(r, c): other[r][c] for r, c in chosen}
    cells = [(r, c) for r in range(h) for c in range(w)]
    (r1, c1), (r2, c2) = rnd.choice(cells), rnd.choice(cells)
    implication = ((r1, c1, other[r1][c1]), (r2, c2, picture[r2][c2]))
    return Case(seed, kind, colours, rows, columns, givens, implication)


def picture_case(seed: str, height: int, width: int, colours: int, density: float) -> Case:
    """The puzzle of one random picture of this size, colours and density (no givens).

    >>> picture_case("doc", 2, 3, 2, 0.5).width
    3
    """
    rows, columns = _clues(_random_picture(random.Random(seed), height, width, colours, density))
    return Case(seed, "picture", colours, rows, columns)


def busy_cases(seed: int, count: int, colour: bool, side: int = 8, start: int = 0) -> list[Case]:
    """``count`` puzzles of sparse random ``side`` x ``side`` pictures (density 0.2-0.3;
    ``colour``: two colours), numbered from ``start``.  Counted to 64 they make a learning
    engine learn: lcg needs a median of 1-3 conflicts on them, 9-14 at the 90th percentile,
    where on :func:`cases`'s 7x7 puzzles it needs none on three in four, so that the options
    that act after some conflicts (a shake, vivification, a rescue) act.  Each carries up to
    two random givens, as :func:`case`'s do.

    >>> len(busy_cases(1, 2, True)), busy_cases(1, 2, True)[0].colours
    (2, 2)
    """
    out = []
    for i in range(start, start + count):
        name = f"busy-{'colour' if colour else 'bw'}-{seed}-{i}"
        rnd = random.Random(name)
        made = picture_case(name, side, side, 2 if colour else 1, rnd.choice((0.2, 0.25, 0.3)))
        other = _random_picture(rnd, side, side, made.colours)
        chosen = rnd.sample([(r, c) for r in range(side) for c in range(side)], rnd.randint(0, 2))
        out.append(dataclasses.replace(made, givens={(r, c): other[r][c] for r, c in chosen}))
    return out


def cases(seed: int, count: int, colour: bool, max_side: int = 6, start: int = 0) -> list[Case]:
    """``count`` puzzles of a run (``colour``: 2-4 colours each, two most often, where
    a cell's three values leave most room for probing to err; else black and white),
    numbered from ``start``: the same arguments give the same puzzles."""
    out = []
    for i in range(start, start + count):
        name = f"{'colour' if colour else 'bw'}-{seed}-{i}"
        colours = random.Random(name).choice((2, 2, 2, 3, 3, 4)) if colour else 1
        out.append(case(name, colours, max_side))
    return out
