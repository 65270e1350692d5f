"""A picture from an image file: grayscale, resized, thresholded at a density.

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
"""

from __future__ import annotations

import os

import numpy as np

from nonolab.errors import InvalidArgument, MissingDependency, ParseError
from nonolab.generate.grids import top_fraction

__all__ = ["picture_from_image"]


def picture_from_image(path: str | os.PathLike, width: int, height: int, density: float = 0.5) -> np.ndarray:
    """The 0/1 picture (``height`` x ``width``, 1 = filled) an image file gives.

    The image is converted to grayscale, resized to the grid with a box filter
    (each cell is the mean of the pixels it covers), and the ``round(density *
    cells)`` darkest cells are filled: dark means filled, and the filled fraction
    is the density whatever the image's contrast.  Ties are broken in reading order.

    Raises:
        MissingDependency: pillow is not installed.
        ParseError: the file cannot be read or is not an image pillow knows.
        InvalidArgument: a size below 1 or a density outside [0, 1].
    """
    if width < 1 or height < 1:
        raise InvalidArgument(f"picture_from_image: grid size must be positive, got {width}x{height}")
    if not 0.0 <= density <= 1.0:
        raise InvalidArgument(f"picture_from_image: density must be between 0 and 1, got {density!r}")
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        raise MissingDependency("reading an image needs pillow; install it with: "
                                "pip install 'nonolab[png]' (or pip install pillow)") from None
    try:
        with Image.open(path) as image:
            gray = image.convert("L").resize((width, height), Image.Resampling.BOX)
    except FileNotFoundError:
        raise ParseError("cannot read the image: no such file", path=str(path)) from None
    except UnidentifiedImageError:
        raise ParseError("not an image file pillow can read", path=str(path)) from None
    except (OSError, ValueError) as err:
        raise ParseError(f"cannot read the image: {err}", path=str(path)) from None
    darkness = 255.0 - np.asarray(gray, dtype=np.float64)
    return top_fraction(darkness, density)
