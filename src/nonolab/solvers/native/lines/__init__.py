"""One line through a line strategy of the native engine, and the techniques of its steps.

The strategies are compiled C++ (``strategy.hpp``: the complete DP, ``rules.hpp``:
overlap and chain ranges, ``enumerate.hpp``); the registry that names them is
:mod:`~nonolab.solvers.native.modes`.  Cells are the state masks of
:mod:`nonolab.core.grid` (1 empty, 2 filled, 3 unknown).

>>> solve_line((3,), bytes([3, 3, 3, 3]))
b'\\x03\\x02\\x02\\x03'
>>> fix_line_with("overlap", (3,), bytes([3, 3, 3, 3, 1]))
(b'\\x03\\x02\\x02\\x03\\x01', (0, 1, 1, 0, 0))

The engine records every line solve as one ``line`` step.  When the strategy is
rule-based (``overlap``, ``chain-range``), :func:`label_steps` replays the log and, for
each line step, asks the same strategy again -- on the same line state, so it gives the
same answer -- which rule decided each cell, splitting the step into one step per
technique: ``simple-overlap``, ``block-capping``, ``clue-exhaustion``.  Probe and guess
steps are kept as they are.  This runs only when a step log is recorded, so the search
pays nothing for it.
"""

from __future__ import annotations

from nonolab.core.puzzle import Puzzle
from nonolab.errors import Contradiction
from nonolab.solvers.native.compiled import engine_module
from nonolab.solvers.native.modes import DEFAULT_ENUMERATE_CAP, LineStrategy, line_strategy
from nonolab.solvers.steps import Step, Technique

Clue = tuple[int, ...]
# The rule that decided a cell (rules.hpp's Label): 0 none, then these techniques.
UNCHANGED, SIMPLE_OVERLAP, BLOCK_CAPPING, CLUE_EXHAUSTION = 0, 1, 2, 3
TECHNIQUE_OF_LABEL = {SIMPLE_OVERLAP: Technique.SIMPLE_OVERLAP, BLOCK_CAPPING: Technique.BLOCK_CAPPING,
                      CLUE_EXHAUSTION: Technique.CLUE_EXHAUSTION}
_ORDER = [Technique.SIMPLE_OVERLAP, Technique.BLOCK_CAPPING, Technique.CLUE_EXHAUSTION]


def fix_line_with(name: str, clue: Clue, cells: bytes,
                  cap: int = DEFAULT_ENUMERATE_CAP) -> tuple[bytes | None, tuple[int, ...]]:
    """One line through strategy ``name``: (narrowed cells or ``None``, per-cell labels).

    Labels are the rules above (0 for a cell left as it was, and always 0 for the
    strategies that do not label).  ``cap``: ``enumerate``'s budget of block positions.

    Raises:
        InvalidArgument: no strategy has this name.
    """
    strategy = line_strategy(name)
    out, labels = engine_module().fix_line(strategy.code, tuple(clue), bytes(cells), cap)
    return out, tuple(labels)


def fix_line(clue: Clue, cells: bytes | bytearray) -> bytes | None:
    """:func:`solve_line` with ``None`` for a contradiction."""
    return engine_module().fix_line(0, tuple(clue), bytes(cells))[0]


def solve_line(clue: Clue, cells: bytes | bytearray) -> bytes:
    """The line narrowed to what every completion agrees on (the complete DP).

    Args:
        clue: block lengths, ``()`` for an empty line.
        cells: one state mask per cell (1 empty, 2 filled, 3 unknown).

    Returns:
        The new states: every cell that is the same in all arrangements consistent
        with ``cells`` is fixed, the others are ``UNKNOWN``.

    Raises:
        Contradiction: no arrangement of ``clue`` is consistent with ``cells``.
    """
    fixed = fix_line(clue, cells)
    if fixed is None:
        raise Contradiction(f"no arrangement of clue {tuple(clue)} fits the line")
    return fixed


def label_steps(puzzle: Puzzle, steps: list[Step], strategy: LineStrategy, given: bytes | None = None,
                cap: int = DEFAULT_ENUMERATE_CAP) -> list[Step]:
    """``steps`` with each ``line`` step split by the rule that decided its cells.

    ``given`` is the grid before the first step (cells fixed before the root).  A line
    step the strategy cannot reproduce (which would mean a bug) raises ``ValueError``
    rather than being labelled wrongly.
    """
    if not strategy.labelled:
        return list(steps)
    h, w = puzzle.height, puzzle.width
    grid = bytearray(given) if given is not None else bytearray([3]) * (h * w)
    labelled: list[Step] = []
    for step in steps:
        if step.technique is Technique.LINE:
            labelled.extend(_split(puzzle, grid, step, strategy, cap))
        else:
            labelled.append(step)
        for r, c, value in step.cells:
            grid[r * w + c] = 2 if value else 1
    return labelled


def _split(puzzle: Puzzle, grid: bytearray, step: Step, strategy: LineStrategy, cap: int) -> list[Step]:
    kind, index = step.source
    w = puzzle.width
    if kind == "row":
        clue, cells = puzzle.rows[index], bytes(grid[index * w:(index + 1) * w])
        position = 1  # a cell's place along a row is its column
    else:
        clue, cells = puzzle.columns[index], bytes(grid[index::w])
        position = 0
    out, labels = fix_line_with(strategy.name, clue, cells, cap)
    by_technique: dict[Technique, list[tuple[int, int, int]]] = {}
    for cell in step.cells:
        i = cell[position]
        if out is None or labels[i] not in TECHNIQUE_OF_LABEL or out[i] != (2 if cell[2] else 1):
            raise ValueError(f"label_steps: {strategy.name} does not reproduce {step.describe()}")
        by_technique.setdefault(TECHNIQUE_OF_LABEL[labels[i]], []).append(cell)
    return [Step(technique, step.source, tuple(cells), step.depth, step.note)
            for technique, cells in sorted(by_technique.items(), key=lambda item: _ORDER.index(item[0]))]
