"""PNG pictures: one pixel per cell, white (or transparent) is the background, every
other RGB value a colour; the picture is the goal and the clues come from it.

Read and written with pillow (``pip install 'nonolab[png]'``), imported only when a
PNG is read or written: any PNG pillow decodes (grey, RGB, palette, with alpha,
interlaced, 1-16 bits) reads.  :func:`nonolab.formats.load` hands the file over as
its bytes decoded as latin-1 (one character per byte), as for PBM ``P4``.  Written
pictures are 8-bit RGB.

>>> from nonolab.core import Puzzle, Solution
>>> p = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]))
>>> q = parse(write(p))[0]
>>> q == p, [c.rgb for c in q.palette] == [c.rgb for c in p.palette]
(True, True)
"""

from __future__ import annotations

import io

from nonolab.core.grid import Solution
from nonolab.core.palette import Colour, Palette
from nonolab.core.puzzle import Puzzle
from nonolab.errors import MissingDependency, ParseError, TooLarge
from nonolab.formats._common import need_goal
from nonolab.formats.limits import check_cells, check_pixels

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_WHITE = (255, 255, 255)


def sniff(text: str) -> bool:
    return text.startswith(SIGNATURE.decode("latin-1"))


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise MissingDependency("PNG pictures need pillow; install it with: pip install 'nonolab[png]'") from None
    return Image


def pixels(data: bytes):
    """The pixels as a ``height`` x ``width`` array of ``0xBBGGRR`` integers (numpy: the
    RGBA bytes read as one little-endian integer, alpha masked off), a transparent pixel
    as white (the background).

    Raises:
        ParseError: not a PNG, or one pillow cannot decode (cut short, corrupt).
        TooLarge: more pixels or cells than the input limits allow (checked from the
            header, before the pixels are decoded).
        MissingDependency: pillow is not installed.
    """
    import numpy as np

    if not data.startswith(SIGNATURE):
        raise ParseError("not a PNG image", line=1)
    image_module = _pillow()
    from PIL import UnidentifiedImageError
    try:
        with image_module.open(io.BytesIO(data), formats=["PNG"]) as image:
            check_pixels(image.width, image.height, "the PNG")  # from the header, before decoding
            check_cells(image.width, image.height, 1)
            rgba = np.frombuffer(image.convert("RGBA").tobytes(), dtype="<u4").reshape(image.height, image.width)
    except UnidentifiedImageError:
        raise ParseError("not a PNG image pillow can read", line=1) from None
    except image_module.DecompressionBombError as err:   # beyond pillow's own pixel limit
        raise TooLarge(f"the PNG is too large: {err}") from None
    except (OSError, ValueError, SyntaxError) as err:   # pillow's truncated, corrupt and bad-chunk errors
        raise ParseError(f"the PNG cannot be decoded ({err})", line=1) from None
    return np.where(rgba < 1 << 24, np.uint32(_WHITE_KEY), rgba & np.uint32(_WHITE_KEY))


_WHITE_KEY = 0xFFFFFF


def parse(text: str) -> list[Puzzle]:
    import numpy as np

    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        raise ParseError("not a PNG image (the text is not bytes)", line=1) from None
    grid = pixels(data)
    height, width = grid.shape
    flat = grid.ravel()
    keys = np.unique(flat[np.flatnonzero(np.diff(flat, prepend=flat[:1] + 1))])  # a key per change of colour
    besides_white = len(keys) - int(_WHITE_KEY in keys)   # a cell's value is one byte, white's 0
    if besides_white > 255:
        raise ParseError(f"the PNG has {besides_white} colours besides white; a puzzle holds at most 255", line=1)
    index = np.searchsorted(keys, flat).astype(np.uint8)   # one pass; then each key's first pixel
    first = [int(np.argmax(index == i)) for i in range(len(keys))]
    inks = [k for _, k in sorted(zip(first, keys.tolist())) if k != _WHITE_KEY]   # in reading order
    if not inks:   # a blank picture: black and white, with no filled cell
        return [Puzzle.from_solution(Solution.from_bytes(bytes(width * height), width))]
    value = {k: i + 1 for i, k in enumerate(inks)}
    lookup = np.array([value.get(k, 0) for k in keys.tolist()], dtype=np.uint8)
    cells = lookup[index].tobytes()
    rgbs = [(k & 255, (k >> 8) & 255, (k >> 16) & 255) for k in inks]
    spare = "#abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWYZ*%@&+=$~^"
    colours = [Colour("white", _WHITE, ".")]
    colours += [Colour("%02X%02X%02X" % rgb, rgb, spare[i] if i < len(spare) else chr(0x100 + i))
                for i, rgb in enumerate(rgbs)]
    palette = Palette(tuple(colours))
    goal = Solution.from_bytes(cells, width, colours=len(inks) > 1)
    return [Puzzle.from_solution(goal, palette=palette)]


def write_bytes(puzzle: Puzzle) -> bytes:
    """The goal as an 8-bit RGB PNG, in the palette's colours (black on white without one)."""
    goal = need_goal(puzzle, "png")
    palette = puzzle.palette or Palette.black_and_white()
    rgb = [bytes(c.rgb) for c in palette]
    pixels_rgb = b"".join(rgb[v] for r in range(goal.height) for v in goal.row_bytes(r))
    image = _pillow().frombytes("RGB", (goal.width, goal.height), pixels_rgb)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def write(puzzle: Puzzle) -> str:
    """:func:`write_bytes` as latin-1 text (one character per byte), as the registry carries it."""
    return write_bytes(puzzle).decode("latin-1")
