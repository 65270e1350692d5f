"""Human technique labels for the line steps of a rule-based line strategy (the human techniques).

The compiled propagation records every line solve as one ``line`` step.  When the
strategy is rule-based (``overlap``, ``chain-range``), this module replays the log
and, for each line step, asks the same strategy again -- on the same line state, so
it gives the same answer -- which rule decided each cell, splitting the step into
one step per technique: ``simple-overlap``, ``block-capping``, ``clue-exhaustion``.
Probe and guess steps are kept as they are.  This runs only when a step log is
recorded, so the hot loops pay nothing for it.
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.solvers.native.line_rules import BLOCK_CAPPING, CLUE_EXHAUSTION, SIMPLE_OVERLAP
from nonolab.solvers.native.strategies import LineStrategy, fix_line_with
from nonolab.solvers.steps import Step, Technique

TECHNIQUE_OF_LABEL = {SIMPLE_OVERLAP: Technique.SIMPLE_OVERLAP, BLOCK_CAPPING: Technique.BLOCK_CAPPING,
                      CLUE_EXHAUSTION: Technique.CLUE_EXHAUSTION}


def label_steps(puzzle: Puzzle, steps: list[Step], strategy: LineStrategy, given: bytes | None = None,
                cap: int | None = None) -> list[Step]:
    """``steps`` with each ``line`` step split by the rule that decided its cells.

    ``given`` is the grid before the first step (cells fixed before the root).
    A line step the strategy cannot reproduce (which would mean a bug) raises
    ``ValueError`` rather than being labelled wrongly.
    """
    if not strategy.labelled:
        return list(steps)
    h, w = puzzle.height, puzzle.width
    grid = bytearray(given) if given is not None else bytearray([3]) * (h * w)
    labelled: list[Step] = []
    for step in steps:
        if step.technique is Technique.LINE:
            labelled.extend(_split(puzzle, grid, step, strategy))
        else:
            labelled.append(step)
        for r, c, value in step.cells:
            grid[r * w + c] = 2 if value else 1
    return labelled


def _split(puzzle: Puzzle, grid: bytearray, step: Step, strategy: LineStrategy) -> list[Step]:
    kind, index = step.source
    w = puzzle.width
    if kind == "row":
        clue, cells = puzzle.rows[index], bytes(grid[index * w:(index + 1) * w])
        position = 1  # a cell's place along a row is its column
    else:
        clue, cells = puzzle.columns[index], bytes(grid[index::w])
        position = 0
    out, labels = fix_line_with(strategy.name, clue, cells)
    by_technique: dict[Technique, list[tuple[int, int, int]]] = {}
    for cell in step.cells:
        i = cell[position]
        if out is None or labels[i] not in TECHNIQUE_OF_LABEL or out[i] != (2 if cell[2] else 1):
            raise ValueError(f"label_steps: {strategy.name} does not reproduce {step.describe()}")
        by_technique.setdefault(TECHNIQUE_OF_LABEL[labels[i]], []).append(cell)
    return [Step(technique, step.source, tuple(cells), step.depth, step.note)
            for technique, cells in sorted(by_technique.items(), key=lambda item: _ORDER.index(item[0]))]


_ORDER = [Technique.SIMPLE_OVERLAP, Technique.BLOCK_CAPPING, Technique.CLUE_EXHAUSTION]
