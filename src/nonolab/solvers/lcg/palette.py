"""The colours lcg's engine holds: those a colour puzzle's clues use, not its whole palette.

The engine's domains are 32-bit masks: the background and :data:`MAX_COLOURS` colours.  A
palette may name more colours than its clues use (a file's house palette of 40 colours for a
picture in 3).  A colour no clue uses is in no solution: a cell of colour ``c`` lies in a
block of colour ``c`` of its row's clue.  So a puzzle is refused only when its clues use more
than :data:`MAX_COLOURS` colours; a larger palette is searched over the colours the clues use,
renumbered, and each picture found read back in the puzzle's own colours.  A given naming an
unused colour keeps one unused colour in the search, which no clue places: the engine finds
the contradiction itself (its count, its statistics) rather than a special case here.

>>> from nonolab.core import Palette, Puzzle, Solution
>>> p = Puzzle.from_solution(Solution.from_values([[7, 0], [7, 9]]), palette=Palette.default_for(40))
>>> p.colours, clue_colours(p)
(40, (7, 9))
>>> held = engine_colours(p, [])
>>> held.puzzle.colours, held.puzzle.row_colours, held.value[9], bytes([1, 0, 2]).translate(held.back)
(2, ((1,), (1, 2)), 2, b'\\x07\\x00\\t')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from nonolab.core.puzzle import Puzzle
from nonolab.core.used_colours import clue_colours
from nonolab.errors import TooLarge

__all__ = ["MAX_COLOURS", "clue_colours", "engine_colours", "EngineColours"]

# The most foreground colours the engine's domain masks hold (32 bits: the background and 31).
MAX_COLOURS = 31


@dataclass(frozen=True)
class EngineColours:
    """The puzzle the engine is built from, and the way between its values and the puzzle's."""

    puzzle: Puzzle             # the clues over the background and the kept colours, numbered 1..k
    value: Mapping[int, int]   # the puzzle's value of a cell -> the engine's (every value a given may hold)
    back: bytes                # a bytes.translate table: the engine's value -> the puzzle's

    def fixed(self, cells: Mapping[tuple[int, int], int], width: int) -> list[tuple[int, int]]:
        """Given ``cells`` as the engine takes them: (row-major index, engine value)."""
        return [(r * width + c, self.value[int(v)]) for (r, c), v in cells.items()]


def _identity(puzzle: Puzzle) -> EngineColours:
    return EngineColours(puzzle, {v: v for v in range(puzzle.colours + 1)}, bytes(range(256)))


def engine_colours(puzzle: Puzzle, given_values: Iterable[int]) -> EngineColours:
    """What lcg's engine searches for ``puzzle`` (under givens of ``given_values``): the puzzle
    itself when its palette fits the engine, else the puzzle over the colours its clues use.

    Raises:
        TooLarge: the clues use more than :data:`MAX_COLOURS` colours.
    """
    if not puzzle.is_colour or puzzle.colours <= MAX_COLOURS:
        return _identity(puzzle)
    used = clue_colours(puzzle)
    if len(used) > MAX_COLOURS:
        raise TooLarge(f"lcg: the clues use {len(used)} colours, at most {MAX_COLOURS}; use backend cpsat or cnf")
    in_clues = set(used)
    unused = [c for c in range(1, puzzle.colours + 1) if c not in in_clues]
    # Two foreground colours at least, so that the engine stays a colour one; and one unused
    # colour for the givens that name an unused colour (each such cell is a contradiction).
    named_unused = any(v and v not in in_clues for v in given_values)
    kept = used + tuple(unused[:max(2 - len(used), 1 if named_unused else 0)])
    value = {0: 0, **{c: i for i, c in enumerate(kept, 1)}}
    if len(kept) > len(used):   # the first unused colour kept stands in for every unused one
        value.update({c: len(used) + 1 for c in unused if c not in value})
    if kept[-1] > 255:   # (a picture's cells are bytes)
        raise TooLarge(f"lcg: colour index {kept[-1]} is beyond 255; use backend cpsat or cnf")
    back = bytearray(range(256))
    for engine_value, original in enumerate(kept, 1):
        back[engine_value] = original
    renumber = {c: value[c] for c in (0, *used)}
    engine_puzzle = Puzzle(rows=puzzle.rows, columns=puzzle.columns, name=puzzle.name,
                           palette=puzzle.palette.reordered(kept),  # type: ignore[union-attr]
                           row_colours=tuple(tuple(renumber[c] for c in line) for line in puzzle.row_colours or ()),
                           column_colours=tuple(tuple(renumber[c] for c in line)
                                                for line in puzzle.column_colours or ()))
    return EngineColours(engine_puzzle, value, bytes(back))
