"""The colours lcg's engine holds: those a colour puzzle's clues use, not its whole palette.

The engine's domains are 32-bit masks: the background and :data:`MAX_COLOURS` colours.  A
palette may name more colours than its clues use (a file's house palette of 40 colours for a
picture in 3).  A colour no clue uses is in no solution: a cell of colour ``c`` lies in a
block of colour ``c`` of its row's clue.  So a puzzle is refused only when its clues use more
than :data:`MAX_COLOURS` colours; a larger palette is searched over the colours the clues use,
renumbered, and each picture found read back in the puzzle's own colours (the helpers are
:mod:`nonolab.core.used_colours`, which native's colour engine shares).

>>> from nonolab.core import Palette, Puzzle, Solution
>>> p = Puzzle.from_solution(Solution.from_values([[7, 0], [7, 9]]), palette=Palette.default_for(40))
>>> p.colours, clue_colours(p)
(40, (7, 9))
>>> held = engine_colours(p, [])
>>> held.puzzle.colours, held.puzzle.row_colours, held.value[9], bytes([1, 0, 2]).translate(held.back)
(2, ((1,), (1, 2)), 2, b'\\x07\\x00\\t')
"""

from __future__ import annotations

from typing import Iterable

from nonolab.core.puzzle import Puzzle
from nonolab.core.used_colours import EngineColours, clue_colours
from nonolab.core.used_colours import engine_colours as shared_engine_colours

__all__ = ["MAX_COLOURS", "clue_colours", "engine_colours", "EngineColours"]

# The most foreground colours the engine's domain masks hold (32 bits: the background and 31).
MAX_COLOURS = 31


def engine_colours(puzzle: Puzzle, given_values: Iterable[int]) -> EngineColours:
    """What lcg's engine searches for ``puzzle`` (under givens of ``given_values``): the puzzle
    itself when its palette fits the engine, else the puzzle over the colours its clues use
    (:func:`nonolab.core.used_colours.engine_colours`, which native's colour engine shares).

    Raises:
        TooLarge: the clues use more than :data:`MAX_COLOURS` colours.
    """
    return shared_engine_colours(puzzle, given_values, MAX_COLOURS, "lcg")
