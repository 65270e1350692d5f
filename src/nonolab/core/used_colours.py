"""The colours a colour puzzle uses, and the puzzle over those alone.

A palette may name more colours than the puzzle uses (a file's house palette of 40 colours
for a picture in 3).  A colour no clue uses is in no solution: a cell of colour ``c`` lies
in a block of colour ``c`` of its row's clue.  So what a solver searches, and what a format
with a bounded colour alphabet must write, is the colours the clues use (and a given's colour,
which a puzzle may name without a clue using it: such a given leaves it no solution).

>>> from nonolab.core import Palette, Puzzle, Solution
>>> p = Puzzle.from_solution(Solution.from_values([[7, 0], [7, 9]]), palette=Palette.default_for(40))
>>> p.colours, clue_colours(p)
(40, (7, 9))
>>> q = over_used_colours(p)
>>> q.colours, q.row_colours, q.palette.names == ("white", p.palette[7].name, p.palette[9].name), q.goal.flat()
(2, ((1,), (1, 2)), True, [1, 0, 1, 2])
"""

from __future__ import annotations

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle

__all__ = ["clue_colours", "used_colours", "over_used_colours"]


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
