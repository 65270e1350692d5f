"""Records of deductions: what was learnt, by which technique, from where.

The shared vocabulary of step logs: the native engine's propagation, probing and
search append to one, and composite strategies (``auto``) add the phases they run.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Iterator, Literal

from nonolab.core.grid import EMPTY, FILLED, UNDECIDED, Grid, ValueGrid
from nonolab.core.puzzle import Puzzle
from nonolab.core.words import counted


class Technique(str, Enum):
    """The fixed vocabulary of the step log, weakest first."""

    LINE = "line"                          # a line solver (the complete DP, or enumeration) on one line
    SIMPLE_OVERLAP = "simple-overlap"      # cells every position of a block covers (rule-based strategies)
    BLOCK_CAPPING = "block-capping"        # the two ends of a run of boxes that is a whole block
    CLUE_EXHAUSTION = "clue-exhaustion"    # cells no block of the clue can reach
    CONTRADICTION_PROBE = "contradiction-probe"  # one value of a cell led to a contradiction
    BOTH_BRANCHES_AGREE = "both-branches-agree"  # both values of a cell imply the same cells
    GUESS = "guess"                        # a search branch: nothing proves it
    DEPTH2_PROBE = "depth-2-probe"         # a probe whose trials probe too refuted a value / agreed
    CDCL = "cdcl"                          # a clause-learning solver decided the rest

    @property
    def is_search(self) -> bool:
        """Whether a step of this kind is search, not deduction: a guess, or what a
        clause-learning solver decided (its cells are one solution's, not forced).

        >>> Technique.CDCL.is_search, Technique.LINE.is_search
        (True, False)
        """
        return self in (Technique.GUESS, Technique.CDCL)


class CellRun(Sequence):
    """The cells one step set, each ``(row, column, value)``, kept as two byte strings (the
    cells' row-major indices and their values) rather than a Python tuple a cell.

    Why: a line step of a blank 10,000-wide grid sets 10,000 cells, and a blank grid's log
    sets every cell; as tuples that was about 160 bytes a cell (16 GB at 100 M cells).
    Held this way a step is a few objects whatever its size, about 5 bytes a cell.  It
    reads (iterates, indexes, compares) as the tuple of ``(row, column, value)`` it stands for.

    >>> run = CellRun.of([3, 4], [1, 0], width=3)
    >>> list(run), len(run), run[1], run == ((1, 0, 1), (1, 1, 0))
    ([(1, 0, 1), (1, 1, 0)], 2, (1, 1, 0), True)
    """

    __slots__ = ("_index", "_values", "_code", "_width")

    def __init__(self, index: bytes, values: bytes, width: int, code: Literal["i", "q"] = "i"):
        self._index, self._values, self._width, self._code = index, values, width, code

    @classmethod
    def of(cls, index: Iterable[int], values: Iterable[int], width: int) -> "CellRun":
        """From cell indices (row-major) and their values."""
        cells = array("q", index)
        code: Literal["i", "q"] = "i" if not cells or max(cells) < 2 ** 31 else "q"
        return cls(array(code, cells).tobytes(), bytes(values), width, code)

    def indices(self) -> memoryview:
        """The cells' row-major indices (a read-only view, no copy)."""
        return memoryview(self._index).cast(self._code)

    def values(self) -> bytes:
        """The cells' values, in the order of :meth:`indices`."""
        return self._values

    def blocks(self, size: int) -> Iterator[tuple[list[int], list[int], list[int]]]:
        """The cells ``size`` at a time, each block as three lists: rows, columns, values
        (computed in numpy a block at a time, never a tuple a cell of the whole run).

        >>> list(CellRun.of([3, 4, 5], [1, 0, 1], width=3).blocks(2))
        [([1, 1], [0, 1], [1, 0]), ([1], [2], [1])]
        """
        import numpy as np

        index = np.frombuffer(self._index, dtype=np.int64 if self._code == "q" else np.int32)
        values = np.frombuffer(self._values, dtype=np.uint8)
        for at in range(0, len(values), size):
            part = index[at:at + size]
            yield (part // self._width).tolist(), (part % self._width).tolist(), values[at:at + size].tolist()

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        width = self._width
        for x, value in zip(self.indices(), self._values):
            yield x // width, x % width, value

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self)[i]
        x = self.indices()[i]
        return x // self._width, x % self._width, self._values[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CellRun):
            return (self._width == other._width and self._values == other._values
                    and self.indices().tolist() == other.indices().tolist())
        if isinstance(other, (tuple, list)):
            return len(other) == len(self) and all(a == tuple(b) for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"CellRun({counted(len(self), 'cell')})"

    def __reduce__(self):
        return CellRun, (self._index, self._values, self._width, self._code)


@dataclass(frozen=True)
class Step:
    """One deduction.

    Attributes:
        technique: how it was found.
        source: the line (``("row", r)`` / ``("column", c)``) or cell
            (``("cell", r, c)``) it came from, 0-based, or the solver
            (``("solver", name)``) that decided it.
        cells: the cells it set, as ``(row, column, value)`` with value 1 filled,
            0 empty (in a colour puzzle, the colour index, 0 the background): a tuple,
            or (from the native engine's log) a :class:`CellRun`, which reads the same.
        depth: the search depth it happened at (0 before any guess).
        note: a short human remark (e.g. which probe value failed).
        ruled_out: colour puzzles: the values it ruled out of cells it left open, as
            ``(row, column, value)`` (a tuple, or from the native engine a :class:`CellRun`);
            a later step may rest on them, so they are part of what the step shows (black
            and white: empty, every narrowing decides a cell).
    """

    technique: Technique
    source: tuple
    cells: Sequence[tuple[int, int, int]]
    depth: int = 0
    note: str = ""
    ruled_out: Sequence[tuple[int, int, int]] = ()

    def describe(self) -> str:
        kind = self.source[0]
        if kind == "cell":
            where = f"cell (row {self.source[1] + 1}, column {self.source[2] + 1})"
        elif kind == "solver":
            where = f"solver {self.source[1]}"
        else:
            where = f"{kind} {self.source[1] + 1}"
        kind = f"{self.technique.value} (search)" if self.technique.is_search else self.technique.value
        sets = f"sets {counted(len(self.cells), 'cell')}"
        if self.ruled_out:
            values, cells = len(self.ruled_out), len({(r, c) for r, c, _ in self.ruled_out})
            rules = f"rules out {counted(values, 'value')} of {counted(cells, 'cell')}"
            sets = f"{sets}, {rules}" if self.cells else rules
        text = f"{kind}: {where} {sets}"
        return text + (f" ({self.note})" if self.note else "")

    def as_dict(self) -> dict:
        data = {"technique": self.technique.value, "search": self.technique.is_search, "source": list(self.source),
                "cells": [list(c) for c in self.cells], "depth": self.depth, "note": self.note}
        if self.ruled_out:
            data["ruled_out"] = [list(c) for c in self.ruled_out]
        return data

    def json_chunks(self, cells_per_chunk: int = 1 << 16) -> Iterator[str]:
        """The JSON text of :meth:`as_dict`, a piece at a time: the cells (and the values ruled
        out) ``cells_per_chunk`` at a time, so that a step of millions of cells (a blank grid's
        first line step sets them all) is never a Python list a cell (about 200 bytes a cell,
        and its text).

        >>> step = Step(Technique.LINE, ("row", 0), CellRun.of([0, 2], [1, 0], width=3),
        ...             ruled_out=CellRun.of([1, 1], [0, 2], width=3))
        >>> import json; json.loads("".join(step.json_chunks(1))) == step.as_dict()
        True
        """
        import json

        head = {"technique": self.technique.value, "search": self.technique.is_search, "source": list(self.source)}
        tail = json.dumps({"depth": self.depth, "note": self.note})
        yield json.dumps(head)[:-1] + ', "cells": ['
        yield from _cells_json(self.cells, cells_per_chunk)
        if not self.ruled_out:
            yield "], " + tail[1:]
            return
        yield "], " + tail[1:-1] + ', "ruled_out": ['
        yield from _cells_json(self.ruled_out, cells_per_chunk)
        yield "]}"


def _cells_json(cells: Sequence[tuple[int, int, int]], per_chunk: int) -> Iterator[str]:
    """The JSON text of ``cells`` as a list's items (``[r, c, v], ...``), ``per_chunk`` at a time."""
    import json

    if isinstance(cells, CellRun):
        for n, (rows, columns, values) in enumerate(cells.blocks(per_chunk)):
            text = ", ".join(f"[{r}, {c}, {v}]" for r, c, v in zip(rows, columns, values))
            yield text if n == 0 else ", " + text
    else:
        yield ", ".join(json.dumps(list(c)) for c in cells)


def replay(puzzle: Puzzle, steps: Iterable[Step]) -> Iterator[tuple[Step, Grid | ValueGrid]]:
    """Yield each step with the grid as it stands after it (the same Grid object, updated).

    The grid starts with the puzzle's givens set (they are part of the puzzle, known
    before any step).  A step only ever narrows unknown cells; replaying a log that sets a cell to two
    different values would mean a corrupt log, so it raises ``ValueError``.  A colour
    puzzle's grid is a :class:`~nonolab.core.grid.ValueGrid` (each cell's colour index
    once decided), a black-and-white one's a :class:`~nonolab.core.grid.Grid`.

    >>> p = Puzzle(rows=((1,),), columns=((1,),))
    >>> [g.to_text() for _, g in replay(p, [Step(Technique.LINE, ("row", 0), ((0, 0, 1),))])]
    ['#']
    """
    if puzzle.is_colour:
        yield from _replay_values(puzzle, steps)
        return
    grid = Grid(puzzle.height, puzzle.width)
    for r, c, value in puzzle.givens:
        grid.set(r, c, FILLED if value else EMPTY)
    for step in steps:
        for r, c, value in step.cells:
            state = FILLED if value else EMPTY
            current = grid.get(r, c)
            if not current & state:
                raise ValueError(f"step log sets cell ({r}, {c}) twice to different values")
            grid.set(r, c, state)
        yield step, grid


def _replay_values(puzzle: Puzzle, steps: Iterable[Step]) -> Iterator[tuple[Step, ValueGrid]]:
    """The colour replay: besides the cells decided, the values each step ruled out, so
    that a log which decides a cell to a value an earlier step ruled out (or rules out
    the value a cell was decided to, or every value of a cell) is refused as corrupt."""
    grid = ValueGrid(puzzle.height, puzzle.width)
    for r, c, value in puzzle.givens:
        grid.set(r, c, value)
    out: dict[tuple[int, int], set[int]] = {}   # the values ruled out of each open cell
    for step in steps:
        for r, c, value in step.ruled_out:
            if grid.get(r, c) != UNDECIDED:
                raise ValueError(f"step log rules a value out of cell ({r}, {c}), which was decided")
            out.setdefault((r, c), set()).add(value)
            if len(out[(r, c)]) > puzzle.colours:
                raise ValueError(f"step log rules every value out of cell ({r}, {c})")
        for r, c, value in step.cells:
            current = grid.get(r, c)
            if current != UNDECIDED and current != value:
                raise ValueError(f"step log sets cell ({r}, {c}) twice to different values")
            if value in out.get((r, c), ()):
                raise ValueError(f"step log sets cell ({r}, {c}) to {value}, which an earlier step ruled out")
            grid.set(r, c, value)
        yield step, grid


def step_pieces(blocks: Iterable[Any]) -> Iterator[Any]:
    """Log rows in numpy record blocks with a ``step`` field, ordered by step, regrouped one
    array per step (a step may run on from one block into the next): what the engines' long
    logs are read through, a piece at a time.

    >>> import numpy as np
    >>> blocks = [np.array([(1,), (2,)], dtype=[("step", "i8")]), np.array([(2,), (3,)], dtype=[("step", "i8")])]
    >>> [piece["step"].tolist() for piece in step_pieces(blocks)]
    [[1], [2, 2], [3]]
    """
    import numpy as np

    pending: list[Any] = []        # the pieces of the step under way (rows of one step id)
    for block in blocks:
        if not len(block):
            continue
        ids = block["step"]
        bounds = [0, *(np.flatnonzero(ids[1:] != ids[:-1]) + 1).tolist(), len(block)]
        for a, b in zip(bounds, bounds[1:]):
            if pending and pending[0]["step"][0] != ids[a]:
                yield pending[0] if len(pending) == 1 else np.concatenate(pending)
                pending.clear()
            pending.append(block[a:b])
    if pending:
        yield pending[0] if len(pending) == 1 else np.concatenate(pending)
