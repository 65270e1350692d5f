"""Printed pages: a puzzle (and its solution page) on A4, A3 or letter, tiled over several
pages when it is too large to print legibly on one, with a footer of title, author,
copyright and source; and sheets of several small puzzles on one page.

Each page is one SVG document in points; :func:`nonolab.render.convert.to_pdf_pages`
makes one PDF of them.  A page's clues are never printed below ``MIN_CLUE_PT`` points:
a puzzle that would need smaller ones is tiled instead (or, with ``tiles`` chosen, refused
in one line).  Tiles overlap by ``OVERLAP`` cells, shaded and marked, and every tile
carries the clues of its rows and columns.

>>> from nonolab.core import Puzzle, Solution
>>> dot = Puzzle(rows=((1,),), columns=((1,),), name="Dot")
>>> pages = print_pages(dot, solution=Solution.from_rows(["#"]), solution_page=True)
>>> len(pages), all(p.startswith("<svg") for p in pages), 'class="footer"' in pages[0]
(2, True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.words import counted
from nonolab.errors import InvalidArgument, TooLarge
from nonolab.render.svg import (FONT, MAX_CELL_PT, MIN_CLUE_PT, PAGE_MARGIN, PAGES, Board,
                                _num, escape, text_width)

OVERLAP = 2                      # cells each tile repeats of its neighbour
MAX_PAGES = 64                   # the most pages one puzzle is tiled over, chosen or not
FOOTER = 16.0                    # points kept at the bottom of a page for the footer
FOOTER_PT = 8.0                  # the footer's font size
MIRROR_FROM = 30                 # a grid this wide or high repeats its clues right and below
OVERLAP_INK = "#dbe9f6"


@dataclass(frozen=True)
class Footer:
    """The footer line of every printed page: title, author, copyright, source."""

    title: str = ""
    author: str = ""
    copyright: str = ""
    source: str = ""

    @classmethod
    def of(cls, puzzle: Puzzle, **given: str | None) -> "Footer":
        """The puzzle's own (its name and metadata: ``by``/``author``, ``copyright``/``license``,
        ``source``/``url``), each replaced by a value given here.

        >>> Footer.of(Puzzle(rows=((1,),), columns=((1,),), name="Dot", metadata={"by": "Ann"}), source="x").text()
        'Dot · by Ann · x'
        """
        meta = {k.lower(): str(v) for k, v in puzzle.metadata.items()}
        found = {"title": puzzle.name or "", "author": meta.get("by") or meta.get("author", ""),
                 "copyright": meta.get("copyright") or meta.get("license", ""),
                 "source": meta.get("source") or meta.get("url", "")}
        found.update({k: v for k, v in given.items() if v is not None})
        return cls(**found)

    def text(self) -> str:
        parts = [self.title, f"by {self.author}" if self.author else "",
                 f"© {self.copyright}" if self.copyright and not self.copyright.startswith("©") else self.copyright,
                 self.source]
        return " · ".join(p for p in parts if p)


def _page_size(page: str, landscape: bool) -> tuple[float, float]:
    if page not in PAGES:
        raise InvalidArgument(f"{{arg}} {page!r} is unknown: use one of {', '.join(PAGES)}", argument="page")
    short, long = sorted(PAGES[page])
    return (long, short) if landscape else (short, long)


def _board(puzzle: Puzzle, rows: range, columns: range, cell: float, caption: str,
           struck: Sequence[tuple[int, int]] = (), mirror: bool = False) -> Board:
    from nonolab.render.pictures import clue_inks
    inks = clue_inks(puzzle)
    if inks is not None:
        inks = ([inks[0][r] for r in rows], [inks[1][c] for c in columns])
    struck = [(k, i - (rows.start if k == 0 else columns.start)) for k, i in struck
              if i in (rows if k == 0 else columns)]
    return Board([puzzle.rows[r] for r in rows], [puzzle.columns[c] for c in columns], cell, False, caption,
                 inks, mirror=mirror, struck=struck)  # type: ignore[arg-type]


def _split(n: int, parts: int) -> list[range]:
    """``parts`` ranges covering ``0..n``, each but the first reaching ``OVERLAP`` back."""
    edges = [round(i * n / parts) for i in range(parts + 1)]
    return [range(max(0, edges[i] - (OVERLAP if i else 0)), edges[i + 1]) for i in range(parts)]


def _fit(board_at_1: Board, page: str, landscape: bool) -> float:
    pw, ph = _page_size(page, landscape)
    return min((pw - 2 * PAGE_MARGIN) / board_at_1.width, (ph - 2 * PAGE_MARGIN - FOOTER) / board_at_1.height)


def layout(puzzle: Puzzle, page: str = "a4",
           tiles: tuple[int, int] | None = None) -> tuple[int, int, bool, float, bool]:
    """How ``puzzle`` prints: ``(pages down, pages across, landscape, cell in points,
    clues repeated right and below)``.

    One page when its clues print at ``MIN_CLUE_PT`` or more; else the fewest tiles
    that do (or the ``tiles`` asked for, refused when they would print smaller).  A grid
    of ``MIRROR_FROM`` cells or more repeats its clues right and below when that costs
    no page.

    >>> layout(Puzzle(rows=((1,),) * 10, columns=((1,),) * 10))[:3]
    (1, 1, False)
    """
    if tiles:
        _check_tiles(puzzle, tiles)
    choices = [tiles] if tiles else [(d, a) for n in range(1, MAX_PAGES + 1) for d in range(1, n + 1)
                                     for a in range(1, n + 1) if d * a == n]
    mirrors = (True, False) if max(puzzle.width, puzzle.height) >= MIRROR_FROM else (False,)
    for down, across in choices:
        rows, columns = _split(puzzle.height, down), _split(puzzle.width, across)
        widest = max(columns, key=len)
        tallest = max(rows, key=len)
        for mirror in mirrors:
            unit = _board(puzzle, tallest, widest, 1.0, puzzle.name or " ", mirror=mirror)
            landscape = max(((False, _fit(unit, page, False)), (True, _fit(unit, page, True))), key=lambda t: t[1])
            cell = min(landscape[1], MAX_CELL_PT)
            if cell * unit.smallest_font >= MIN_CLUE_PT:   # unit: a cell of 1, its clues' share
                return down, across, landscape[0], cell, mirror
        if tiles:
            raise TooLarge(f"{down}x{across} pages of {page} are too few for {puzzle.width}x{puzzle.height}: its "
                           f"clues would print at {cell * unit.smallest_font:.1f} pt, below {MIN_CLUE_PT:g} pt "
                           "(ask for more pages, or a larger page)")
    raise TooLarge(f"{puzzle.width}x{puzzle.height} needs more than {MAX_PAGES} pages of {page}")


def _check_tiles(puzzle: Puzzle, tiles: tuple[int, int]) -> None:
    # Checked before splitting: a tile without a row or column of its own has nothing to
    # draw, and splitting 10**20 tiles would never end.
    down, across = tiles
    if down < 1 or across < 1 or down > puzzle.height or across > puzzle.width:
        raise InvalidArgument(f"{{arg}} {down}x{across}: a {puzzle.width}x{puzzle.height} puzzle prints on at most "
                              f"{puzzle.height} pages down and {puzzle.width} across", argument="tiles")
    if down * across > MAX_PAGES:
        raise InvalidArgument(f"{{arg}} {down}x{across}: at most {MAX_PAGES} pages a puzzle", argument="tiles")


def print_pages(puzzle: Puzzle, *, page: str = "a4", tiles: tuple[int, int] | None = None,
                solution: Solution | None = None, solution_page: bool = False, puzzle_page: bool = True,
                footer: Footer | None = None, at_least: int = 1) -> list[str]:
    """The printed pages of ``puzzle``: its tiles (one page if it fits; none without
    ``puzzle_page``), then, with ``solution_page`` (``solution``, or the puzzle's goal),
    the solution the same way, its satisfied clues struck through; when the puzzle is
    known to have ``at_least`` 2 solutions, the solution page's caption says it is one
    of them.  Every page has ``footer`` (default: the puzzle's).

    >>> from nonolab.core import Puzzle, Solution
    >>> switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), name="Switch")
    >>> pages = print_pages(switch, solution=Solution.from_rows(["#.", ".#"]), solution_page=True, at_least=2)
    >>> "Switch: one of at least 2 solutions" in pages[1]
    True

    Raises:
        InvalidArgument: an unknown page, or a solution page without a solution.
        TooLarge: the ``tiles`` asked for would print the clues too small.
    """
    footer = footer or Footer.of(puzzle)
    down, across, landscape, cell, mirror = layout(puzzle, page, tiles)
    drawings: list[tuple[str, list[str], float, float]] = []
    views: list[tuple[str, Solution | None]] = [("puzzle", None)] if puzzle_page else []
    if solution_page:
        solution = solution or puzzle.goal
        if solution is None:
            raise InvalidArgument("a solution page needs a solution: the puzzle has no goal picture")
        views.append(("solution", solution))
    rows_split, columns_split = _split(puzzle.height, down), _split(puzzle.width, across)
    solution_words = f"one of at least {at_least} solutions" if at_least >= 2 else "solution"
    for view, picture in views:
        struck = [(k, i) for k, n in ((0, puzzle.height), (1, puzzle.width)) for i in range(n)] if picture else []
        for t, rows in enumerate(rows_split):
            for u, columns in enumerate(columns_split):
                where = ""
                if down * across > 1:
                    where = (f" — rows {rows.start + 1}-{rows.stop}, columns {columns.start + 1}-{columns.stop}"
                             f" (part {t * across + u + 1} of {down * across})")
                name = (footer.title or puzzle.name or "puzzle") + (f": {solution_words}" if picture else "") + where
                board = _board(puzzle, rows, columns, cell, name, struck, mirror)
                out: list[str] = []
                board.draw(out, 0, 0, _inks(puzzle, picture, rows, columns),
                           layers=_overlap_marks(board, rows, columns, t, u))
                drawings.append((name, out, board.width, board.height))
    pw, ph = _page_size(page, landscape)
    return [_page(body, width, height, pw, ph, footer, i + 1, len(drawings), name)
            for i, (name, body, width, height) in enumerate(drawings)]


def _inks(puzzle: Puzzle, picture: Solution | None, rows: range, columns: range) -> list[str]:
    from nonolab.render.pictures import cell_inks, given_inks
    every = cell_inks(picture, puzzle) if picture is not None else given_inks(puzzle)[0]
    return [every[r * puzzle.width + c] for r in rows for c in columns]


def _overlap_marks(board: Board, rows: range, columns: range, t: int, u: int) -> list[str]:
    """The cells a tile repeats from its neighbours, shaded, with a dashed edge."""
    size, marks = board.cell, []
    gx, gy = board.left, board.top
    band = OVERLAP * size
    if u and columns.start:   # the columns repeated from the tile on the left
        marks += _overlap_band(gx, gy, band, len(rows) * size, size,
                               f"M{_num(gx + band)} {_num(gy - size)}V{_num(gy + (len(rows) + 1) * size)}")
    if t and rows.start:      # the rows repeated from the tile above
        marks += _overlap_band(gx, gy, len(columns) * size, band, size,
                               f"M{_num(gx - size)} {_num(gy + band)}H{_num(gx + (len(columns) + 1) * size)}")
    return marks


def _overlap_band(x: float, y: float, width: float, height: float, size: float, edge: str) -> list[str]:
    """One repeated band: its shading and its dashed edge (the path ``edge``)."""
    return [f'<rect class="overlap" x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" '
            f'height="{_num(height)}" fill="{OVERLAP_INK}" fill-opacity="0.6"/>',
            f'<path class="overlap-edge" d="{edge}" stroke="#1f77b4" stroke-dasharray="4 3" '
            f'stroke-width="{_num(size / 10)}"/>']


def fitted(text: str, room: float, size: float) -> str:
    """``text`` cut to ``room`` points at font ``size`` (by :func:`text_width`), ending in an ellipsis.

    >>> fitted("Swing · by Jan Wolter", 1000, 8), fitted("Swing · by Jan Wolter", 40, 8)
    ('Swing · by Jan Wolter', 'Swing…')
    """
    if text_width(text, size) <= room:
        return text
    keep = max(0, int(room / text_width("x", size)) - 1)
    return text[:keep].rstrip(" ·,;") + "…"


def _page(body: list[str], width: float, height: float, pw: float, ph: float, footer: Footer, number: int,
          pages: int, title: str) -> str:
    """One page: the drawing centred at the top, the footer at the bottom, in points."""
    x = (pw - width) / 2
    counter = f"page {number} of {pages}" if pages > 1 else ""
    # The footer's text never runs into the page number: cut to the room left, with an ellipsis.
    room = pw - 2 * PAGE_MARGIN - (text_width(counter, FOOTER_PT) + 2 * FOOTER_PT if counter else 0)
    foot = fitted(footer.text(), room, FOOTER_PT)
    y = ph - PAGE_MARGIN + FOOTER / 2
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(pw)}pt" height="{_num(ph)}pt" '
        f'viewBox="0 0 {_num(pw)} {_num(ph)}">\n<title>{escape(title)}</title>\n',
        f'<rect x="0" y="0" width="{_num(pw)}" height="{_num(ph)}" fill="#ffffff"/>\n',
        f'<g transform="translate({_num(x)} {_num(PAGE_MARGIN)})">\n', "\n".join(body), "\n</g>\n",
        f'<g class="footer" font-family="{FONT}" font-size="{_num(FOOTER_PT)}" fill="#444444">',
        f'<text x="{_num(PAGE_MARGIN)}" y="{_num(y)}">{escape(foot)}</text>' if foot else "",
        f'<text x="{_num(pw - PAGE_MARGIN)}" y="{_num(y)}" text-anchor="end">{counter}</text>' if counter else "",
        "</g>\n</svg>\n"])


def sheet_pages(puzzles: Sequence[Puzzle], *, page: str = "a4", footer: Footer | None = None) -> list[str]:
    """Several puzzles to a page, in a grid of equal slots, as many as print legibly
    (their clues at ``MIN_CLUE_PT`` or more); more pages when they do not all fit.

    >>> from nonolab.core import Puzzle
    >>> dots = [Puzzle(rows=((1,),), columns=((1,),), name=f"Dot {i}") for i in range(6)]
    >>> pages = sheet_pages(dots)
    >>> len(pages), pages[0].count('class="caption"')
    (1, 6)

    Raises:
        TooLarge: one of the puzzles does not fit a page on its own.
    """
    if not puzzles:
        raise InvalidArgument("a sheet needs at least one puzzle")
    units = [_board(p, range(p.height), range(p.width), 1.0, p.name or " ") for p in puzzles]
    slot_w, slot_h = max(u.width for u in units) * 1.08, max(u.height for u in units) * 1.08
    smallest = min(u.smallest_font for u in units)   # at a cell of 1: the smallest clue's share of it
    pw, ph = _page_size(page, False)
    aw, ah = pw - 2 * PAGE_MARGIN, ph - 2 * PAGE_MARGIN - FOOTER
    best: tuple[int, int, float] | None = None
    for across in range(1, len(puzzles) + 1):
        down = math.ceil(len(puzzles) / across)
        while down >= 1:
            cell = min(aw / (across * slot_w), ah / (down * slot_h), MAX_CELL_PT)
            if cell * smallest >= MIN_CLUE_PT:
                per_page = across * down
                if best is None or (min(per_page, len(puzzles)), cell) > (min(best[0] * best[1], len(puzzles)), best[2]):
                    best = (across, down, cell)
                break
            down -= 1
    if best is None:
        raise TooLarge(f"the largest puzzle does not fit a {page} page with clues of {MIN_CLUE_PT:g} pt: "
                       "print it on its own (it is tiled)")
    across, down, cell = best
    per_page = across * down
    footer = footer or Footer()
    groups = [puzzles[i:i + per_page] for i in range(0, len(puzzles), per_page)]
    pages = []
    for n, group in enumerate(groups):
        out: list[str] = []
        for i, puzzle in enumerate(group):
            board = _board(puzzle, range(puzzle.height), range(puzzle.width), cell, puzzle.name or f"#{i + 1}")
            x, y = (i % across) * slot_w * cell, (i // across) * slot_h * cell
            board.draw(out, x, y, _inks(puzzle, None, range(puzzle.height), range(puzzle.width)))
        pages.append(_page(out, across * slot_w * cell, down * slot_h * cell, pw, ph, footer, n + 1, len(groups),
                           f"nonolab: {counted(len(group), 'puzzle')}"))
    return pages

