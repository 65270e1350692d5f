"""The independent checker: every answer of every backend passes through here.

It shares no code with any solver, so a bug in a solver cannot hide itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from nonolab.core.grid import Solution
    from nonolab.core.puzzle import Puzzle


def clues_of(line: Iterable[int]) -> tuple[int, ...]:
    """The clue (run lengths of filled cells) of a 0/1 line.

    >>> clues_of([1, 1, 0, 1, 0])
    (2, 1)
    >>> clues_of([0, 0])
    ()
    """
    if isinstance(line, (bytes, bytearray)):  # the fast path: runs are the non-empty pieces
        return tuple(len(piece) for piece in bytes(line).split(b"\x00") if piece)
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


def verify(puzzle: "Puzzle", solution: "Solution") -> list[str]:
    """Every way ``solution`` breaks ``puzzle``; an empty list means it is a solution.

    >>> from nonolab.core import Puzzle, Solution
    >>> p = Puzzle(rows=((1,), ()), columns=((1,), ()))
    >>> verify(p, Solution.from_rows(["#.", ".."]))
    []
    >>> verify(p, Solution.from_rows([".#", ".."]))
    ['column 1: expected (1,), got ()', 'column 2: expected (), got (1,)']
    """
    problems: list[str] = []
    if solution.height != puzzle.height or solution.width != puzzle.width:
        return [f"size: expected {puzzle.width}x{puzzle.height}, got {solution.width}x{solution.height}"]
    for r, clue in enumerate(puzzle.rows):
        got = clues_of(solution.row_bytes(r))
        if got != tuple(clue):
            problems.append(f"row {r + 1}: expected {tuple(clue)}, got {got}")
    for c, clue in enumerate(puzzle.columns):
        got = clues_of(solution.column_bytes(c))
        if got != tuple(clue):
            problems.append(f"column {c + 1}: expected {tuple(clue)}, got {got}")
    return problems
