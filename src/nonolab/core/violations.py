"""The independent checker: every answer of every backend passes through here.

It shares no code with any solver, so a bug in a solver cannot hide itself.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from nonolab.core.grid import Solution
    from nonolab.core.puzzle import Puzzle


_EMPTY_AS_SPACE = bytes.maketrans(b"\x00", b" ")
# A run of one non-background value (DOTALL: the value 10 is a newline byte).
_COLOUR_RUN = re.compile(rb"([^\x00])\1*", re.DOTALL)


def clues_of(line: Iterable[int]) -> tuple[int, ...]:
    """The clue (run lengths of filled cells) of a 0/1 line.

    >>> clues_of([1, 1, 0, 1, 0])
    (2, 1)
    >>> clues_of([0, 0])
    ()
    """
    if isinstance(line, (bytes, bytearray)):
        # The fast path: empty cells become spaces, and split() without an argument skips
        # runs of them (split(b"\x00") made one empty piece per empty cell: a blank line of
        # 5000 cells cost 5000 objects).
        return tuple(map(len, bytes(line).translate(_EMPTY_AS_SPACE).split()))
    runs = []
    run = 0
    for v in line:
        if v:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return tuple(runs)


def colour_runs_of(line: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """The runs of a colour line as ``(length, colour)``; 0 is the background.

    Two neighbouring runs of different colours are two blocks, with or without a gap.

    >>> colour_runs_of([1, 1, 2, 0, 2, 2])
    ((2, 1), (1, 2), (2, 2))
    >>> colour_runs_of(bytes([1, 1, 2, 0, 2, 2]))
    ((2, 1), (1, 2), (2, 2))
    """
    if isinstance(line, (bytes, bytearray)):
        # The fast path (a solution's rows and columns): a regular expression finds each run
        # in C, so the work is a run, not a cell, in Python (a 2000x2000 picture of bands:
        # 4,000 lines of 2,000 cells checked in 0.1 s, not 1.3 s).
        return tuple((m.end() - m.start(), line[m.start()]) for m in _COLOUR_RUN.finditer(line))
    runs: list[tuple[int, int]] = []
    previous = 0
    run = 0
    for v in line:
        if v == previous:
            run += 1 if v else 0
            continue
        if previous:
            runs.append((run, previous))
        previous, run = v, 1
    if previous:
        runs.append((run, previous))
    return tuple(runs)


def _colour_problems(puzzle: "Puzzle", solution: "Solution") -> list[str]:
    """Every line of a colour puzzle whose runs are not its coloured blocks."""
    top = len(puzzle.palette) - 1  # type: ignore[arg-type]
    if solution.colours > top:
        return [f"cell value {solution.colours} is not a colour of the {top}-colour palette"]
    problems: list[str] = []
    for kind, lines, get in (("row", puzzle.coloured_rows, solution.row_bytes),
                             ("column", puzzle.coloured_columns, solution.column_bytes)):
        for i, blocks in enumerate(lines):
            got = colour_runs_of(get(i))
            if got != blocks:
                problems.append(f"{kind} {i + 1}: expected {_shown(blocks)}, got {_shown(got)}")
    return problems


def _shown(blocks: tuple[tuple[int, int], ...]) -> str:
    return "(" + " ".join(f"{n}c{c}" for n, c in blocks) + ")"


def _given_problems(puzzle: "Puzzle", solution: "Solution") -> list[str]:
    """Every given cell the picture does not have."""
    data, w = solution.to_bytes(), solution.width
    return [f"given cell ({r + 1},{c + 1}): expected {v}, got {data[r * w + c]}"
            for r, c, v in puzzle.givens if data[r * w + c] != v]


def violations(puzzle: "Puzzle", solution: "Solution") -> list[str]:
    """Every way ``solution`` breaks ``puzzle``; an empty list means it is a solution.

    >>> from nonolab.core import Puzzle, Solution
    >>> p = Puzzle(rows=((1,), ()), columns=((1,), ()))
    >>> violations(p, Solution.from_rows(["#.", ".."]))
    []
    >>> violations(p, Solution.from_rows([".#", ".."]))
    ['column 1: expected (1,), got ()', 'column 2: expected (), got (1,)']

    A given cell (part of the puzzle, see :class:`~nonolab.core.puzzle.Puzzle`) must
    have its value:

    >>> switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 0): 1})
    >>> violations(switch, Solution.from_rows([".#", "#."]))
    ['given cell (1,1): expected 1, got 0']
    """
    if solution.height != puzzle.height or solution.width != puzzle.width:
        return [f"size: expected {puzzle.width}x{puzzle.height}, got {solution.width}x{solution.height}"]
    givens = _given_problems(puzzle, solution)
    if puzzle.is_colour:
        return givens + _colour_problems(puzzle, solution)
    if solution.to_bytes().translate(None, b"\x00\x01"):
        return [f"cell value {solution.colours}: a black-and-white picture has 0 and 1 only"]
    if _all_lines_match(puzzle, solution):
        return givens
    problems: list[str] = givens
    for r, clue in enumerate(puzzle.rows):
        got = clues_of(solution.row_bytes(r))
        if got != tuple(clue):
            problems.append(f"row {r + 1}: expected {tuple(clue)}, got {got}")
    for c, clue in enumerate(puzzle.columns):
        got = clues_of(solution.column_bytes(c))
        if got != tuple(clue):
            problems.append(f"column {c + 1}: expected {tuple(clue)}, got {got}")
    return problems


# A black-and-white picture as text whose runs of filled cells are words: ``bytes.split()``
# (no separator) then yields exactly the runs, dropping the empty cells between them.
_AS_WORDS = bytes.maketrans(b"\x00\x01", b" #")


def _all_lines_match(puzzle: "Puzzle", solution: "Solution") -> bool:
    """Whether every row and column has its clue, at C speed.

    The picture is translated once so that empty cells are spaces; each line's runs are
    then the words ``split()`` returns (one C call a line, no object per empty cell).
    A 4000x4000 picture is checked in about 0.1 s (most of it taking its 4000 columns,
    strided slices), 2000x2000 in 0.03 s: faster than numpy's whole-grid run lengths on
    the same grids, without importing numpy (measured in one process, benchmarks/RESULTS.md).
    Says nothing of *which* line is wrong: ``violations`` then looks line by line.
    From :data:`_ARRAYS_FROM` cells on, numpy's run lengths of the whole grid
    (:func:`_all_runs_match`) are cheaper: the strided column slices cost a cache miss a cell.
    Neither shares code with a solver.
    """
    if solution.width * solution.height >= _ARRAYS_FROM:
        return _all_runs_match(puzzle, solution)
    text, w = solution.to_bytes().translate(_AS_WORDS), solution.width
    return (all(tuple(map(len, text[r * w:(r + 1) * w].split())) == tuple(clue)
                for r, clue in enumerate(puzzle.rows))
            and all(tuple(map(len, text[c::w].split())) == tuple(clue) for c, clue in enumerate(puzzle.columns)))


# From this many cells on (2048 x 2048) the whole-grid run lengths with numpy beat the
# split of strided slices: 10,000 x 10,000 took 0.21 s a picture against 0.93-1.09 s, 4000 x
# 4000 (random) 0.30 s against 0.56 s, 2000 x 2000 about the same (measured,
# benchmarks/log/2026-11-26-huge-3.md); below it numpy's import does not pay.
_ARRAYS_FROM = 1 << 22
# Cells a slice of lines: bounds the scratch arrays (a few bytes a cell, 8 a run).
_SLICE_CELLS = 1 << 22
_TILE = 256  # rows of a tile of the columns' transposed copy


def _all_runs_match(puzzle: "Puzzle", solution: "Solution", slice_cells: int = _SLICE_CELLS,
                    tile: int = _TILE) -> bool:
    """:func:`_all_lines_match` with numpy: every row's and column's runs of filled cells,
    a slice of lines at a time (columns as a transposed contiguous copy).

    In each line (a row of the slice, padded with an empty cell at both ends) a run starts
    where the difference of neighbouring cells is 1 and ends where it is -1; in row-major
    order starts and ends alternate, so the run lengths are ends - starts, and the line of
    each run is its start's row.  The slice matches when every line has as many runs as
    clue numbers and the lengths, in order, are the clues'.  ``slice_cells`` and ``tile``
    bound the scratch arrays (the tests make them small to cross their edges).
    """
    import numpy as np

    h, w = solution.height, solution.width
    grid = np.frombuffer(solution.to_bytes(), dtype=np.uint8).reshape(h, w)

    def columns(a: int, b: int):
        # Transposed a tile at a time: a tile's rows and its columns both stay in cache (a
        # plain copy of the transposed view took 4-6x as long at 10,000 x 10,000).
        out = np.empty((b - a, h), dtype=np.uint8)
        for r in range(0, h, tile):
            out[:, r:r + tile] = grid[r:r + tile, a:b].T
        return out

    for clues, length, lines in ((puzzle.rows, w, lambda a, b: grid[a:b]), (puzzle.columns, h, columns)):
        counts = np.fromiter(map(len, clues), dtype=np.int64, count=len(clues))
        ends = np.concatenate(([0], np.cumsum(counts)))
        every = np.fromiter((n for clue in clues for n in clue), dtype=np.int64, count=int(ends[-1]))
        step = max(1, slice_cells // length)
        for a in range(0, len(clues), step):
            b = min(len(clues), a + step)
            padded = np.zeros((b - a, length + 2), dtype=np.int8)
            padded[:, 1:-1] = lines(a, b)
            edges = np.diff(padded, axis=1).ravel()
            starts = np.flatnonzero(edges == 1)
            stops = np.flatnonzero(edges == -1)
            line_of = starts // (length + 1)
            if not np.array_equal(np.bincount(line_of, minlength=b - a), counts[a:b]):
                return False
            if not np.array_equal(stops - starts, every[ends[a]:ends[b]]):
                return False
    return True
