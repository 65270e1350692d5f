"""The pictures: a puzzle with its clues (printable), a solution, two solutions and
where they differ, and the ambiguity map of ``check --why``.  Each is one SVG string;
:mod:`.convert` turns it into PNG or PDF.

Functions that draw a solution take the puzzle for its clues, or derive the clues from
the solution when no puzzle is given (they are the same clues).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.errors import InvalidArgument
from nonolab.render.svg import (EMPTY_INK, FILLED_INK, FREE_INK, MARK_INK, PALETTE, UNDECIDED_INK, Board, Cell,
                                Legend, document)
from nonolab.render.text import LIMIT_FIRST, region_letter
from nonolab.core.words import counted

DEFAULT_CELL = 20


def _clues_for(solution: Solution, puzzle: Puzzle | None) -> Puzzle:
    if puzzle is None:
        return Puzzle.from_solution(solution)
    if (puzzle.height, puzzle.width) != (solution.height, solution.width):
        raise InvalidArgument(f"the solution is {solution.width}x{solution.height} but the puzzle "
                              f"{puzzle.width}x{puzzle.height}")
    return puzzle


def cell_inks(solution: Solution, puzzle: Puzzle | None = None) -> list[str]:
    """The fill of each cell of ``solution``, row-major: the palette's colours for a colour puzzle."""
    if puzzle is not None and puzzle.keeps_palette:
        inks = [f"#{puzzle.palette.hex(i)}" for i in range(puzzle.colours + 1)]  # type: ignore[union-attr]
        return [inks[v] for v in solution.to_bytes()]
    return [FILLED_INK if v else EMPTY_INK for v in solution.to_bytes()]


def puzzle_board(puzzle: Puzzle, cell: float, labels: bool, caption: str) -> Board:
    """The board of a puzzle: every picture of a puzzle is drawn on it, so a colour
    puzzle's clue numbers stand on swatches of their colours in every one."""
    return Board(puzzle.rows, puzzle.columns, cell, labels, caption, clue_inks(puzzle))  # type: ignore[arg-type]


def clue_inks(puzzle: Puzzle) -> tuple[list[list[str]], list[list[str]]] | None:
    """The colour of every clue number, rows then columns (``None`` in black and white)."""
    if not puzzle.keeps_palette:
        return None
    palette = puzzle.palette
    rows, columns = ([[f"#{palette.hex(c)}" for _, c in line] for line in lines]  # type: ignore[union-attr]
                     for lines in (puzzle.coloured_rows, puzzle.coloured_columns))
    return rows, columns


def _compose(boards: Sequence[tuple[Board, dict[str, Any]]], legend: Legend, title: str,
             page: str | None) -> str:
    """Boards side by side, the legend below them, in one document."""
    cell = boards[0][0].cell
    pad = cell
    out: list[str] = []
    x = pad
    for board, drawing in boards:
        board.draw(out, x, pad, **drawing)
        x += board.width + pad
    height = pad + max(b.height for b, _ in boards) + pad * 0.5
    legend.fit(x - 2 * pad).draw(out, pad, height)   # wrapped to the boards' width
    width = max(x, legend.width + 2 * pad)
    smallest = min(board.smallest_font for board, _ in boards)   # a print holds it to MIN_CLUE_PT
    return document(width, height + legend.height + pad * 0.5, out, title, page, clue_size=smallest)


def puzzle_svg(puzzle: Puzzle, *, cell: float = DEFAULT_CELL, page: str | None = None,
               labels: bool = False) -> str:
    """The empty grid with its clues, to print (``page="a4"`` or ``"letter"``) or show.

    A colour puzzle's clue numbers stand on swatches of their colours (the number black
    or white, whichever reads better); given cells are drawn as the puzzle reveals them
    (see :func:`given_inks`).

    >>> from nonolab import Puzzle
    >>> from nonolab.render.pictures import puzzle_svg
    >>> svg = puzzle_svg(Puzzle(rows=((2,), (1,)), columns=((2,), (1,))))
    >>> svg.count('class="clue"')
    4
    """
    board = puzzle_board(puzzle, cell, labels, puzzle.name)
    colours, marks = given_inks(puzzle)
    entries = [(("fill", FILLED_INK), f"given: {counted(len(puzzle.givens), 'cell')} "
                                      "the puzzle reveals (a dot: given empty)")] if puzzle.givens else []
    return _compose([(board, {"colours": colours, "dots": marks})], Legend(entries, cell),
                    f"nonolab: {puzzle.name or 'puzzle'}", page)


def given_inks(puzzle: Puzzle) -> tuple[list[str], list[Cell]]:
    """The empty grid with the puzzle's givens: a given cell filled in its colour (black
    in black and white), and the given empty cells, which a fill cannot show, as dots.

    >>> from nonolab import Puzzle
    >>> from nonolab.render.pictures import given_inks
    >>> p = Puzzle(rows=((1,), ()), columns=((1,), ()), givens={(0, 0): 1, (1, 1): 0})
    >>> given_inks(p)
    (['#000000', '#ffffff', '#ffffff', '#ffffff'], [(1, 1)])
    """
    colours = [EMPTY_INK] * (puzzle.width * puzzle.height)
    inks = [f"#{puzzle.palette.hex(i)}" for i in range(puzzle.colours + 1)] if puzzle.keeps_palette else None  # type: ignore[union-attr]
    dots = []
    for r, c, v in puzzle.givens:
        if v:
            colours[r * puzzle.width + c] = inks[v] if inks else FILLED_INK
        else:
            dots.append((r, c))
    return colours, dots


def one_of_words(at_least: int) -> str:
    """What a picture of one solution says when the puzzle has ``at_least`` solutions
    (2 or more; "" for fewer): drawn in the picture, so the file alone does not pass
    one of several for the solution.

    >>> from nonolab.render.pictures import one_of_words
    >>> one_of_words(2), one_of_words(1)
    ('one of at least 2 solutions: the puzzle is not unique', '')
    """
    return f"one of at least {at_least} solutions: the puzzle is not unique" if at_least >= 2 else ""


def solution_svg(solution: Solution, puzzle: Puzzle | None = None, *, cell: float = DEFAULT_CELL,
                 page: str | None = None, labels: bool = False, at_least: int = 1) -> str:
    """The solution with its clues.  ``at_least``: how many solutions the puzzle is known
    to have; 2 or more draws a note under the grid that this is one of them.

    >>> from nonolab import Solution
    >>> from nonolab.render.pictures import solution_svg
    >>> svg = solution_svg(Solution.from_rows(["#.", "##"]))
    >>> svg.count('fill="#000000"/>')   # a run of filled cells in each row
    2
    >>> "one of at least 2 solutions" in solution_svg(Solution.from_rows(["#.", ".#"]), at_least=2)
    True
    """
    puzzle = _clues_for(solution, puzzle)
    board = puzzle_board(puzzle, cell, labels, puzzle.name)
    note = one_of_words(at_least)
    entries = [(("note", MARK_INK), note)] if note else []
    what = f"one of at least {at_least} solutions" if note else "a solution"
    return _compose([(board, {"colours": cell_inks(solution, puzzle)})], Legend(entries, cell),
                    f"nonolab: {what} of {puzzle.name or 'the puzzle'}", page)


def diff_svg(first: Solution, second: Solution, puzzle: Puzzle | None = None, *, cell: float = DEFAULT_CELL,
             page: str | None = None, labels: bool = True) -> str:
    """Two solutions side by side, the cells where they differ framed in red on both.

    >>> from nonolab import Solution
    >>> from nonolab.render.pictures import diff_svg
    >>> svg = diff_svg(Solution.from_rows(["#.", ".#"]), Solution.from_rows([".#", "#."]))
    >>> svg.count('class="entry"')
    1
    """
    puzzle = _clues_for(first, puzzle)
    _clues_for(second, puzzle)
    differ = first.diff(second)
    boards = [(puzzle_board(puzzle, cell, labels, f"solution {k}"),
               {"colours": cell_inks(s, puzzle), "frames": differ}) for k, s in ((1, first), (2, second))]
    entries = [(("frame", MARK_INK), f"red frame: the {counted(len(differ), 'cell')} "
                                     "where the two solutions differ")] if differ else []
    return _compose(boards, Legend(entries, cell), f"nonolab: two solutions of {puzzle.name or 'the puzzle'}",
                    page)


def changed_svg(before: Solution, after: Solution, before_puzzle: Puzzle | None = None,
                after_puzzle: Puzzle | None = None, *, cell: float = DEFAULT_CELL, labels: bool = True) -> str:
    """A picture before and after a change (a repair, an image made unique), each with
    its own clues, the changed cells framed in red on both.

    >>> from nonolab import Solution
    >>> from nonolab.render.pictures import changed_svg
    >>> svg = changed_svg(Solution.from_rows(["#.", ".#"]), Solution.from_rows(["#.", "##"]))
    >>> svg.count('class="caption"'), "1 cell changed" in svg
    (2, True)
    """
    before_puzzle = _clues_for(before, before_puzzle)
    after_puzzle = _clues_for(after, after_puzzle)
    changed = before.diff(after)
    boards = [(puzzle_board(p, cell, labels, caption), {"colours": cell_inks(s, p), "frames": changed})
              for caption, s, p in (("before", before, before_puzzle), ("after", after, after_puzzle))]
    entries = [(("frame", MARK_INK), f"red frame: {counted(len(changed), 'cell')} changed")
               if changed else (("pair", FILLED_INK, EMPTY_INK), "no cell changed")]
    return _compose(boards, Legend(entries, cell), "nonolab: before and after", None)


def _tint(colour: str, share: float) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - v) * share):02x}" for v in rgb)


MAX_LEGEND_REGIONS = 12


@dataclass(frozen=True)
class Regions:
    """What an ambiguity map marks on its solution: the regions (``(row, column)`` cells
    each) with a sentence each (``describe``), the suggested ``givens`` and the
    ``undecided`` cells (not classified in time) and the ``free`` ones (known to differ,
    not split into regions in time)."""

    regions: Sequence[Iterable[Cell]] = ()
    describe: Sequence[str] = ()
    givens: Iterable[Cell] = ()
    undecided: Iterable[Cell] = ()
    free: Iterable[Cell] = ()    # known to differ, in no region: the time limit came first


def regions_board(reference: Solution, puzzle: Puzzle | None, marked: Regions, *,
                  cell: float, labels: bool, caption: str, title: str, page: str | None) -> str:
    """The reference solution: backbone cells black and white, region ``k`` in its
    colour (dark where the reference is filled, light where it is empty, with its
    letter), ``undecided`` cells grey, ``givens`` ringed; a legend of what is drawn.
    """
    puzzle = _clues_for(reference, puzzle)
    w = reference.width
    colours = cell_inks(reference, puzzle)       # a colour puzzle's backbone in its palette
    letters: dict[Cell, tuple[str, str]] = {}
    undecided = list(marked.undecided)
    describe = marked.describe
    for r, c in undecided:
        colours[r * w + c] = UNDECIDED_INK
    free = list(marked.free)
    for r, c in free:
        colours[r * w + c] = FREE_INK
    regions = [list(cells) for cells in marked.regions]
    for k, cells in enumerate(regions):
        colour = PALETTE[k % len(PALETTE)]
        for r, c in cells:
            filled = reference[r][c]
            colours[r * w + c] = colour if filled else _tint(colour, 0.3)
            letters[(r, c)] = (region_letter(k, filled), "#ffffff" if filled else "#000000")
    givens = list(marked.givens)
    entries: list[tuple[tuple, str]] = []
    same = "the palette's colours" if puzzle.keeps_palette else "black / white"
    if regions or undecided or free:
        entries.append((("pair", FILLED_INK, EMPTY_INK), f"{same}: the same in every solution"))
    else:
        entries.append((("pair", FILLED_INK, EMPTY_INK), "every cell is the same in every solution"))
    if regions:
        dark = "a colour" if puzzle.keeps_palette else "filled"
        entries.append((("pair", PALETTE[0], _tint(PALETTE[0], 0.3)),
                        f"region colours: where solutions differ (dark: {dark} in this solution)"))
    for k, text in enumerate(describe[:MAX_LEGEND_REGIONS]):
        entries.append((("fill", PALETTE[k % len(PALETTE)]), f"{region_letter(k, 0)}: {text}"))
    if len(regions) > MAX_LEGEND_REGIONS:
        entries.append((("fill", "#ffffff"), f"... and {len(regions) - MAX_LEGEND_REGIONS} more regions"))
    if free:
        entries.append((("fill", FREE_INK), f"blue-grey: where solutions differ, not split into regions ({len(free)} "
                                            f"cells; timeout: {LIMIT_FIRST})"))
    if undecided:
        entries.append((("fill", UNDECIDED_INK), f"grey: not classified (timeout: {LIMIT_FIRST})"))
    if givens:
        entries.append((("ring",), f"ring: a suggested given ({len(givens)} in all)"))
    board = puzzle_board(puzzle, cell, labels, caption)
    return _compose([(board, {"colours": colours, "letters": letters, "rings": givens})], Legend(entries, cell),
                    title, page)


def ambiguity_svg(report: Any, puzzle: Puzzle | None = None, *, cell: float = DEFAULT_CELL,
                  page: str | None = None, labels: bool = True) -> str | None:
    """The map of an ambiguity report (``nonolab.ambiguity_report``): the reference
    solution with the regions where solutions differ, the suggested givens, clues, row
    and column numbers, and a legend of what is drawn.  ``None`` when the report has no
    solution to draw (contradiction, or none found in time).

    >>> from nonolab import Puzzle
    >>> from nonolab.render.pictures import ambiguity_svg
    >>> import nonolab
    >>> switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> svg = ambiguity_svg(nonolab.ambiguity_report(switch, "native"), switch)
    >>> "a: 2x2 switch at rows" in svg      # the legend wrapped to the narrow grid: "1-2, columns 1-2" below
    True
    """
    if report.reference is None:
        return None
    verdict = report.verdict.value
    if verdict == "unique":
        caption = "unique: one solution"
    else:
        n = len(report.regions)
        # Cut by the time limit, the regions are unknown, not none: "0 regions" would read as a finding.
        found = (f"regions: timeout ({n} found)" if not report.regions_known else counted(n, "region"))
        caption = f"{verdict}: {'' if report.count_exact else 'at least '}{report.solution_count} solutions, {found}"
    free = report.unplaced_free()
    marked = Regions([r.cells for r in report.regions], [r.describe() for r in report.regions],
                     [(r, c) for r, c, _ in report.givens], sorted(set(report.unplaced()) - set(free)), free)
    return regions_board(report.reference, puzzle, marked, cell=cell, labels=labels, caption=caption,
                         title=f"nonolab: where the solutions differ ({verdict})", page=page)


def regions_svg(reference: Solution, regions: Sequence[Iterable[Cell]] = (), givens: Iterable[Cell] = (),
                undecided: Iterable[Cell] = (), cell_size: float = DEFAULT_CELL, title: str = "") -> str:
    """The ambiguity map from its parts (the clues derived from ``reference``): backbone
    cells black and white, each region in its own colour (dark where the reference is
    filled, light where it is empty, with its letter), ``undecided`` cells grey,
    suggested givens ringed.

    >>> from nonolab import Solution
    >>> from nonolab.render.pictures import regions_svg
    >>> from nonolab.render.svg import PALETTE
    >>> svg = regions_svg(Solution.from_rows(["#.", ".#"]), [[(0, 0), (0, 1), (1, 0), (1, 1)]], [(0, 0)])
    >>> svg.startswith("<svg") and "<circle" in svg and PALETTE[0] in svg
    True
    """
    lists = [list(cells) for cells in regions]
    describe = [f"a region of {counted(len(cells), 'cell')}" for cells in lists]
    return regions_board(reference, None, Regions(lists, describe, givens, undecided), cell=cell_size,
                         labels=True, caption="", title=title, page=None)


def regions_png(reference: Solution, regions: Sequence[Iterable[Cell]] = (), givens: Iterable[Cell] = (),
                undecided: Iterable[Cell] = (), cell_size: float = DEFAULT_CELL) -> bytes:
    """The picture of :func:`regions_svg` as PNG bytes.

    Raises:
        MissingDependency: cairosvg is not installed (``pip install "nonolab[pictures]"``).
    """
    from nonolab.render.convert import to_png
    return to_png(regions_svg(reference, regions, givens, undecided, cell_size))
