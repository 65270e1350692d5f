"""The colour engine's step log read into :class:`~nonolab.solvers.steps.Step` records.

The engine logs every narrowing on the search path as a row ``(step, technique, source,
cell, value, depth, removed)``: ``value`` the cell's value when the step decided it, else
-1 and ``removed`` the mask of the values the step ruled out of it.  A step's decided cells
and its values ruled out are each held as a :class:`~nonolab.solvers.steps.CellRun` (bytes),
not as a tuple a cell: as tuples the log cost 409-468 bytes a cell at explain's peak
(benchmarks/log/2026-11-27-compact-15.md).  A log of one piece is read as tuples in plain
Python (no numpy import for a small puzzle); a longer one a piece at a time, as numpy records
of the engine's structs.

>>> rows = [(1, 0, 2, 0, 1, 0, 0b100), (1, 0, 2, 1, -1, 0, 0b10)]   # column 0 of a 2x2 grid
>>> step, = steps_of(rows, 2, 2)
>>> step.describe(), list(step.cells), list(step.ruled_out)
('line: column 1 sets 1 cell, rules out 1 value of 1 cell', [(0, 0, 1)], [(0, 1, 1)])
>>> grouped([log_rows(rows[:1]), log_rows(rows[1:])], 2, 2) == [step]
True
"""

from __future__ import annotations

from itertools import groupby
from typing import Any, Iterable, Iterator, Literal

from nonolab.solvers.steps import CellRun, Step, Technique, step_pieces

_TECHNIQUES = (Technique.LINE, Technique.CONTRADICTION_PROBE, Technique.BOTH_BRANCHES_AGREE, Technique.GUESS)
# The engine's ColourLogRow (engine.hpp) as its binding writes a piece of the log (the engine holds
# it compact), 40 bytes: step, technique, source, cell, value, depth, removed.
LOG_ROW: Any = {"names": ["step", "technique", "source", "cell", "value", "depth", "removed"],
           "formats": ["=i8", "=i4", "=i4", "=i4", "=i4", "=i4", "=u8"],
           "offsets": [0, 8, 12, 16, 20, 24, 32], "itemsize": 40}
LOG_ROWS_PER_PIECE = 1 << 16   # rows read from the engine at once (2.6 MB of structs)


def read_steps(engine: Any, height: int, width: int, back: bytes | None = None) -> list[Step]:
    """The steps of a colour engine's log (its current search path); ``back`` maps the engine's
    values to the puzzle's when it searches the colours the clues use (core.used_colours)."""
    total = engine.step_rows()
    if total <= LOG_ROWS_PER_PIECE:
        return steps_of(engine.steps(), height, width, back)
    return grouped(_blocks(engine, total), height, width, back)


def steps_of(rows: Iterable[tuple[int, ...]], height: int, width: int, back: bytes | None = None) -> list[Step]:
    """Log rows as tuples grouped into steps (one per step number, in order), in plain Python."""
    steps: list[Step] = []
    table = back or bytes(range(256))
    for _, group in groupby(rows, key=lambda row: row[0]):
        members = list(group)
        decided = [m for m in members if m[4] >= 0]
        out = [(m[3], table[v]) for m in members if m[4] < 0 for v in range(m[6].bit_length()) if m[6] >> v & 1]
        _, code, source, _, _, depth, _ = members[0]
        cells = CellRun.of([m[3] for m in decided], [table[m[4]] for m in decided], width)
        ruled_out = CellRun.of([cell for cell, _ in out], [v for _, v in out], width)
        steps.append(_step(code, source, depth, cells, ruled_out, [v for cell, v in out if cell == source],
                           height, width))
    return steps


def grouped(blocks: Iterable[Any], height: int, width: int, back: bytes | None = None) -> list[Step]:
    """Log rows in numpy blocks of :data:`LOG_ROW` (a step may run on from one block into the
    next) grouped into steps: a few Python objects a step, none a cell."""
    import numpy as np

    code: Literal["i", "q"] = "i" if width * height < 2 ** 31 else "q"
    steps: list[Step] = []
    table = np.frombuffer(back or bytes(range(256)), dtype=np.uint8)   # the engine's value -> the puzzle's
    for rows in step_pieces(blocks):
        decided = rows[rows["value"] >= 0]
        cells = CellRun(decided["cell"].astype(code).tobytes(), table[decided["value"]].tobytes(),
                        width, code)
        left = rows[rows["value"] < 0]     # each open cell's mask as 64 bits, value 0 first
        bits = np.unpackbits(left["removed"].astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        at, bit = np.nonzero(bits)         # row-major: the cells in log order, each one's values in order
        values = table[bit]                # (in the puzzle's colours)
        where = left["cell"][at]
        ruled_out = CellRun(where.astype(code).tobytes(), values.tobytes(), width, code)
        source = int(rows[0]["source"])
        steps.append(_step(int(rows[0]["technique"]), source, int(rows[0]["depth"]), cells, ruled_out,
                           values[where == source].tolist(), height, width))
    return steps


def log_rows(rows: Iterable[tuple[int, ...]]) -> Any:
    """Rows ``(step, technique, source, cell, value, depth, removed)`` as a numpy block of :data:`LOG_ROW`.

    >>> log_rows([(1, 0, 2, 0, 1, 0, 4)])["removed"].tolist()
    [4]
    """
    import numpy as np

    return np.array(list(rows), dtype=np.dtype(LOG_ROW))


def _blocks(engine: Any, total: int) -> Iterator[Any]:
    """The engine's log rows as numpy records, a piece at a time (its structs' bytes, no tuple a row)."""
    import numpy as np

    for start in range(0, total, LOG_ROWS_PER_PIECE):
        yield np.frombuffer(engine.step_block(start, start + LOG_ROWS_PER_PIECE), dtype=np.dtype(LOG_ROW))


def _step(code: int, source: int, depth: int, cells: CellRun, ruled_out: CellRun, probed: list[int],
          height: int, width: int) -> Step:
    """One step: technique ``code`` (the engine's), its ``source`` (a line, or the cell probed
    or guessed), the cells it decided, the values it ruled out, and those of them ruled out
    of the source cell (``probed``: what a contradiction probe refuted)."""
    technique, note = _TECHNIQUES[code], ""
    if technique is Technique.LINE:
        where: tuple = ("row", source) if source < height else ("column", source - height)
    else:
        where = ("cell", source // width, source % width)
        if technique is Technique.CONTRADICTION_PROBE:
            note = (f"its other values than {cells[0][2]} lead to a contradiction" if not probed
                    else f"value{'s' * (len(probed) > 1)} {', '.join(map(str, probed))} lead"
                         f"{'s' * (len(probed) == 1)} to a contradiction")
        elif technique is Technique.BOTH_BRANCHES_AGREE:
            note = "every value of this cell implies these cells"
        else:
            note = "a search branch"
    return Step(technique, where, cells, depth, note, ruled_out)
