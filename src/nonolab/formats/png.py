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
from nonolab.formats.limits import check_cells

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


def pixels(data: bytes) -> list[list[tuple[int, int, int] | None]]:
    """The RGB of every pixel, row by row; ``None`` for a transparent one.

    Raises:
        ParseError: not a PNG, or one pillow cannot decode (cut short, corrupt).
        TooLarge: more pixels than the input limits allow (checked before decoding).
        MissingDependency: pillow is not installed.
    """
    if not data.startswith(SIGNATURE):
        raise ParseError("not a PNG image", line=1)
    image_module = _pillow()
    from PIL import UnidentifiedImageError
    try:
        with image_module.open(io.BytesIO(data), formats=["PNG"]) as image:
            check_cells(image.width, image.height, 1)  # from the header, before the pixels are decoded
            rgba = image.convert("RGBA")
    except UnidentifiedImageError:
        raise ParseError("not a PNG image pillow can read", line=1) from None
    except image_module.DecompressionBombError as err:   # beyond pillow's own pixel limit
        raise TooLarge(f"the PNG is too large: {err}") from None
    except (OSError, ValueError, SyntaxError) as err:   # pillow's truncated, corrupt and bad-chunk errors
        raise ParseError(f"the PNG cannot be decoded ({err})", line=1) from None
    width = rgba.width
    values = rgba.tobytes()
    out = []
    for y in range(rgba.height):
        row = values[4 * width * y:4 * width * (y + 1)]
        out.append([tuple(row[i:i + 3]) if row[i + 3] else None for i in range(0, 4 * width, 4)])
    return out  # type: ignore[return-value]


def parse(text: str) -> list[Puzzle]:
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        raise ParseError("not a PNG image (the text is not bytes)", line=1) from None
    grid = pixels(data)
    inks = list(dict.fromkeys(rgb for row in grid for rgb in row if rgb is not None and rgb != _WHITE))
    if not inks:   # a blank picture: black and white, with no filled cell
        return [Puzzle.from_solution(Solution.from_bytes(bytes(len(grid) * len(grid[0])), len(grid[0])))]
    index = {rgb: i + 1 for i, rgb in enumerate(inks)}
    cells = bytes(index.get(rgb, 0) if rgb is not None else 0 for row in grid for rgb in row)  # type: ignore[arg-type]
    spare = "#abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWYZ*%@&+=$~^"
    colours = [Colour("white", _WHITE, ".")]
    colours += [Colour("%02X%02X%02X" % rgb, rgb, spare[i] if i < len(spare) else chr(0x100 + i))
                for i, rgb in enumerate(inks)]
    palette = Palette(tuple(colours))
    goal = Solution.from_bytes(cells, len(grid[0]), colours=len(inks) > 1)
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
