"""The grid with its clues beside it for the terminal, as a rich renderable: row clues
on the left, column clues stacked above, a rule every five cells; in colour where the
terminal has it (rich drops the colours for a pipe or ``NO_COLOR``, and the picture
still reads: ``█`` filled, ``·`` empty, ``?`` undecided).  A colour solution is drawn in
its palette's RGB colours, each clue number in its block's colour, with a legend line
naming the colours and their characters.  ``compact`` draws one character per cell (for
a grid too wide for the terminal otherwise).

>>> from rich.console import Console
>>> from nonolab.core import Solution
>>> console = Console(width=40, color_system=None)
>>> with console.capture() as out:
...     console.print(grid_with_clues(Puzzle(rows=((2,), (1,)), columns=((2,), (1,))),
...                                   Solution.from_rows(["##", "#."])))
>>> print(out.get())
   2 1
2 ████
1 ██ ·
<BLANKLINE>
"""

from __future__ import annotations

from typing import Any, Iterator

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument

CLUE_STYLE, RULE_STYLE, EMPTY_STYLE, UNKNOWN_STYLE = "bold cyan", "grey50", "grey50", "yellow"


class GridWithClues:
    """The renderable :func:`grid_with_clues` returns (``rich.console.Console.print`` it)."""

    def __init__(self, puzzle: Puzzle, states: bytes, values: bytes | None = None, compact: bool = False):
        self.puzzle, self.states, self.values, self.compact = puzzle, states, values, compact
        digits = max(len(str(n)) for clue in puzzle.columns for n in (clue or (0,)))
        self.cell_width = 1 if compact else max(2, digits + 1)   # a space between neighbouring column clues
        self.clue_width = max(len(" ".join(map(str, clue or (0,)))) for clue in puzzle.rows)
        self.width = self.clue_width + 1 + puzzle.width * self.cell_width + (puzzle.width - 1) // 5
        """Characters per line."""

    def _row(self, r: int) -> list[tuple[str, str]]:
        w, cw = self.puzzle.width, self.cell_width
        parts: list[tuple[str, str]] = []
        for c in range(w):
            if c and c % 5 == 0:
                parts.append(("│", RULE_STYLE))
            state = self.states[r * w + c]
            if self.values is not None and self.values[r * w + c]:
                parts.append(("█" * cw, self._style(self.values[r * w + c])))
            elif state == FILLED:
                parts.append(("█" * cw, ""))
            elif state == EMPTY:
                parts.append((" " * (cw - 1) + "·", EMPTY_STYLE))
            else:
                parts.append((" " * (cw - 1) + "?", UNKNOWN_STYLE))
        return parts

    def _style(self, value: int) -> str:
        r, g, b = self.puzzle.palette.colours[value].rgb  # type: ignore[union-attr]
        return f"rgb({r},{g},{b})"

    def _numbers(self, kind: int, line: int, clue: tuple[int, ...]) -> list[tuple[str, str]]:
        """A row's clue as segments: each number in its block's colour in a colour puzzle."""
        numbers = clue or (0,)
        if not self.puzzle.is_colour or not clue:
            return [(" ".join(map(str, numbers)), CLUE_STYLE)]
        blocks = (self.puzzle.coloured_rows, self.puzzle.coloured_columns)[kind][line]
        parts: list[tuple[str, str]] = []
        for i, (n, colour) in enumerate(blocks):
            parts.append(((" " if i else "") + str(n), "bold " + self._style(colour)))
        return parts

    def legend(self) -> list[tuple[str, str]]:
        """A colour puzzle's colours, each a swatch, its name and its character."""
        palette = self.puzzle.palette
        if not self.puzzle.is_colour or palette is None:
            return []
        parts: list[tuple[str, str]] = []
        for i in range(1, len(palette)):
            parts += [("██", self._style(i)), (f" {palette.label(i)}  ", "")]
        return parts

    def lines(self) -> Iterator[list[tuple[str, str]]]:
        """The picture as lines of ``(text, style)`` segments."""
        puzzle, cw, left = self.puzzle, self.cell_width, self.clue_width
        depth = 0 if self.compact else max(len(clue or (0,)) for clue in puzzle.columns)
        for i in range(depth):
            parts: list[tuple[str, str]] = [(" " * (left + 1), "")]
            for c, clue in enumerate(puzzle.columns):
                numbers = clue or (0,)
                k = i - (depth - len(numbers))
                if c and c % 5 == 0:
                    parts.append((" ", ""))
                style = CLUE_STYLE
                if k >= 0 and puzzle.is_colour and clue:
                    style = "bold " + self._style(puzzle.coloured_columns[c][k][1])
                parts.append(((str(numbers[k]) if k >= 0 else "").rjust(cw), style))
            yield parts
        for r, clue in enumerate(puzzle.rows):
            if r and r % 5 == 0:
                rule = "┼".join("─" * (cw * min(5, puzzle.width - c)) for c in range(0, puzzle.width, 5))
                yield [(" " * (left + 1), ""), (rule, RULE_STYLE)]
            segments = self._numbers(0, r, clue)
            pad = left - sum(len(text) for text, _ in segments)
            yield [(" " * pad, ""), *segments, (" ", ""), *self._row(r)]
        if self.legend():
            yield self.legend()

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        from rich.text import Text

        for parts in self.lines():
            line = Text(no_wrap=True, overflow="crop")
            for text, style in parts:
                line.append(text, style=style or None)
            yield line

    def plain(self) -> str:
        """The picture without colours."""
        return "\n".join("".join(text for text, _ in parts).rstrip() for parts in self.lines())


def grid_with_clues(puzzle: Puzzle, grid_or_solution: Grid | Solution | None = None,
                    compact: bool = False) -> GridWithClues:
    """A rich renderable: ``grid_or_solution`` (a solved picture, a grid being solved,
    or nothing: the empty grid) with the clues of ``puzzle`` beside it; a colour solution
    in its colours (``compact``: one character a cell, no column clues).

    Raises:
        InvalidArgument: the grid is not the puzzle's size.
    """
    values = None
    if grid_or_solution is None:
        states = bytes([UNKNOWN]) * (puzzle.width * puzzle.height)
    elif isinstance(grid_or_solution, Solution) and puzzle.is_colour:
        values = grid_or_solution.to_bytes()
        states = bytes(FILLED if v else EMPTY for v in values)
    elif isinstance(grid_or_solution, Solution):
        states = bytes(Grid.from_solution(grid_or_solution).cells)
    else:
        states = bytes(grid_or_solution.cells)
    if (grid_or_solution is not None and
            (grid_or_solution.height, grid_or_solution.width) != (puzzle.height, puzzle.width)):
        raise InvalidArgument(f"the grid is {grid_or_solution.width}x{grid_or_solution.height} but the puzzle "
                              f"{puzzle.width}x{puzzle.height}")
    return GridWithClues(puzzle, states, values, compact)
