"""What a caller imposes on a search, in the puzzle's own terms: :class:`Given` (its cells,
implications and hint), checked against the puzzle before a backend sees it.  The solver
contract (:mod:`nonolab.solvers.base`) names it too; :func:`nonolab.solvers.base.accept`
is where every backend takes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from nonolab.core.grid import EMPTY, FILLED, Grid, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.solvers.capability import Capability

Cell = tuple[int, int]
#: ``((row, column, value), (row, column, value))``: if the first cell has its value,
#: the second has its value (0 empty, 1 filled; 0-based rows and columns).
Implication = tuple[tuple[int, int, int], tuple[int, int, int]]


@dataclass(frozen=True)
class Given:
    """What a caller imposes on a search, in the puzzle's own terms.

    Attributes:
        cells: ``{(row, column): value}`` (0-based; 0 empty, 1 filled, or in a colour
            puzzle the colour index, 0 the background): only solutions
            with these cells are wanted (needs :attr:`Capability.GIVEN_CELLS`).
        implications: binary constraints every wanted solution satisfies (needs
            :attr:`Capability.IMPLICATIONS`); see :data:`Implication`.
        hint: a picture to try first (a backend without :attr:`Capability.HINT`
            ignores it: it never changes the answer).

    Build one with :meth:`of` (which copies and freezes), then :meth:`check` it against
    a puzzle; backends receive checked values only.

    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> Given.of({(0, 1): 1}).check(p).cells
    {(0, 1): 1}
    >>> Given.of({(2, 0): 1}).check(p)
    Traceback (most recent call last):
    ...
    nonolab.errors.InvalidArgument: given cell (3,1) is outside the 2x2 puzzle (rows and columns count from 1)
    """

    cells: Mapping[Cell, int] = field(default_factory=dict)
    implications: tuple[Implication, ...] = ()
    hint: Solution | None = None

    @classmethod
    def of(cls, cells: Mapping[Cell, int] | None = None, implications: Iterable[Implication] = (),
           hint: Solution | None = None) -> "Given":
        return cls(dict(cells or {}), tuple(implications), hint)

    @classmethod
    def from_grid(cls, grid: Grid) -> "Given":
        """Every decided cell of a partial grid (such as a ``remainder``) as a given cell."""
        return cls({divmod(i, grid.width): int(state == FILLED) for i, state in enumerate(grid.cells)
                    if state in (EMPTY, FILLED)})

    def __bool__(self) -> bool:
        return bool(self.cells or self.implications or self.hint is not None)

    def with_cells(self, cells: Mapping[Cell, int]) -> "Given":
        """This given with more cells fixed (``cells`` win over this one's)."""
        return Given({**self.cells, **cells}, self.implications, self.hint)

    def check(self, puzzle: Puzzle) -> "Given":
        """This value, after checking every cell, value and hint against ``puzzle``.

        Raises:
            InvalidArgument: a cell outside the grid, a value other than 0/1 (other than a
                colour index of a colour puzzle), or a hint of another size.
        """
        top = puzzle.colours
        def cell(r: Any, c: Any, value: Any, what: str) -> None:
            if not all(isinstance(i, int) and not isinstance(i, bool) for i in (r, c)):
                raise InvalidArgument(f"{what} ({r!r},{c!r}) is not a (row, column) pair of integers")
            # Messages count rows and columns from 1, as users and `check --why` do.
            if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
                raise InvalidArgument(f"{what} ({r + 1},{c + 1}) is outside the {puzzle.width}x{puzzle.height} "
                                      f"puzzle (rows and columns count from 1)")
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                expected = "0 (empty) or 1 (filled)" if top == 1 else f"a colour index 0..{top}"
                raise InvalidArgument(f"{what} ({r + 1},{c + 1}) has value {value!r}: expected {expected}")
        for key, value in self.cells.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise InvalidArgument(f"given cell {key!r} is not a (row, column) pair")
            cell(*key, value, "given cell")
        for pair in self.implications:
            if not (len(pair) == 2 and all(isinstance(side, tuple) and len(side) == 3 for side in pair)):
                raise InvalidArgument(f"implication {pair!r} is not ((row, column, value), (row, column, value))")
            for r, c, value in pair:
                cell(r, c, value, "implication cell")
        if self.hint is not None and not isinstance(self.hint, Solution):
            raise InvalidArgument(f"the hint must be a Solution, not {type(self.hint).__name__}")
        if self.hint is not None and (self.hint.height, self.hint.width) != (puzzle.height, puzzle.width):
            raise InvalidArgument(f"the hint is {self.hint.width}x{self.hint.height}, "
                                  f"the puzzle {puzzle.width}x{puzzle.height}")
        return self

    def within(self, puzzle: Puzzle) -> "Given":
        """This given with ``puzzle``'s own givens added: they are part of the puzzle, so
        every search honours them (:func:`accept` calls this for every backend).

        Raises:
            InvalidArgument: a cell of this given contradicts a cell the puzzle gives.

        >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 0): 1})
        >>> Given.of({(1, 1): 1}).within(p).cells
        {(1, 1): 1, (0, 0): 1}
        """
        if not puzzle.givens:
            return self
        fixed = puzzle.given_cells
        for (r, c), value in self.cells.items():
            if fixed.get((r, c), value) != value:
                raise InvalidArgument(f"given cell ({r + 1},{c + 1}) = {value} contradicts the puzzle, which gives "
                                      f"it as {fixed[(r, c)]}")
        return Given({**self.cells, **fixed}, self.implications, self.hint)

    def refuse_beyond(self, backend: str, declared: frozenset[Capability]) -> None:
        """Raise :class:`~nonolab.errors.InvalidArgument` when this given asks for what a
        backend with ``declared`` capabilities cannot honour (a hint is only advice)."""
        if self.cells and Capability.GIVEN_CELLS not in declared:
            raise InvalidArgument(f"backend {backend!r} does not take given cells")
        if self.implications and Capability.IMPLICATIONS not in declared:
            raise InvalidArgument(f"backend {backend!r} does not take implications")
