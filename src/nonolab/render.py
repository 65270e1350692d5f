"""Pictures of grids, solutions and the differences between solutions: text for the
terminal; SVG and PNG (with pillow) for the regions of an ambiguity report.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from nonolab.core.grid import EMPTY, FILLED, UNKNOWN, Grid, Solution
from nonolab.errors import BackendUnavailable

_CELL = {EMPTY: ".", FILLED: "#", UNKNOWN: "?", 0: "!"}


def grid_text(grid: Grid, highlight: Iterable[tuple[int, int]] = ()) -> str:
    """The grid with ``#`` filled, ``.`` empty, ``?`` unknown; highlighted cells in upper
    case letters (``X`` filled, ``O`` empty) so a step's changes stand out without colour.

    >>> g = Grid(1, 3); g.set(0, 0, FILLED); g.set(0, 1, EMPTY)
    >>> grid_text(g, [(0, 0)])
    'X.?'
    """
    marks = set(highlight)
    w = grid.width
    lines = []
    for r in range(grid.height):
        row = []
        for c in range(w):
            v = grid.cells[r * w + c]
            if (r, c) in marks:
                row.append("X" if v == FILLED else "O")
            else:
                row.append(_CELL[v])
        lines.append("".join(row))
    return "\n".join(lines)


def diff_text(first: Solution, second: Solution) -> str:
    """Two solutions side by side, with a third picture marking where they differ (``*``).

    >>> print(diff_text(Solution.from_rows(["#.", ".#"]), Solution.from_rows([".#", "#."])))
    #.  .#  **
    .#  #.  **
    """
    differ = set(first.diff(second))
    rows = []
    for r in range(first.height):
        a = "".join("#" if v else "." for v in first[r])
        b = "".join("#" if v else "." for v in second[r])
        d = "".join("*" if (r, c) in differ else "." for c in range(first.width))
        rows.append(f"{a}  {b}  {d}")
    return "\n".join(rows)


# --- pictures of the regions where solutions differ ------------------------------------

Cell = tuple[int, int]

# Tableau 10 without its grey (grey marks undecided cells); cycled past nine regions.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f")
_UNDECIDED = "#9a9a9a"
_LEGEND = ("black/white: the same in every solution", "colours: regions (dark: filled here)",
           "ring: a suggested given")


def _label(k: int, filled: int) -> str:
    letter = chr(ord("a") + k % 26)
    return letter.upper() if filled else letter


def regions_text(reference: Solution, regions: Sequence[Iterable[Cell]] = (),
                 undecided: Iterable[Cell] = ()) -> str:
    """The reference solution with backbone cells as ``#``/``.``, the cells of region
    ``k`` as its letter (``a``, ``b``, ...; capital where the reference is filled) and
    ``undecided`` cells (not classified) as ``?``.

    >>> print(regions_text(Solution.from_rows(["#.#", ".##"]), [[(0, 0), (0, 1), (1, 0), (1, 1)]]))
    Aa#
    aA#
    """
    marks: dict[Cell, str] = {cell: "?" for cell in undecided}
    for k, cells in enumerate(regions):
        for r, c in cells:
            marks[(r, c)] = _label(k, reference[r][c])
    return "\n".join("".join(marks.get((r, c), "#" if v else ".") for c, v in enumerate(row))
                     for r, row in enumerate(reference))


def _tint(colour: str, share: float) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - v) * share):02x}" for v in rgb)


def _shapes(reference: Solution, regions: Sequence[Iterable[Cell]], givens: Iterable[Cell],
            undecided: Iterable[Cell], size: int) -> tuple[int, int, list[tuple]]:
    """The picture as drawing primitives, shared by the SVG and PNG writers.

    ``("rect", x, y, w, h, fill)``, ``("line", x1, y1, x2, y2, colour, width)``,
    ``("ring", cx, cy, r, colour, width)``, ``("text", x, y, text, colour, px)``.
    """
    pad = size
    h, w = reference.height, reference.width
    fill: dict[Cell, tuple[str, str]] = {cell: (_UNDECIDED, "") for cell in undecided}
    legend = (*_LEGEND, "grey: not classified (time limit)") if fill else _LEGEND
    px = max(size * 0.5, 8)
    if size < 10:
        legend = ()
    # About 0.6 em per character in a sans-serif font: wide enough for the legend.
    width = max(w * size + 2 * pad, round(max(map(len, legend), default=0) * px * 0.6) + 2 * pad)
    height = h * size + 2 * pad + round(len(legend) * px * 1.3)
    for k, cells in enumerate(regions):
        colour = PALETTE[k % len(PALETTE)]
        for r, c in cells:
            filled = reference[r][c]
            fill[(r, c)] = (colour if filled else _tint(colour, 0.3), _label(k, filled))
    shapes: list[tuple] = [("rect", 0, 0, width, height, "#ffffff")]
    for r, row in enumerate(reference):
        for c, v in enumerate(row):
            colour, label = fill.get((r, c), ("#000000" if v else "#ffffff", ""))
            x, y = pad + c * size, pad + r * size
            shapes.append(("rect", x, y, size, size, colour))
            if label and size >= 12:
                ink = "#ffffff" if label.isupper() else "#000000"
                shapes.append(("text", x + size / 2, y + size * 0.72, label, ink, size * 0.6))
    for i in range(w + 1):
        strong = i % 5 == 0 or i == w
        shapes.append(("line", pad + i * size, pad, pad + i * size, pad + h * size,
                       "#555555" if strong else "#c8c8c8", 1.5 if strong else 0.75))
    for i in range(h + 1):
        strong = i % 5 == 0 or i == h
        shapes.append(("line", pad, pad + i * size, pad + w * size, pad + i * size,
                       "#555555" if strong else "#c8c8c8", 1.5 if strong else 0.75))
    for r, c in givens:
        cx, cy = pad + (c + 0.5) * size, pad + (r + 0.5) * size
        shapes.append(("ring", cx, cy, size * 0.36, "#ffffff", max(size / 6, 2.0)))
        shapes.append(("ring", cx, cy, size * 0.36, "#000000", max(size / 12, 1.0)))
    for i, line in enumerate(legend):
        shapes.append(("text", pad, h * size + pad + size * 0.5 + (i + 1) * px * 1.3 - px * 0.3, line,
                       "#000000", px))
    return width, height, shapes


def regions_svg(reference: Solution, regions: Sequence[Iterable[Cell]] = (), givens: Iterable[Cell] = (),
                undecided: Iterable[Cell] = (), cell_size: int = 16, title: str = "") -> str:
    """An SVG picture of the reference solution: backbone cells black and white, each
    region in its own colour (dark where the reference is filled, light where it is
    empty, with its letter), ``undecided`` cells (not classified) grey, suggested
    givens ringed.

    >>> svg = regions_svg(Solution.from_rows(["#.", ".#"]), [[(0, 0), (0, 1), (1, 0), (1, 1)]], [(0, 0)])
    >>> svg.startswith("<svg") and "<circle" in svg and PALETTE[0] in svg
    True
    """
    from xml.sax.saxutils import escape

    width, height, shapes = _shapes(reference, list(regions), givens, undecided, cell_size)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for shape in shapes:
        kind, *a = shape
        if kind == "rect":
            out.append(f'<rect x="{a[0]:g}" y="{a[1]:g}" width="{a[2]:g}" height="{a[3]:g}" fill="{a[4]}"/>')
        elif kind == "line":
            out.append(f'<line x1="{a[0]:g}" y1="{a[1]:g}" x2="{a[2]:g}" y2="{a[3]:g}" stroke="{a[4]}" '
                       f'stroke-width="{a[5]:g}"/>')
        elif kind == "ring":
            out.append(f'<circle cx="{a[0]:g}" cy="{a[1]:g}" r="{a[2]:g}" fill="none" stroke="{a[3]}" '
                       f'stroke-width="{a[4]:g}"/>')
        else:
            anchor = "middle" if len(a[2]) == 1 else "start"
            out.append(f'<text x="{a[0]:g}" y="{a[1]:g}" fill="{a[3]}" font-size="{a[4]:g}" '
                       f'font-family="sans-serif" text-anchor="{anchor}">{escape(a[2])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def regions_png(reference: Solution, regions: Sequence[Iterable[Cell]] = (), givens: Iterable[Cell] = (),
                undecided: Iterable[Cell] = (), cell_size: int = 16) -> bytes:
    """The picture of :func:`regions_svg` as PNG bytes (needs pillow).

    Raises:
        BackendUnavailable: pillow is not installed.

    >>> regions_png(Solution.from_rows(["#.", ".#"]))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    import io

    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:
        raise BackendUnavailable(f"PNG output needs pillow ({exc}); install it with: pip install pillow "
                                 "(or write SVG)") from exc

    width, height, shapes = _shapes(reference, list(regions), givens, undecided, cell_size)
    image = Image.new("RGB", (width, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    fonts: dict[int, Any] = {}
    for shape in shapes:
        kind, *a = shape
        if kind == "rect":
            draw.rectangle([a[0], a[1], a[0] + a[2] - 1, a[1] + a[3] - 1], fill=a[4])
        elif kind == "line":
            draw.line([a[0], a[1], a[2], a[3]], fill=a[4], width=max(1, round(a[5])))
        elif kind == "ring":
            draw.ellipse([a[0] - a[2], a[1] - a[2], a[0] + a[2], a[1] + a[2]], outline=a[3],
                         width=max(1, round(a[4])))
        else:
            px = max(8, round(a[4]))
            if px not in fonts:
                try:
                    fonts[px] = ImageFont.load_default(size=px)
                except TypeError:       # pillow before 10.1: one bitmap size, no anchors
                    fonts[px] = ImageFont.load_default()
            if isinstance(fonts[px], ImageFont.FreeTypeFont):
                draw.text((a[0], a[1]), a[2], fill=a[3], font=fonts[px], anchor="ms" if len(a[2]) == 1 else "ls")
            else:
                draw.text((a[0] - (px * 0.3 if len(a[2]) == 1 else 0), a[1] - px), a[2], fill=a[3], font=fonts[px])
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
