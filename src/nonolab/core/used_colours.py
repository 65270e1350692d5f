"""The colours a colour puzzle uses, and the puzzle over those alone.

A palette may name more colours than the puzzle uses (a file's house palette of 40 colours
for a picture in 3).  A colour no clue uses is in no solution: a cell of colour ``c`` lies
in a block of colour ``c`` of its row's clue.  So what a solver searches, and what a format
with a bounded colour alphabet must write, is the colours the clues use (and a given's colour,
which a puzzle may name without a clue using it: such a given leaves it no solution).

>>> p = Puzzle.from_solution(Solution.from_values([[7, 0], [7, 9]]), palette=Palette.default_for(40))
>>> p.colours, clue_colours(p)
(40, (7, 9))
>>> q = over_used_colours(p)
>>> q.colours, q.row_colours, q.palette.names == ("white", p.palette[7].name, p.palette[9].name), q.goal.flat()
(2, ((1,), (1, 2)), True, [1, 0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from nonolab.core.grid import Solution
from nonolab.core.palette import Palette
from nonolab.core.puzzle import Puzzle
from nonolab.errors import TooLarge

__all__ = ["clue_colours", "used_colours", "over_used_colours", "engine_colours", "EngineColours"]


def clue_colours(puzzle: Puzzle) -> tuple[int, ...]:
    """The foreground colours ``puzzle``'s clues use, ascending (the rows' and the columns' are
    the same: a puzzle's row and column totals agree colour by colour).

    >>> clue_colours(Puzzle(rows=((1,),), columns=((1,),)))
    (1,)
    """
    if not puzzle.is_colour:
        return (1,) if any(puzzle.rows) else ()
    return tuple(sorted({c for line in puzzle.row_colours or () for c in line}))


def used_colours(puzzle: Puzzle) -> tuple[int, ...]:
    """The foreground colours the clues or the givens use, ascending (a goal's are the clues')."""
    return tuple(sorted(set(clue_colours(puzzle)) | {v for _, _, v in puzzle.givens if v}))


def over_used_colours(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with its palette cut to :func:`used_colours`, renumbered 1..k in palette
    order (clues, goal and givens alike); the puzzle itself when it uses every colour.  Two
    colours are kept at least (the first unused ones), so that a colour puzzle stays one.

    The same puzzle as far as its solutions go, and what every colour reader makes of a file:
    a reader's palette holds the colours the file uses (``formats._colours.build_coloured``).
    """
    if not puzzle.is_colour:
        return puzzle
    used = used_colours(puzzle)
    if len(used) == puzzle.colours:
        return puzzle
    unused = [c for c in range(1, puzzle.colours + 1) if c not in set(used)]
    kept = tuple(sorted(used + tuple(unused[:max(2 - len(used), 0)])))
    new = {0: 0, **{c: i for i, c in enumerate(kept, 1)}}
    goal = puzzle.goal
    if goal is not None:
        table = bytes(new.get(v, 0) for v in range(256))
        goal = Solution.from_bytes(goal.to_bytes().translate(table), goal.width, colours=True)
    return puzzle.with_(palette=puzzle.palette.reordered(kept),  # type: ignore[union-attr]
                        row_colours=tuple(tuple(new[c] for c in line) for line in puzzle.row_colours or ()),
                        column_colours=tuple(tuple(new[c] for c in line) for line in puzzle.column_colours or ()),
                        givens=tuple((r, c, new[v]) for r, c, v in puzzle.givens), goal=goal)


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


def engine_colours(puzzle: Puzzle, given_values: Iterable[int], most: int, backend: str) -> EngineColours:
    """What an engine that holds ``most`` foreground colours searches for ``puzzle`` (under
    givens of ``given_values``): the puzzle itself when its palette fits, else the puzzle over
    the colours its clues use.  A given naming an unused colour keeps one unused colour in the
    search, which no clue places: the engine finds the contradiction itself (its count, its
    statistics) rather than a special case here.

    Raises:
        TooLarge: the clues use more than ``most`` colours (``backend`` names the engine).

    >>> p = Puzzle.from_solution(Solution.from_values([[7, 0], [7, 9]]), palette=Palette.default_for(40))
    >>> held = engine_colours(p, [], 31, "lcg")
    >>> held.puzzle.colours, held.puzzle.row_colours, held.value[9], bytes([1, 0, 2]).translate(held.back)
    (2, ((1,), (1, 2)), 2, b'\\x07\\x00\\t')
    >>> engine_colours(p, [], 1, "tiny")
    Traceback (most recent call last):
    ...
    nonolab.errors.TooLarge: tiny: the clues use 2 colours, at most 1; use backend cpsat or cnf
    """
    if not puzzle.is_colour or puzzle.colours <= most:
        return _identity(puzzle)
    used = clue_colours(puzzle)
    if len(used) > most:
        raise TooLarge(f"{backend}: the clues use {len(used)} colours, at most {most}; use backend cpsat or cnf")
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
        raise TooLarge(f"{backend}: colour index {kept[-1]} is beyond 255; use backend cpsat or cnf")
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
