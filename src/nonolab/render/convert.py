"""SVG to PNG and PDF, through one library: cairosvg (the ``pictures`` extra).

cairosvg draws with the system's cairo library (Debian: libcairo2) and writes both
raster (PNG) and vector (PDF) output from the same SVG, so a printed page and a screen
picture cannot drift apart; it is imported only when a PNG or PDF is asked for.

>>> to_png('<svg xmlns="http://www.w3.org/2000/svg" width="3" height="2"/>')[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

from typing import Any

from nonolab.errors import MissingDependency

FORMATS = ("svg", "png", "pdf")


def _cairosvg() -> Any:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:   # OSError: the package is there, libcairo is not
        raise MissingDependency(f"PNG and PDF pictures need cairosvg and the cairo library ({exc}); "
                                'install them with: pip install "nonolab[pictures]" (Debian: apt-get install '
                                "libcairo2), or write SVG") from exc
    return cairosvg


def png_size(svg: str, scale: float = 1.0) -> tuple[int, int] | None:
    """The pixels (width, height) of ``svg`` drawn as a PNG at ``scale``, from its root's
    ``width`` and ``height`` (None: it gives none).

    >>> png_size('<svg xmlns="http://www.w3.org/2000/svg" width="300.5" height="149">', 2)
    (601, 298)
    """
    import math
    import re

    root = re.search(r"<svg\b[^>]*>", svg)
    if root is None:
        return None
    width, height = (re.search(rf'\s{name}="([0-9.]+)(?:px)?"', root.group(0)) for name in ("width", "height"))
    if width is None or height is None:
        return None
    return math.ceil(float(width.group(1)) * scale), math.ceil(float(height.group(1)) * scale)


def check_png(svg: str, scale: float = 1.0) -> None:
    """Refuse to draw ``svg`` as a PNG beyond the pixel limit of the images nonolab reads
    (``NONOLAB_MAX_PIXELS``, 25,000,000 by default): cairo holds 4 bytes a pixel while it
    draws, and refuses a side beyond 32,767 pixels.

    Raises:
        TooLarge: the PNG would hold more pixels than the limit.
    """
    from nonolab.errors import TooLarge
    from nonolab.formats.limits import PIXELS_VARIABLE, active

    size, limit = png_size(svg, scale), active().max_pixels
    if size is not None and limit is not None and size[0] * size[1] > limit:
        width, height = size
        raise TooLarge(f"the PNG would be {width}x{height} = {width * height:,} pixels, beyond the limit of "
                       f"{limit:,} pixels: draw it smaller, or as SVG or PDF",
                       raise_with=f"{PIXELS_VARIABLE}=N, or InputLimits(max_pixels=N)")


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of ``svg``, one pixel per SVG unit times ``scale``, within the pixel limit
    (:func:`check_png`).

    Raises:
        TooLarge: the PNG would hold more pixels than the limit.
    """
    check_png(svg, scale)
    return _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def to_pdf(svg: str) -> bytes:
    """PDF bytes of ``svg`` (a page-sized SVG gives a page of that size)."""
    return _cairosvg().svg2pdf(bytestring=svg.encode("utf-8"))


def to_pdf_pages(pages: list[str]) -> bytes:
    """One PDF of several page-sized SVGs, a page each (cairosvg draws one SVG per surface:
    the later pages are drawn on the first one's PDF surface after ``show_page``)."""
    import io

    cairosvg = _cairosvg()
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface, node_format

    out = io.BytesIO()
    surface = PDFSurface(Tree(bytestring=pages[0].encode("utf-8")), out, 72)
    for svg in pages[1:]:
        tree = Tree(bytestring=svg.encode("utf-8"))
        surface.cairo.show_page()
        width, height, viewbox = node_format(surface, tree)
        units = surface.device_units_per_user_units
        surface.cairo.set_size(width * units, height * units)
        surface.context = cairosvg.surface.cairo.Context(surface.cairo)
        surface.context.scale(units, units)
        surface.set_context_size(width, height, viewbox or (0, 0, width, height), tree)
        surface.context.move_to(0, 0)
        surface.draw(tree)
    surface.finish()
    return out.getvalue()


def encode(svg: str, fmt: str) -> str | bytes:
    """``svg`` as ``fmt`` (``svg``, ``png`` or ``pdf``): text for SVG, bytes otherwise."""
    if fmt == "svg":
        return svg
    if fmt == "png":
        return to_png(svg)
    if fmt == "pdf":
        return to_pdf(svg)
    from nonolab.errors import InvalidArgument
    raise InvalidArgument(f"unknown picture format {fmt!r}: name one of {', '.join(FORMATS)} with {{arg}}",
                          argument="picture:fmt")
