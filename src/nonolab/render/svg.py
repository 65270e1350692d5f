"""The one drawing of nonolab's pictures: a board (the grid with its clues to the left
and above, optional row and column numbers to the right and below), a legend, and an
SVG document around them, on screen or fitted to a printed page.

Everything here is SVG text; PNG and PDF are made from it by :mod:`.convert`.  The
cells are one group (``class="cells"``, its grid's corner and cell size as ``data-x``,
``data-y`` and ``data-cell``) of rectangles, one per run of same-coloured cells in a
row, white cells left to the background; clues, numbers, lines and legend are groups
of their own, so a reader can find each part.

>>> board = Board(((1,), ()), ((1,), ()), cell=10)
>>> out = []; board.draw(out, 0, 0, ["#000000", "#ffffff", "#ffffff", "#ffffff"])
>>> svg = document(board.width, board.height, out)
>>> svg.count('class="clue"'), svg.startswith("<svg")
(4, True)
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from nonolab.core.puzzle import Clue
from nonolab.errors import InvalidArgument, TooLarge


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (``xml.sax.saxutils.escape``, whose
    import pulls in urllib and http: a fifth of ``nonolab check``'s start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


Cell = tuple[int, int]

# Tableau 10 without its grey (grey marks undecided cells); cycled past nine regions.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f")
FILLED_INK, EMPTY_INK, UNDECIDED_INK, MARK_INK = "#000000", "#ffffff", "#9a9a9a", "#d62728"
FREE_INK = "#7f9fbf"   # known to differ between solutions, in no region yet (the time limit came first)
FONT = "DejaVu Sans, Verdana, sans-serif"
CLUE_FONT = 0.6          # clue numbers, as a share of the cell
CHAR_WIDTH = 0.62        # a digit of a sans-serif font, as a share of its size
#: The share of its cell a column's clue number may take: the rest (a quarter: 5 px of a
#: 20 px cell) parts it from its neighbour's, so that 105 above 105 never reads 105105.
COLUMN_FIT = 0.75
MAX_CELLS = 512 * 512    # beyond this an SVG of one rectangle per cell is too big to be useful

# Printed pages in points (1/72 inch).  Clues smaller than MIN_CLUE_PT are hard to
# read on paper, so a puzzle that only fits smaller is refused rather than printed
# illegibly; a cell is never drawn larger than MAX_CELL_PT (about 1 cm).
PAGES = {"a4": (595.28, 841.89), "a3": (841.89, 1190.55), "letter": (612.0, 792.0)}
PAGE_MARGIN, MIN_CLUE_PT, MAX_CELL_PT = 36.0, 6.0, 28.0


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _luminance(colour: str) -> float:
    """The relative luminance of ``#RRGGBB`` (WCAG 2)."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def readable_on(colour: str) -> str:
    """Black or white, whichever contrasts more with ``colour`` (``#RRGGBB``; WCAG 2 ratios).

    >>> readable_on("#FFD700"), readable_on("#000080"), readable_on("#FF0000")
    ('#000000', '#ffffff', '#000000')
    """
    light = _luminance(colour)
    return "#000000" if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else "#ffffff"


def text_width(text: str, size: float) -> float:
    """An estimate of the drawn width of ``text`` (about 0.6 em per character)."""
    return len(text) * size * 0.6


def check_drawable(width: int, height: int) -> None:
    """Refuse a board too large to draw, before anything is computed for it (a caller that
    solves first, as ``render --steps`` does, asks here before the search).

    >>> check_drawable(600, 600)
    Traceback (most recent call last):
    ...
    nonolab.errors.TooLarge: 600x600 is too large to draw (360,000 cells; pictures hold at most 262,144)
    """
    if width * height > MAX_CELLS:
        raise TooLarge(f"{width}x{height} is too large to draw ({width * height:,} cells; "
                       f"pictures hold at most {MAX_CELLS:,})")


class Board:
    """The geometry of one board: where the clues, the grid and the numbers go.

    Args:
        rows, columns: the clues (an empty clue is drawn as ``0``).
        cell: the side of a cell, in SVG units (pixels on screen).
        labels: draw 1-based row numbers right of the grid and column numbers below it.
        caption: a line of text above the column clues.
        mirror: repeat the clues right of the grid and below it (for large grids, so the
            far side of a printed page has its clues at hand).
        struck: ``(kind, line)`` pairs, kind 0 a row and 1 a column, whose clue numbers are
            struck through (the line is satisfied).

    Attributes ``width`` and ``height`` are the board's size; the grid's top left corner
    is at ``(left, top)`` from the board's own corner.
    """

    def __init__(self, rows: Sequence[Clue], columns: Sequence[Clue], cell: float = 20, labels: bool = False,
                 caption: str = "", inks: tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]] | None = None,
                 mirror: bool = False, struck: Iterable[tuple[int, int]] = ()):
        if not 0 < cell < float("inf"):   # nan compares false with everything: it is refused too
            raise InvalidArgument(f"cell size must be a positive, finite number, not {cell}")
        check_drawable(len(columns), len(rows))
        self.rows, self.columns, self.cell, self.labels, self.caption = rows, columns, cell, labels, caption
        self.mirror, self.struck = mirror, frozenset(struck)
        self.inks = inks    # a colour puzzle: the fill of each row and column clue number
        digits = max(len(str(n)) for clue in rows for n in (clue or (0,))) if rows else 1
        column_digits = max(len(str(n)) for clue in columns for n in (clue or (0,))) if columns else 1
        self.font = cell * CLUE_FONT
        self.slot_width = max(cell, digits * CHAR_WIDTH * self.font + 0.4 * cell)
        self.column_font = min(self.font, COLUMN_FIT * cell / (column_digits * CHAR_WIDTH))
        #: The smallest clue number drawn (a print holds it to MIN_CLUE_PT).
        self.smallest_font = min(self.font, self.column_font)
        self.slot_height = 0.85 * cell
        self.caption_height = 1.3 * cell if caption else 0.0
        gap = 0.3 * cell
        self.left = max(len(c) or 1 for c in rows) * self.slot_width + gap
        self.top = self.caption_height + max(len(c) or 1 for c in columns) * self.slot_height + gap
        self.label_font = 0.45 * cell
        digits = len(str(max(len(rows), len(columns))))
        right = digits * CHAR_WIDTH * self.label_font + 0.5 * cell if labels else 0.0
        bottom = 1.0 * cell if labels else 0.0
        self.label_right, self.label_bottom = right, bottom
        if mirror:
            right += self.left
            bottom += self.top - self.caption_height
        self.width = max(self.left + len(columns) * cell + right, text_width(caption, self.font))
        self.height = self.top + len(rows) * cell + bottom

    def draw(self, out: list[str], x0: float, y0: float, colours: Sequence[str],
             letters: Mapping[Cell, tuple[str, str]] | None = None,
             rings: Iterable[Cell] = (), frames: Iterable[Cell] = (), frame_colour: str = MARK_INK,
             layers: Sequence[str] = (), dots: Iterable[Cell] = ()) -> None:
        """Append the board at ``(x0, y0)`` to ``out``.

        Args:
            colours: one fill per cell, row-major.
            letters: ``{(r, c): (text, ink)}`` drawn in those cells.
            rings: cells ringed (suggested givens): a white halo and a black ring each.
            frames: cells framed in ``frame_colour`` (cells that differ).
            layers: SVG elements drawn over the cells, under the grid lines.
            dots: cells marked with a dot (a given empty cell of a puzzle's picture).
        """
        h, w, size = len(self.rows), len(self.columns), self.cell
        gx, gy = x0 + self.left, y0 + self.top
        self._cells(out, gx, gy, colours)
        out.extend(layers)
        dots = list(dots)
        if dots:
            out.append(f'<g class="given-empty" fill="{FILLED_INK}" data-count="{len(dots)}">')
            out += [f'<circle cx="{_num(gx + (c + 0.5) * size)}" cy="{_num(gy + (r + 0.5) * size)}" '
                    f'r="{_num(size * 0.13)}"/>' for r, c in dots]
            out.append("</g>")
        if letters and size >= 10:
            out.append(f'<g class="letters" font-family="{FONT}" font-size="{_num(size * 0.6)}" '
                       'text-anchor="middle">')
            for (r, c), (text, ink) in sorted(letters.items()):
                out.append(f'<text x="{_num(gx + (c + 0.5) * size)}" y="{_num(gy + (r + 0.72) * size)}" '
                           f'fill="{ink}">{escape(text)}</text>')
            out.append("</g>")
        self._grid_lines(out, gx, gy)
        frames = list(frames)
        if frames:
            width = max(size / 8, 1.5)
            out.append(f'<g class="marks" fill="none" stroke="{frame_colour}" stroke-width="{_num(width)}">')
            for r, c in frames:
                out.append(f'<rect x="{_num(gx + c * size + width / 2)}" y="{_num(gy + r * size + width / 2)}" '
                           f'width="{_num(size - width)}" height="{_num(size - width)}"/>')
            out.append("</g>")
        rings = list(rings)
        if rings:
            out.append(f'<g class="givens" fill="none" data-count="{len(rings)}">')
            for r, c in rings:
                cx, cy = _num(gx + (c + 0.5) * size), _num(gy + (r + 0.5) * size)
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{_num(size * 0.36)}" stroke="#ffffff" '
                           f'stroke-width="{_num(max(size / 6, 2.0))}"/>')
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{_num(size * 0.36)}" stroke="#000000" '
                           f'stroke-width="{_num(max(size / 12, 1.0))}"/>')
            out.append("</g>")
        self._clues(out, x0, y0)
        if self.labels:
            self._labels(out, gx, gy)
        if self.caption:
            out.append(f'<text class="caption" x="{_num(x0)}" y="{_num(y0 + self.cell * 0.9)}" '
                       f'font-family="{FONT}" font-size="{_num(self.font)}" font-weight="bold">'
                       f'{escape(self.caption)}</text>')

    def _cells(self, out: list[str], gx: float, gy: float, colours: Sequence[str]) -> None:
        """One rectangle per run of same-coloured cells in a row, none for white ones (the
        background): a converter's time grows with the elements, and a noisy 100x100
        picture has half as many runs as cells."""
        w, size = len(self.columns), self.cell
        out.append(f'<g class="cells" data-x="{_num(gx)}" data-y="{_num(gy)}" data-cell="{_num(size)}">')
        for r in range(len(self.rows)):
            row = colours[r * w:(r + 1) * w]
            c = 0
            while c < w:
                end = c + 1
                while end < w and row[end] == row[c]:
                    end += 1
                if row[c] != EMPTY_INK:
                    out.append(f'<rect x="{_num(gx + c * size)}" y="{_num(gy + r * size)}" '
                               f'width="{_num((end - c) * size)}" height="{_num(size)}" fill="{row[c]}"/>')
                c = end
        out.append("</g>")

    def _grid_lines(self, out: list[str], gx: float, gy: float) -> None:
        """Thin lines between cells, thick ones every five cells and around the grid; in
        light grey, the same lines through the clues, so that neighbouring clues of two
        lines (``10`` over one column, ``13`` over the next) read apart.  Each kind is one
        path (a converter's time grows with the elements)."""
        h, w, size = len(self.rows), len(self.columns), self.cell
        thin, thick = max(size / 32, 0.5), max(size / 12, 1.25)
        x0, y0 = gx - self.left, gy - self.top + self.caption_height
        right, bottom = _num(gx + w * size), _num(gy + h * size)
        light = [f"M{_num(gx + i * size)} {_num(y0)}V{_num(gy)}" for i in range(w + 1)]
        light += [f"M{_num(x0)} {_num(gy + i * size)}H{_num(gx)}" for i in range(h + 1)]
        inner: dict[bool, list[str]] = {False: [], True: []}
        for i in range(w + 1):
            inner[i % 5 == 0 or i == w].append(f"M{_num(gx + i * size)} {_num(gy)}V{bottom}")
        for i in range(h + 1):
            inner[i % 5 == 0 or i == h].append(f"M{_num(gx)} {_num(gy + i * size)}H{right}")
        out.append('<g class="grid" fill="none">')
        for path, colour, width in (("".join(light), "#dcdcdc", thin), ("".join(inner[False]), "#b4b4b4", thin),
                                    ("".join(inner[True]), "#333333", thick)):
            if path:
                out.append(f'<path d="{path}" stroke="{colour}" stroke-width="{_num(width)}"/>')
        out.append("</g>")

    def _clues(self, out: list[str], x0: float, y0: float) -> None:
        """Every number of every clue as its own text element, tagged with its line.

        A colour puzzle's numbers stand on swatches of their block's colour, each number
        in black or white, whichever reads better on it (a yellow 3 on white would not
        read, nor a black 3 on navy): the swatches first, one group, under the numbers.
        With ``mirror`` the numbers are drawn again right of the grid and below it; the
        numbers of a struck line get a line through them."""
        size, gap = self.cell, 0.3 * self.cell
        swatches: list[str] = []
        texts: list[str] = []
        strokes: list[str] = []
        gx, gy = x0 + self.left, y0 + self.top
        sides = [(gx - gap, gy - gap, 1)]
        if self.mirror:
            sides.append((gx + len(self.columns) * size + self.label_right + gap,
                          gy + len(self.rows) * size + self.label_bottom + gap, -1))
        for right, bottom, way in sides:
            for r, clue in enumerate(self.rows):
                numbers = clue or (0,)
                y = gy + (r + 0.5) * size + 0.35 * self.font
                for i, n in enumerate(numbers):
                    slot = len(numbers) - i - 0.5 if way == 1 else i + 0.5
                    x = right - way * slot * self.slot_width
                    box = (x - self.slot_width / 2 + 0.05 * size, gy + (r + 0.08) * size,
                           self.slot_width - 0.1 * size, 0.84 * size)
                    texts.append(f'<text class="clue" data-row="{r}" x="{_num(x)}" y="{_num(y)}" '
                                 f'font-size="{_num(self.font)}"{self._ink(0, r, i, box, swatches)}>{n}</text>')
                    if (0, r) in self.struck:
                        strokes.append(self._stroke(x, y - 0.35 * self.font, 0.3 * self.slot_width + 0.1 * size))
            for c, clue in enumerate(self.columns):
                numbers = clue or (0,)
                x = gx + (c + 0.5) * size
                for i, n in enumerate(numbers):
                    if way == 1:
                        y = bottom - (len(numbers) - i - 1) * self.slot_height - 0.2 * self.slot_height
                    else:
                        y = bottom + (i + 0.8) * self.slot_height
                    box = (x - 0.42 * size, y + 0.2 * self.slot_height - 0.96 * self.slot_height, 0.84 * size,
                           0.92 * self.slot_height)
                    texts.append(f'<text class="clue" data-column="{c}" x="{_num(x)}" y="{_num(y)}" '
                                 f'font-size="{_num(self.column_font)}"{self._ink(1, c, i, box, swatches)}>{n}</text>')
                    if (1, c) in self.struck:
                        strokes.append(self._stroke(x, y - 0.35 * self.column_font, 0.4 * size))
        if swatches:
            out.append('<g class="clue-swatches" stroke="#555555" stroke-width="0.5">')
            out.extend(swatches)
            out.append("</g>")
        out.append(f'<g class="clues" font-family="{FONT}" text-anchor="middle" fill="#000000">')
        out.extend(texts)
        out.append("</g>")
        if strokes:
            out.append(f'<g class="struck" stroke="#808080" stroke-width="{_num(max(size / 16, 0.6))}" '
                       f'data-count="{len(self.struck)}">')
            out.extend(strokes)
            out.append("</g>")

    @staticmethod
    def _stroke(x: float, y: float, half: float) -> str:
        return f'<path d="M{_num(x - half)} {_num(y)}H{_num(x + half)}"/>'

    def _ink(self, kind: int, line: int, block: int, box: tuple[float, float, float, float],
             swatches: list[str]) -> str:
        """A colour clue number's swatch (added to ``swatches``: its block's colour) and
        its fill attribute (the more readable of black and white on that colour);
        nothing in black and white."""
        if self.inks is None or block >= len(self.inks[kind][line]):
            return ""
        colour = self.inks[kind][line][block]
        x, y, w, h = box
        swatches.append(f'<rect class="swatch" x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                        f'rx="{_num(0.12 * self.cell)}" fill="{colour}"/>')
        return f' fill="{readable_on(colour)}" data-colour="{colour}"'


    def _labels(self, out: list[str], gx: float, gy: float) -> None:
        """1-based row numbers right of the grid, column numbers below it (as the text output names cells)."""
        h, w, size, font = len(self.rows), len(self.columns), self.cell, self.label_font
        out.append(f'<g class="labels" font-family="{FONT}" font-size="{_num(font)}" fill="#666666">')
        for r in range(h):
            out.append(f'<text class="label" data-row="{r}" x="{_num(gx + w * size + 0.25 * size)}" '
                       f'y="{_num(gy + (r + 0.5) * size + 0.35 * font)}">{r + 1}</text>')
        for c in range(w):
            out.append(f'<text class="label" data-column="{c}" x="{_num(gx + (c + 0.5) * size)}" '
                       f'y="{_num(gy + h * size + 0.75 * size)}" text-anchor="middle">{c + 1}</text>')
        out.append("</g>")


Swatch = tuple
"""How a legend entry is drawn: ``("fill", colour)``, ``("pair", colour, colour)`` (two
halves), ``("ring",)``, ``("frame", colour)`` or ``("crossed", colour)`` (a value ruled out)."""


class Legend:
    """Lines of ``(swatch, text)`` below the boards; only what the picture draws.

    The text is never smaller than :data:`LEGEND_MIN_FONT` (readable in a PNG at any
    ``--cell``) and grows with the cell; :meth:`fit` wraps it to the width of the boards
    it explains, so that at a small cell the legend stays within the picture instead of
    making it several times wider than the grid.

    >>> legend = Legend([(("ring",), "ring: a suggested given (2 in all)")], cell=5)
    >>> legend.width > 16 * legend.font, legend.fit(80).width <= 16 * legend.font, legend.lines[0]
    (True, True, ['ring: a suggested given', '(2 in all)'])
    """

    def __init__(self, entries: Sequence[tuple[Swatch, str]], cell: float):
        self.entries = list(entries)
        self.font = max(cell * 0.55, LEGEND_MIN_FONT)
        self.step = self.font * 1.5
        self.fit(None)

    def fit(self, width: float | None) -> "Legend":
        """Wrap each entry's text (at spaces) to ``width``, swatch included, but never
        narrower than :data:`LEGEND_MIN_EMS` fonts (a few words a line); ``None``: one line each."""
        f = self.font
        room = None if width is None else max(width, LEGEND_MIN_EMS * f) - SWATCH_EMS * f
        self.lines = [_wrap(text, room, f) for _, text in self.entries]
        self.width = max((SWATCH_EMS * f + text_width(line, f) for lines in self.lines for line in lines),
                         default=0.0)
        count = sum(len(lines) for lines in self.lines)
        self.height = self.step * count + (f * 0.5 if self.entries else 0.0)
        return self

    def draw(self, out: list[str], x0: float, y0: float) -> None:
        if not self.entries:
            return
        f = self.font
        out.append(f'<g class="legend" font-family="{FONT}" font-size="{_num(f)}" fill="#000000">')
        row = 0
        for (swatch, _), lines in zip(self.entries, self.lines):
            top = y0 + f * 0.5 + row * self.step
            self._swatch(out, swatch, x0, top)
            x = _num(x0 + f * SWATCH_EMS)
            # One text element an entry (a reader finds each entry whole); a wrapped one
            # continues in tspans, each a line lower, indented under the first.
            text = escape(lines[0]) + "".join(f'<tspan x="{x}" dy="{_num(self.step)}">{escape(line)}</tspan>'
                                              for line in lines[1:])
            out.append(f'<text class="entry" x="{x}" y="{_num(top + f * 0.85)}">{text}</text>')
            row += len(lines)
        out.append("</g>")

    def _swatch(self, out: list[str], swatch: Swatch, x0: float, top: float) -> None:
        f = self.font
        x, y, s = _num(x0), _num(top), _num(f)
        kind = swatch[0]
        if kind == "fill":
            out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{swatch[1]}" stroke="#333333" '
                       'stroke-width="0.5"/>')
        elif kind == "pair":
            half = _num(f / 2)
            out.append(f'<rect x="{x}" y="{y}" width="{half}" height="{s}" fill="{swatch[1]}"/>')
            out.append(f'<rect x="{_num(x0 + f / 2)}" y="{y}" width="{half}" height="{s}" fill="{swatch[2]}"/>')
            out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="none" stroke="#333333" '
                       'stroke-width="0.5"/>')
        elif kind == "ring":
            out.append(f'<circle cx="{_num(x0 + f / 2)}" cy="{_num(top + f / 2)}" r="{_num(f * 0.4)}" '
                       f'fill="none" stroke="#000000" stroke-width="{_num(max(f / 8, 1))}"/>')
        elif kind == "note":   # a warning: a red disc with a white "!"
            out.append(f'<circle cx="{_num(x0 + f / 2)}" cy="{_num(top + f / 2)}" r="{_num(f / 2)}" '
                       f'fill="{swatch[1]}"/>')
            out.append(f'<text x="{_num(x0 + f / 2)}" y="{_num(top + f * 0.85)}" text-anchor="middle" '
                       f'font-weight="bold" fill="#ffffff">!</text>')
        elif kind == "frame":
            out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="none" stroke="{swatch[1]}" '
                       f'stroke-width="{_num(max(f / 7, 1.5))}"/>')
        elif kind == "crossed":
            out.append(crossed(x0, top, f, swatch[1]))


def crossed(x: float, y: float, size: float, colour: str) -> str:
    """A small square of ``colour`` struck through: a value ruled out of a cell.

    >>> crossed(0, 0, 4, "#ff0000").count("<line")
    1
    """
    red, green, blue = (int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))
    stroke = "#ffffff" if 0.299 * red + 0.587 * green + 0.114 * blue < 128 else "#000000"   # seen on any colour
    return (f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(size)}" height="{_num(size)}" fill="{colour}" '
            f'stroke="#333333" stroke-width="{_num(max(size / 12, 0.4))}"/>'
            f'<line x1="{_num(x)}" y1="{_num(y + size)}" x2="{_num(x + size)}" y2="{_num(y)}" stroke="{stroke}" '
            f'stroke-width="{_num(max(size / 6, 0.6))}"/>')


#: The legend's smallest text, in pixels (user units): readable in a PNG at any cell size.
LEGEND_MIN_FONT = 9.0
#: A legend is never wrapped narrower than this many of its fonts (swatch included).
LEGEND_MIN_EMS = 16.0
#: The swatch and the space after it, in fonts.
SWATCH_EMS = 1.6


def _wrap(text: str, room: float | None, font: float) -> list[str]:
    """``text`` in lines no wider than ``room`` (by :func:`text_width`), broken at spaces;
    a word longer than a line stands alone on its line."""
    if room is None:
        return [text]
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", font) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def document(width: float, height: float, body: Sequence[str], title: str = "", page: str | None = None,
             clue_size: float | None = None) -> str:
    """The SVG document: ``width`` x ``height`` pixels, or, with ``page`` (``"a4"``,
    ``"a3"`` or ``"letter"``), the drawing scaled to fit that page (landscape when the drawing is
    wider than high) within margins, in points.

    Raises:
        InvalidArgument: an unknown page name.
        TooLarge: on the page, clues of ``clue_size`` units would print below
            ``MIN_CLUE_PT`` points.
    """
    head = ['<svg xmlns="http://www.w3.org/2000/svg"']
    body = list(body)
    if page is None:
        w, h = round(width + 0.499), round(height + 0.499)
        head.append(f' width="{w}" height="{h}" viewBox="0 0 {w} {h}">')
        prefix, suffix = [f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>'], []
    else:
        if page not in PAGES:
            raise InvalidArgument(f"{{arg}} {page!r} is unknown: use one of {', '.join(PAGES)}", argument="page")
        # The page turns with the drawing: landscape for a drawing wider than high.
        pw, ph = sorted(PAGES[page], reverse=width > height)
        scale = min((pw - 2 * PAGE_MARGIN) / width, (ph - 2 * PAGE_MARGIN) / height)
        if clue_size:
            scale = min(scale, MAX_CELL_PT * CLUE_FONT / clue_size)
            if clue_size * scale < MIN_CLUE_PT:
                raise TooLarge(f"too large to print on one {page} page: its clues would be "
                               f"{clue_size * scale:.1f} pt, below {MIN_CLUE_PT:g} pt (print it tiled over several pages, "
                               "on a larger page, or write svg or png instead)")
        x = (pw - width * scale) / 2
        head.append(f' width="{_num(pw)}pt" height="{_num(ph)}pt" viewBox="0 0 {_num(pw)} {_num(ph)}">')
        prefix = [f'<rect x="0" y="0" width="{_num(pw)}" height="{_num(ph)}" fill="#ffffff"/>',
                  f'<g transform="translate({_num(x)} {_num(PAGE_MARGIN)}) scale({scale:.5f})">']
        suffix = ["</g>"]
    if title:
        prefix.insert(0, f"<title>{escape(title)}</title>")
    return "".join(head) + "\n" + "\n".join(prefix + body + suffix) + "\n</svg>\n"
