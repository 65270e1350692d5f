"""Many puzzles in one call of the compiled core: clues in as arrays, answers out as arrays.

The Python face of ``_native.check_many`` (``batch.cpp``): each puzzle is searched by its own
native engine, exactly as one solve would, with no Python between puzzles; this is
what ``nonolab.check_many`` and ``nonolab.census`` run on.  Puzzles are packed as three
int32 arrays (see :func:`pack`): ``sizes`` (height, width per puzzle), ``lengths``
(blocks per line, each puzzle's rows then columns) and ``blocks``.

>>> from nonolab.core import Puzzle
>>> packed = pack([Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), Puzzle(rows=((1,),), columns=((1,),))])
>>> answers = check_arrays(*packed, levels=True)
>>> answers.found.tolist(), answers.state.tolist(), answers.level.tolist()
([2, 1], [1, 0], [-1, 0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, LimitReached

__all__ = ["EXHAUSTED", "ENOUGH", "UNFINISHED", "Answers", "available", "check_arrays", "pack"]

#: What became of a puzzle's count: its space exhausted, max_solutions reached, or
#: stopped by ``puzzle_seconds`` (the caller searches it again with its own limits).
EXHAUSTED, ENOUGH, UNFINISHED = 0, 1, 2
_PROBING = {"none": 0, "contradiction": 1, "full": 2}


def _module() -> Any:
    try:
        import nonolab.solvers.native.compiled._native as _native
    except ImportError as exc:
        raise BackendUnavailable(f"the native engine's batch entry is not built ({exc}); reinstall nonolab "
                                 f"with a C++ compiler present: pip install .") from exc
    return _native


def available() -> bool:
    """Whether the batch entry is built."""
    try:
        _module()
    except BackendUnavailable:
        return False
    return True


@dataclass
class Answers:
    """Per puzzle: ``found`` solutions, ``state`` (EXHAUSTED, ENOUGH, UNFINISHED), ``level``
    (with levels: 0 line, 1 contradiction probing, 2 full probing, 3 none of them decides
    it; -1 not graded), ``nodes`` and ``seconds`` (each puzzle's time), numpy arrays; ``grids`` holds every puzzle's
    ``max_solutions`` grids of state masks (1 empty, 2 filled; those past ``found`` are
    0), puzzle i's from ``offsets[i]``."""

    found: Any
    state: Any
    level: Any
    nodes: Any
    seconds: Any
    grids: Any
    offsets: Any
    max_solutions: int

    def solutions(self, i: int) -> Any:
        """Puzzle i's solutions found, a (found, height*width) array of state masks."""
        rows = self.grids[self.offsets[i]:self.offsets[i + 1]].reshape(self.max_solutions, -1)
        return rows[:int(self.found[i])]


def pack(puzzles: Iterable[Puzzle]) -> tuple[Any, Any, Any]:
    """``(sizes, lengths, blocks)``: black-and-white puzzles as the batch entry's int32 arrays."""
    import numpy as np
    sizes: list[int] = []
    lengths: list[int] = []
    blocks: list[int] = []
    for puzzle in puzzles:
        sizes += (puzzle.height, puzzle.width)
        for clue in (*puzzle.rows, *puzzle.columns):
            lengths.append(len(clue))
            blocks.extend(clue)
    return (np.asarray(sizes, dtype=np.int32), np.asarray(lengths, dtype=np.int32),
            np.asarray(blocks, dtype=np.int32))


def check_arrays(sizes: Any, lengths: Any, blocks: Any, *, max_solutions: int = 2, probing: str = "none",
                 levels: bool = False, puzzle_seconds: float = 3600.0, budget: float = 0.1,
                 cache_bytes: int = 1 << 20, stop: Callable[[], bool] | None = None) -> Answers:
    """Count every packed puzzle's solutions to ``max_solutions``.

    Args:
        probing: the counting engine's probing (``none``, ``contradiction``, ``full``).
        levels: grade each puzzle found unique (see :class:`Answers`).
        puzzle_seconds: a puzzle's count stops (UNFINISHED) after this many seconds.
        budget: seconds per call into the engine: Python gets control back (Ctrl-C) at
            least this often, give or take one puzzle.
        stop: asked between two calls into the engine; once it returns true the count
            ends with :class:`~nonolab.errors.LimitReached` (a census chunk cancelled on a
            Dask worker ends within ``budget`` seconds, not when its last puzzle is counted).

    Raises:
        BackendUnavailable: the batch entry is not built.
        LimitReached: ``stop`` said so.
        ValueError: the arrays do not describe puzzles.
    """
    import numpy as np
    module = _module()
    sizes = np.ascontiguousarray(sizes, dtype=np.int32).reshape(-1, 2)
    lengths = np.ascontiguousarray(lengths, dtype=np.int32)
    blocks = np.ascontiguousarray(blocks, dtype=np.int32)
    count = len(sizes)
    line_at = np.concatenate(([0], np.cumsum(sizes.sum(axis=1))))
    if line_at[-1] != len(lengths):
        raise ValueError(f"the sizes need {line_at[-1]} line lengths, not {len(lengths)}")
    block_at = np.concatenate(([0], np.cumsum(lengths)))[line_at]
    parts: list[tuple] = []
    start = 0
    while start < count:
        if stop is not None and stop():
            raise LimitReached(f"check_arrays: stopped after {start} of {count} puzzles")
        done, *arrays = module.check_many(sizes[start:], lengths[line_at[start]:], blocks[block_at[start]:],
                                     max_solutions, _PROBING[probing], levels, budget, puzzle_seconds, cache_bytes)
        parts.append(arrays)
        start += done
    found, state, level, nodes, seconds, grids = (b"".join(p[i] for p in parts) for i in range(6))
    cells = sizes[:, 0].astype(np.int64) * sizes[:, 1] * max_solutions
    return Answers(np.frombuffer(found, dtype=np.int8), np.frombuffer(state, dtype=np.int8),
                   np.frombuffer(level, dtype=np.int8), np.frombuffer(nodes, dtype=np.int64),
                   np.frombuffer(seconds, dtype=np.float64), np.frombuffer(grids, dtype=np.uint8), np.concatenate(([0], np.cumsum(cells))), max_solutions)
