"""A picture from an image file: grayscale, resized, thresholded at a density; or in
colour, its colours quantised to a palette.

Pillow is an optional dependency (``pip install nonolab[png]``); it is imported
only here, when an image is read, so nothing else pays for it.

>>> import tempfile, os
>>> from PIL import Image
>>> path = os.path.join(tempfile.mkdtemp(), "bar.png")
>>> image = Image.new("L", (4, 4), 255)   # white, with a black left half
>>> image.paste(0, (0, 0, 2, 4))
>>> image.save(path)
>>> picture_from_image(path, width=2, height=2, density=0.5).tolist()
[[1, 0], [1, 0]]
>>> image = Image.new("RGB", (8, 8), "white")   # a red bar and a blue square inside a white border
>>> image.paste((255, 0, 0), (2, 2, 4, 6)); image.paste((0, 0, 255), (4, 4, 6, 6))
>>> image.save(path)
>>> picture, palette = colour_picture_from_image(path, width=4, height=4, colours=2)
>>> picture.tolist(), [c.rgb for c in palette]
([[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 2, 0], [0, 0, 0, 0]], [(255, 255, 255), (255, 0, 0), (0, 0, 255)])
"""

from __future__ import annotations

import os

import numpy as np

from nonolab.core.palette import Colour, Palette
from nonolab.errors import InvalidArgument, MissingDependency, ParseError, TooLarge
from nonolab.generate.grids import MAX_COLOURS, top_fraction

__all__ = ["picture_from_image", "colour_picture_from_image"]

# The image is first reduced (box filter) to at most this many pixels per cell along each
# axis: quantising a photograph's millions of pixels costs time and adds nothing a cell shows.
_PIXELS_PER_CELL = 4
_CHARS = "#abcdefghijklmnopqrstuvwxyz"


def picture_from_image(path: str | os.PathLike, width: int, height: int, density: float = 0.5) -> np.ndarray:
    """The 0/1 picture (``height`` x ``width``, 1 = filled) an image file gives.

    The image is converted to grayscale, resized to the grid with a box filter
    (each cell is the mean of the pixels it covers), and the ``round(density *
    cells)`` darkest cells are filled: dark means filled, and the filled fraction
    is the density whatever the image's contrast, except that no cell as light as
    the image's lightest (its background) is filled: a drawing with less ink than the
    density asks gives a sparser picture, not stray cells.  Ties are broken in
    reading order.

    Raises:
        MissingDependency: pillow is not installed.
        ParseError: the file cannot be read or is not an image pillow knows.
        InvalidArgument: a size below 1 or a density outside [0, 1].
    """
    _check_grid(width, height)
    if not 0.0 <= density <= 1.0:
        raise InvalidArgument(f"{{arg}} must be between 0 and 1, got {density!r}", argument="density")
    with _opened(path) as image:
        gray = image.convert("L").resize((width, height), _box())
    darkness = 255.0 - np.asarray(gray, dtype=np.float64)
    picture = top_fraction(darkness, density)
    # Cells as light as the lightest (the image's background) stay empty whatever the density
    # asks: filling them would draw stray cells (the first of the ties, in reading order) on
    # the background, not the picture.  The density is then at most what was asked.
    lightest = darkness.min()
    if darkness.max() > lightest:
        picture[darkness <= lightest] = 0
    return picture


def colour_picture_from_image(path: str | os.PathLike, width: int, height: int,
                              colours: int) -> tuple[np.ndarray, Palette]:
    """The colour picture (``height`` x ``width`` colour indices) and its palette an image gives.

    The image (transparent pixels count as white) is reduced with a box filter,
    its colours quantised by an octree (pillow's ``Image.quantize``, no dithering: median
    cut spent its boxes on the blends the reduction makes at the edges between two inks)
    to ``colours + 1``, and each cell takes the quantised colour most of its pixels
    have (ties: the lower palette entry), so every cell is a colour of the image, not
    a blend at an edge.  The background is the quantised colour most common on the
    image's border (ties: the lightest): the surround of a drawing, whatever its
    colour.  The palette holds the background and the colours the grid uses, most
    used first, named by their hex RGB; an image with fewer colours gives fewer.

    Raises:
        MissingDependency: pillow is not installed.
        ParseError: the file cannot be read or is not an image pillow knows.
        InvalidArgument: a size below 1 or ``colours`` outside 1..MAX_COLOURS.
    """
    _check_grid(width, height)
    if isinstance(colours, bool) or not isinstance(colours, int) or not 1 <= colours <= MAX_COLOURS:
        raise InvalidArgument(f"{{arg}} must be 1 to {MAX_COLOURS}, not {colours!r}", argument="colours")
    Image = _pillow()
    with _opened(path) as image:
        rgba = image.convert("RGBA")
        flat = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        flat.alpha_composite(rgba)
        rgb = flat.convert("RGB")
    if rgb.width > _PIXELS_PER_CELL * width or rgb.height > _PIXELS_PER_CELL * height:
        rgb = rgb.resize((min(rgb.width, _PIXELS_PER_CELL * width), min(rgb.height, _PIXELS_PER_CELL * height)),
                         _box())
    if rgb.width < width or rgb.height < height:   # smaller than the grid: each pixel covers whole cells
        rgb = rgb.resize((max(rgb.width, width), max(rgb.height, height)), Image.Resampling.NEAREST)
    quantised = rgb.quantize(colors=colours + 1, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    entries = np.asarray(quantised, dtype=np.int64)
    table = quantised.getpalette() or []
    found = int(entries.max()) + 1
    rgbs = [tuple(table[3 * i:3 * i + 3]) for i in range(found)]
    cells = _majority(entries, width, height, found)
    border = np.concatenate([entries[0], entries[-1], entries[:, 0], entries[:, -1]])
    on_border = np.bincount(border, minlength=found)
    background = max(range(found), key=lambda i: (on_border[i], sum(rgbs[i]), -i))
    used = np.bincount(cells.ravel(), minlength=found)
    inks = sorted((i for i in range(found) if i != background and used[i]), key=lambda i: (-used[i], i))
    index = np.zeros(found, dtype=np.uint8)
    index[inks] = np.arange(1, len(inks) + 1, dtype=np.uint8)
    palette_colours = [Colour("%02X%02X%02X" % rgbs[background], rgbs[background], ".")]
    palette_colours += [Colour("%02X%02X%02X" % rgbs[i], rgbs[i], _CHARS[n]) for n, i in enumerate(inks)]
    if len(palette_colours) == 1:   # a blank image: one colour, drawn black on its background
        palette_colours.append(Colour("000000" if rgbs[background] != (0, 0, 0) else "FFFFFF",
                                      (0, 0, 0) if rgbs[background] != (0, 0, 0) else (255, 255, 255), "#"))
    return index[cells], Palette(tuple(palette_colours))


def _majority(entries: np.ndarray, width: int, height: int, found: int) -> np.ndarray:
    """Per cell of the grid, the palette entry most pixels inside it have (ties: the lowest)."""
    rows = np.arange(entries.shape[0]) * height // entries.shape[0]
    columns = np.arange(entries.shape[1]) * width // entries.shape[1]
    cell = rows[:, None] * width + columns[None, :]
    votes = np.bincount((cell * found + entries).ravel(), minlength=width * height * found)
    return votes.reshape(height, width, found).argmax(axis=2)


def _check_grid(width: int, height: int) -> None:
    if width < 1 or height < 1:
        raise InvalidArgument(f"picture_from_image: grid size must be positive, got {width}x{height}")


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise MissingDependency("reading an image needs pillow; install it with: "
                                "pip install 'nonolab[png]' (or pip install pillow)") from None
    return Image


def _box():
    return _pillow().Resampling.BOX


class _opened:
    """``with _opened(path) as image``: the image pillow reads, its errors as ParseError."""

    def __init__(self, path: str | os.PathLike):
        self.path = path

    def __enter__(self):
        Image = _pillow()
        from PIL import UnidentifiedImageError
        from nonolab.formats.limits import check_pixels
        try:
            self.image = Image.open(self.path)   # the header only
            try:
                check_pixels(*self.image.size)   # before a pixel is decoded
            except TooLarge as err:
                self.image.close()
                raise err.located(path=str(self.path))
            self.image.load()
        except FileNotFoundError:
            raise ParseError("cannot read the image: no such file", path=str(self.path)) from None
        except UnidentifiedImageError:
            raise ParseError("not an image file pillow can read", path=str(self.path)) from None
        except Image.DecompressionBombError as err:   # pillow's own ceiling, met in the header
            raise TooLarge(f"the image is too large: {err}", path=str(self.path)) from None
        except (OSError, ValueError) as err:
            raise ParseError(f"cannot read the image: {err}", path=str(self.path)) from None
        return self.image

    def __exit__(self, *exc) -> None:
        self.image.close()
