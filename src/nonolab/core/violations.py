"""The independent checker: every answer of every backend passes through here.

It shares no code with any solver, so a bug in a solver cannot hide itself.  The lines'
runs are counted by a small compiled module of its own (``checker/check.cpp``, built into
``nonolab.core._check`` with the package), one pass over the picture in memory order;
the tests hold it to a plain Python check line by line (``tests/reference.py``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable

from nonolab.core.grid import require_solution
from nonolab.errors import MissingDependency

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

    The size, the cell values and the givens are checked here; the lines by the compiled
    checker (``checker/check.cpp``: run lengths, no solver's code), which names each wrong
    row and column with its runs.

    Raises:
        MissingDependency: the compiled checker was not built (installing nonolab builds it).
    """
    require_solution(solution, "violations")
    if solution.height != puzzle.height or solution.width != puzzle.width:
        return [f"size: expected {puzzle.width}x{puzzle.height}, got {solution.width}x{solution.height}"]
    problems = _given_problems(puzzle, solution) if puzzle.givens else []
    data = solution.to_bytes()
    if puzzle.is_colour:
        top = len(puzzle.palette) - 1  # type: ignore[arg-type]
        # A value beyond the palette, found at C speed (Solution.colours, the highest value, is
        # max() over the cells in Python when not known: 11 ms a check of 1000x1000 colour cells,
        # ten times the line check's; it words the message only).
        if data.translate(None, _PALETTE_VALUES[min(top, 255)]):
            return problems + [f"cell value {solution.colours} is not a colour of the {top}-colour palette"]
        wrong = _wrong_lines()(data, solution.width, puzzle.rows, puzzle.columns,
                               puzzle.row_colours, puzzle.column_colours)
        for kind, i, got in wrong:
            blocks = (puzzle.coloured_columns if kind else puzzle.coloured_rows)[i]
            problems.append(f"{_KINDS[kind]} {i + 1}: expected {_shown(blocks)}, got {_shown(got)}")
        return problems
    if data.translate(None, b"\x00\x01"):
        return [f"cell value {solution.colours}: a black-and-white picture has 0 and 1 only"]
    for kind, i, got in _wrong_lines()(data, solution.width, puzzle.rows, puzzle.columns):
        problems.append(f"{_KINDS[kind]} {i + 1}: expected {tuple((puzzle.columns if kind else puzzle.rows)[i])}, "
                      f"got {got}")
    return problems


_KINDS = ("row", "column")
#: The cell values of a palette of ``k`` colours and the background, by ``k``.
_PALETTE_VALUES = tuple(bytes(range(k + 1)) for k in range(256))
_compiled: Any = None


def _wrong_lines() -> Any:
    """The compiled checker's ``wrong_lines`` (imported at the first check).

    No fallback: the check every answer passes is this one.  The extension is built with the
    package, as the engines are; a tree where it was not built says so at the first check.
    """
    global _compiled
    if _compiled is None:
        try:
            from nonolab.core import _check   # type: ignore[attr-defined]  # (compiled: mypy cannot read it)
        except ImportError as exc:
            raise MissingDependency(
                f"nonolab's solution checker needs its compiled part, nonolab.core._check ({exc}); reinstall "
                f"nonolab with a C++ compiler present: pip install .") from exc
        _compiled = _check.wrong_lines
    return _compiled
