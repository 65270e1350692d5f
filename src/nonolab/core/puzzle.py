"""The puzzle: row and column clues, with optional name, metadata and goal picture."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from nonolab.core.grid import Solution
from nonolab.core.palette import Palette
from nonolab.core.violations import clues_of, colour_runs_of, violations
from nonolab.core.words import counted
from nonolab.errors import InvalidPuzzle

Clue = tuple[int, ...]
"""Block lengths of one line, in reading order; ``()`` is a line with no filled cell."""

Blocks = tuple[tuple[int, int], ...]
"""A line's blocks as ``(length, colour index)`` pairs (colour 1 throughout in black and white)."""


@dataclass(frozen=True)
class Puzzle:
    """An immutable nonogram, black-and-white or in colour.

    Two puzzles are equal when their clues (block lengths and, in colour, the colour
    index of each block) and their givens are: name, metadata, goal and the palette's
    names and RGB are not compared.

    **Givens** are cells the puzzle reveals, part of the puzzle as its clues are: a
    solution must have them (every backend honours them, :func:`~nonolab.core.violations`
    checks them), the formats that can hold them keep them (json, non, tatham; the others
    refuse to write a puzzle with givens), and the pictures draw them.

    A colour puzzle has a ``palette`` with two or more foreground colours and, per line,
    the colour index of each block (``row_colours``, ``column_colours``: the shape of
    ``rows``/``columns``).  Blocks of the same colour need a gap between them, blocks of
    different colours may touch.  With no palette, or one foreground colour, the puzzle
    is black-and-white: the colour tuples are ``None`` and every black-and-white path
    sees only the lengths.

    Args:
        rows: one clue per row, top to bottom.
        columns: one clue per column, left to right.
        name: a title, for messages and file headers.
        metadata: other keys kept from the source file (author, licence, ...).
        goal: the intended picture, if the file has one; it must match the clues.
        palette: the colours (:class:`~nonolab.core.palette.Palette`), or ``None``.
        row_colours: per row, the colour index (1..k) of each block.
        column_colours: per column, the same.
        givens: revealed cells, ``(row, column, value)`` triples (0-based; value 0 empty,
            1 filled, or in colour the colour index, 0 the background) or a mapping
            ``{(row, column): value}``; kept sorted, one per cell.

    Raises:
        InvalidPuzzle: empty size, a block that is not a positive integer, a clue
            longer than its line, row and column totals (per colour) that differ, colour
            indices that do not fit the palette or the clues, a given outside the grid,
            of a value the puzzle has not or given twice, or a goal that does not give the
            clues or does not agree with the givens.

    >>> from nonolab import Puzzle
    >>> p = Puzzle(rows=((2,), (1,)), columns=((2,), (1,)))
    >>> p.width, p.height
    (2, 2)
    >>> from nonolab.core.palette import Palette
    >>> c = Puzzle(rows=((1, 1),), columns=((1,), (1,)), row_colours=((1, 2),),
    ...            column_colours=((1,), (2,)), palette=Palette.default_for(2))
    >>> c.is_colour, c.coloured_rows
    (True, (((1, 1), (1, 2)),))
    >>> Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), givens={(0, 0): 1}).givens
    ((0, 0, 1),)
    """

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    name: str = field(default="", compare=False)
    metadata: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    goal: Solution | None = field(default=None, compare=False, hash=False)
    palette: Palette | None = field(default=None, compare=False, hash=False)
    row_colours: tuple[tuple[int, ...], ...] | None = None
    column_colours: tuple[tuple[int, ...], ...] | None = None
    givens: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _normalise_clues(self.rows, "row"))
        object.__setattr__(self, "columns", _normalise_clues(self.columns, "column"))
        object.__setattr__(self, "metadata", dict(self.metadata))
        if not self.rows or not self.columns:
            raise InvalidPuzzle(
                f"empty size: {counted(len(self.columns), 'column')} x {counted(len(self.rows), 'row')}", kind="size")
        if self.palette is not None and not isinstance(self.palette, Palette):
            raise InvalidPuzzle(f"palette must be a Palette, not {type(self.palette).__name__}", kind="palette")
        if self.is_colour:
            self._check_givens()
            self._check_colours()
            return
        # Black and white (no palette, or one colour): the colours say nothing.
        object.__setattr__(self, "row_colours", None)
        object.__setattr__(self, "column_colours", None)
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.columns, self.height)):
            for i, clue in enumerate(clues):
                need = sum(clue) + len(clue) - 1 if clue else 0
                if need > length:
                    shown = _cut(" ".join(map(str, clue[:_SHOWN_BLOCKS + 1])))
                    if len(clue) > _SHOWN_BLOCKS:
                        shown += f" ({len(clue):,} blocks)"
                    raise InvalidPuzzle(f"{kind} {i + 1}: clue {shown} needs {need} cells but the {kind} "
                                        f"has {length}", kind=kind, index=i)
        row_total = sum(map(sum, self.rows))
        col_total = sum(map(sum, self.columns))
        if row_total != col_total:
            raise InvalidPuzzle(
                f"row clues fill {counted(row_total, 'cell')} but column clues fill {col_total}", kind="size")
        self._check_givens()
        self._check_goal()

    def _check_colours(self) -> None:
        top = len(self.palette) - 1  # type: ignore[arg-type]
        totals: dict[str, dict[int, int]] = {}
        for kind, clues, colours, length in (("row", self.rows, self.row_colours, self.width),
                                             ("column", self.columns, self.column_colours, self.height)):
            if colours is None:
                raise InvalidPuzzle(f"a colour puzzle needs {kind}_colours", kind=kind)
            colours = tuple(tuple(line) for line in colours)
            object.__setattr__(self, f"{kind}_colours", colours)
            if len(colours) != len(clues):
                raise InvalidPuzzle(f"{kind}_colours has {counted(len(colours), 'line')} for "
                                    f"{counted(len(clues), kind)}", kind=kind)
            used = totals.setdefault(kind, {})
            for i, (clue, line) in enumerate(zip(clues, colours)):
                if len(line) != len(clue):
                    raise InvalidPuzzle(f"{kind} {i + 1}: {len(clue)} blocks but {len(line)} colours",
                                        kind=kind, index=i)
                for c in line:
                    if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= top:
                        raise InvalidPuzzle(f"{kind} {i + 1}: colour {c!r} is not one of 1..{top}",
                                            kind=kind, index=i)
                for n, c in zip(clue, line):
                    used[c] = used.get(c, 0) + n
                need = sum(clue) + sum(a == b for a, b in zip(line, line[1:]))
                if need > length:
                    raise InvalidPuzzle(f"{kind} {i + 1}: clue {_shown(clue, line, self.palette)} needs {need} "
                                        f"cells but the {kind} has {length}", kind=kind, index=i)
        for c in range(1, top + 1):
            r, k = totals["row"].get(c, 0), totals["column"].get(c, 0)
            if r != k:
                raise InvalidPuzzle(f"row clues fill {r} cells of colour {self.palette[c].name!r} "  # type: ignore[index]
                                    f"but column clues fill {k}", kind="size")
        self._check_goal()

    def _check_givens(self) -> None:
        """Normalise the givens to sorted ``(row, column, value)`` triples and check each."""
        given: Any = self.givens          # the caller's: triples, or a {(row, column): value} mapping
        raw: list[Any] = list(given) if not isinstance(given, Mapping) else [
            (*cell, value) if isinstance(cell, tuple) else (cell, value) for cell, value in given.items()]
        seen: dict[tuple[int, int], int] = {}
        for item in raw:
            if not (isinstance(item, tuple) and len(item) == 3
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
                raise InvalidPuzzle(f"a given is (row, column, value), three integers: not {item!r}", kind="givens")
            r, c, v = item
            if not (0 <= r < self.height and 0 <= c < self.width):
                raise InvalidPuzzle(f"given cell ({r + 1},{c + 1}) is outside the {self.width}x{self.height} grid",
                                    kind="givens")
            if not 0 <= v <= self.colours:
                expected = "0 (empty) or 1 (filled)" if not self.is_colour else f"a colour index 0..{self.colours}"
                raise InvalidPuzzle(f"given cell ({r + 1},{c + 1}) has value {v}: expected {expected}", kind="givens")
            if (r, c) in seen:
                raise InvalidPuzzle(f"cell ({r + 1},{c + 1}) is given twice", kind="givens")
            seen[(r, c)] = v
        object.__setattr__(self, "givens", tuple((r, c, v) for (r, c), v in sorted(seen.items())))

    @cached_property
    def given_cells(self) -> Mapping[tuple[int, int], int]:
        """The givens as a read-only ``{(row, column): value}``, as a
        :class:`~nonolab.solvers.base.Given` holds cells (built once)."""
        return MappingProxyType({(r, c): v for r, c, v in self.givens})

    def _check_goal(self) -> None:
        if self.goal is not None:
            problems = violations(self, self.goal)
            if problems:
                raise InvalidPuzzle(f"goal does not match the clues: {problems[0]}", kind="goal")

    def __repr__(self) -> str:
        # Short: a 100x100 puzzle's clues are not a repr (``rows``/``columns`` hold them).
        parts = [repr(self.name)] if self.name else []
        parts.append(f"{self.width}x{self.height}")
        if self.is_colour:
            parts.append(counted(self.colours, "colour"))
        if self.givens:
            parts.append(counted(len(self.givens), "given"))
        return f"Puzzle({', '.join(parts)})"

    @property
    def is_colour(self) -> bool:
        """Whether the puzzle has two or more foreground colours."""
        return self.palette is not None and len(self.palette) > 2

    @property
    def keeps_palette(self) -> bool:
        """Whether the puzzle's files and pictures carry its palette: a colour puzzle, or a
        black-and-white one (one colour) whose palette is not white and black, such as a
        puzzle drawn in red: black and white to every solver, red in its file.

        >>> from nonolab import Puzzle
        >>> from nonolab.core.palette import Palette
        >>> red = Palette.of(("red", (255, 0, 0), "r"))
        >>> Puzzle(rows=((1,),), columns=((1,),), palette=red).keeps_palette
        True
        >>> Puzzle(rows=((1,),), columns=((1,),), palette=Palette.black_and_white()).keeps_palette
        False
        """
        palette = self.palette
        return palette is not None and (self.is_colour or [c.rgb for c in palette] != [(255, 255, 255), (0, 0, 0)])

    @property
    def colours(self) -> int:
        """The number of foreground colours (1 for black and white)."""
        return len(self.palette) - 1 if self.is_colour else 1  # type: ignore[arg-type]

    @property
    def chars(self) -> str:
        """The character that draws each cell value in text, index by value: ``.#`` in
        black and white, the palette's characters in colour (the background's first).
        Every text picture of this puzzle's grids takes its characters from here.

        >>> from nonolab import Puzzle
        >>> Puzzle(rows=((1,),), columns=((1,),)).chars
        '.#'
        """
        return self.palette.chars if self.is_colour else ".#"  # type: ignore[union-attr]

    def value_label(self, value: int) -> str:
        """Cell value ``value`` as reports and repairs name it: ``#`` or ``.`` in black and
        white; in colour the colour's name and, in brackets, the character the pictures
        beside draw it with (:meth:`~nonolab.core.palette.Palette.label`).

        >>> from nonolab import Puzzle
        >>> Puzzle(rows=((1,),), columns=((1,),)).value_label(1)
        '#'
        """
        return self.palette.label(value) if self.is_colour else ".#"[value]  # type: ignore[union-attr]

    def blocks_label(self, blocks: Iterable[tuple[int, int]]) -> str:
        """A line's blocks ``(length, colour)`` as reports name them: ``2 1`` in black and
        white, ``2 blue (%), 1 red (r)`` in colour (each colour as :meth:`value_label` names
        it), ``0`` for a line without blocks.

        >>> from nonolab import Puzzle
        >>> Puzzle(rows=((2, 1),), columns=((1,), (1,), (), (1,))).blocks_label(((2, 1), (1, 1)))
        '2 1'
        """
        if not self.is_colour:
            return " ".join(str(n) for n, _ in blocks) or "0"
        return ", ".join(f"{n} {self.value_label(c)}" for n, c in blocks) or "0"

    @property
    def coloured_rows(self) -> tuple[Blocks, ...]:
        """Every row's blocks as ``(length, colour)`` pairs (colour 1 in black and white)."""
        return _pairs(self.rows, self.row_colours)

    @property
    def coloured_columns(self) -> tuple[Blocks, ...]:
        """Every column's blocks as ``(length, colour)`` pairs (colour 1 in black and white)."""
        return _pairs(self.columns, self.column_colours)

    def canonical(self) -> tuple:
        """The clues with the colours renumbered by first use (rows, then columns): two
        puzzles that differ only in the order or names of their colours give the same value.

        >>> from nonolab import Puzzle
        >>> from nonolab.core.palette import Palette
        >>> a = Puzzle(rows=((1,), (1,)), columns=((1, 1),), row_colours=((1,), (2,)),
        ...            column_colours=((1, 2),), palette=Palette.default_for(2))
        >>> b = a.with_(row_colours=((2,), (1,)), column_colours=((2, 1),))
        >>> a == b, a.canonical() == b.canonical()
        (False, True)
        """
        order: dict[int, int] = {}
        lines = []
        for blocks in self.coloured_rows + self.coloured_columns:
            lines.append(tuple((n, order.setdefault(c, len(order) + 1)) for n, c in blocks))
        if self.givens:   # a colour no clue uses cannot be given (its cells would break a clue)
            order[0] = 0
            return (self.height, self.width, tuple(lines), tuple((r, c, order.get(v, v)) for r, c, v in self.givens))
        return (self.height, self.width, tuple(lines))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)``, the order puzzle files give it in."""
        return self.width, self.height

    def lines(self) -> list[tuple[str, int, Clue]]:
        """Every line as ``(kind, index, clue)``, rows first."""
        return [("row", i, c) for i, c in enumerate(self.rows)] + [
            ("column", i, c) for i, c in enumerate(self.columns)]

    def _repr_svg_(self) -> str | None:
        """The empty grid with its clues (Jupyter; the drawing code loads on first use)."""
        from nonolab.render.display import svg_of
        return svg_of(self)

    def _repr_html_(self) -> str | None:
        """Jupyter: the title, the size and the empty grid with its clues, as HTML (escaped)."""
        from nonolab.render.display import html_of
        return html_of(self)

    def with_(self, **changes: Any) -> "Puzzle":
        """A copy with some fields replaced (the puzzle itself is immutable)."""
        fields = dict(rows=self.rows, columns=self.columns, name=self.name,
                      metadata=self.metadata, goal=self.goal, palette=self.palette,
                      row_colours=self.row_colours, column_colours=self.column_colours, givens=self.givens)
        fields.update(changes)
        return Puzzle(**fields)  # type: ignore[arg-type]  # the values are the fields' own, or the caller's

    @classmethod
    def from_solution(cls, solution: Solution, name: str = "", palette: Palette | None = None,
                      **metadata: str) -> "Puzzle":
        """The puzzle whose clues a picture gives, with the picture as its goal.

        A picture with colour values (or a ``palette`` of several colours) gives a colour
        puzzle; without a palette, :meth:`Palette.default_for` names its colours.

        >>> from nonolab import Puzzle, Solution
        >>> Puzzle.from_solution(Solution.from_rows(["#.", "##"])).rows
        ((1,), (2,))
        >>> Puzzle.from_solution(Solution.from_values([[1, 2], [0, 2]])).row_colours
        ((1, 2), (2,))
        """
        if solution.colours > 1 or (palette is not None and len(palette) > 2):
            if palette is None:
                palette = Palette.default_for(solution.colours)
            runs = [colour_runs_of(solution.row_bytes(r)) for r in range(solution.height)]
            runs_c = [colour_runs_of(solution.column_bytes(c)) for c in range(solution.width)]
            return cls(rows=tuple(tuple(n for n, _ in line) for line in runs),
                       columns=tuple(tuple(n for n, _ in line) for line in runs_c),
                       row_colours=tuple(tuple(c for _, c in line) for line in runs),
                       column_colours=tuple(tuple(c for _, c in line) for line in runs_c),
                       name=name, metadata=metadata, goal=solution, palette=palette)
        rows = tuple(clues_of(solution.row_bytes(r)) for r in range(solution.height))
        cols = tuple(clues_of(solution.column_bytes(c)) for c in range(solution.width))
        return cls(rows=rows, columns=cols, name=name, metadata=metadata, goal=solution, palette=palette)

    def transposed(self) -> "Puzzle":
        goal = None
        if self.goal is not None:
            goal = Solution.from_bytes(b"".join(self.goal.column_bytes(c) for c in range(self.goal.width)),
                                       self.goal.height, colours=True)
        return Puzzle(rows=self.columns, columns=self.rows, name=self.name, metadata=self.metadata, goal=goal,
                      palette=self.palette, row_colours=self.column_colours, column_colours=self.row_colours,
                      givens=tuple((c, r, v) for r, c, v in self.givens))


def require_puzzle(value: object, caller: str) -> Puzzle:
    """``value`` if it is a :class:`Puzzle`; else a ``TypeError`` that says what to do
    (a path is the usual slip: the questions take a loaded puzzle).

    >>> require_puzzle("cat.non", "check")
    Traceback (most recent call last):
    ...
    TypeError: check: expected a Puzzle, not str (a path: load it first, nonolab.load(path))
    """
    if isinstance(value, Puzzle):
        return value
    import os
    hint = " (a path: load it first, nonolab.load(path))" if isinstance(value, (str, os.PathLike)) else ""
    raise TypeError(f"{caller}: expected a Puzzle, not {type(value).__name__}{hint}")


def require_many(value: object, caller: str, what: str) -> object:
    """``value``, an iterable of several things (paths, backends, puzzles); one string, path
    or :class:`Puzzle` in its place is a ``TypeError`` that says to wrap it, not a string
    taken character by character (``"/"``, the root, as the first path).

    >>> require_many("cat.non", "bench", "paths")
    Traceback (most recent call last):
    ...
    TypeError: bench: paths is a list, not one str: ['cat.non']
    """
    import os
    if isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{caller}: {what} is a list, not one {type(value).__name__}: [{str(value)!r}]")
    if isinstance(value, Puzzle):
        raise TypeError(f"{caller}: {what} is a list, not one Puzzle: [puzzle]")
    return value


def _normalise_clues(clues: Iterable[Iterable[int]], kind: str) -> tuple[Clue, ...]:
    out = []
    for i, clue in enumerate(clues):
        blocks = []
        for b in clue:
            if isinstance(b, bool) or not isinstance(b, int):
                raise InvalidPuzzle(f"{kind} {i + 1}: block {b!r} is not an integer", kind=kind, index=i)
            if b <= 0:
                raise InvalidPuzzle(f"{kind} {i + 1}: block {b} is not positive", kind=kind, index=i)
            blocks.append(b)
        out.append(tuple(blocks))
    return tuple(out)


def _pairs(clues: tuple[Clue, ...], colours: tuple[tuple[int, ...], ...] | None) -> tuple[Blocks, ...]:
    if colours is None:
        return tuple(tuple((n, 1) for n in clue) for clue in clues)
    return tuple(tuple(zip(clue, line)) for clue, line in zip(clues, colours))


#: A message shows this many blocks of a clue at most: an error is one line, whatever the file holds.
_SHOWN_BLOCKS = 20


def _cut(text: str) -> str:
    """``text`` cut after :data:`_SHOWN_BLOCKS` words, ``...`` saying so."""
    words = text.split(" ")
    return text if len(words) <= _SHOWN_BLOCKS else " ".join(words[:_SHOWN_BLOCKS]) + " ..."


def _shown(clue: Clue, colours: tuple[int, ...], palette: Palette | None) -> str:
    names = palette.names if palette is not None else ()
    text = _cut(" ".join(f"{n}{names[c] if c < len(names) else c}"
                         for n, c in zip(clue[:_SHOWN_BLOCKS + 1], colours)))
    return text + (f" ({len(clue):,} blocks)" if len(clue) > _SHOWN_BLOCKS else "")
