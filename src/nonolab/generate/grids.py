"""Seeded puzzle generators that work on numpy 0/1 arrays.

Pictures are ``uint8`` arrays of shape ``(height, width)``, 1 for a filled cell.
Clues are computed from the array with vectorised run lengths, so a 4000x4000
puzzle never goes through a Python list of lists; a goal picture (a
:class:`~nonolab.core.grid.Solution`) is built only when asked for.

* :func:`random_grid`: uniform noise, each cell filled with probability ``density``
  (the "r30" and "t25" style random puzzles of the benchmarks).
* :func:`smooth_grid`: noise, two separable box blurs, thresholded at a quantile
  (docs/algorithms.md §9): image-like, mostly line-solvable.
* :func:`clues_from_array`, :func:`puzzle_from_array`: from a picture to clues.
* :func:`taai_density`: the black-cell ratio of the tournament generator.

Everything is reproducible: the same arguments (seed included) give the same array.

>>> p = puzzle_from_array(smooth_grid(20, 30, seed=1), name="demo")
>>> p.size, p.name
((30, 20), 'demo')
"""

from __future__ import annotations

import numpy as np

from nonolab.core.grid import Solution
from nonolab.core.palette import Palette
from nonolab.core.puzzle import Clue, Puzzle
from nonolab.errors import InvalidArgument

__all__ = ["MAX_COLOURS", "random_grid", "smooth_grid", "clues_from_array", "puzzle_from_array", "taai_density",
           "top_fraction"]

# The most foreground colours a generated puzzle has: Palette.default_for's named, distinct colours
# (black, red, green, blue, yellow, magenta, cyan, orange, purple, brown, grey, pink).  Beyond
# them colours get hard to tell apart on screen and in print.
MAX_COLOURS = 12

_CHUNK_CELLS = 1 << 20  # cells per slab in the blur: bounds its temporaries to a few MB


def random_grid(height: int, width: int, density: float = 0.5, seed: int = 0, colours: int = 1) -> np.ndarray:
    """Uniform noise: each cell is filled, independently, with probability ``density``.

    With ``colours`` k above 1, each filled cell takes one of the colours 1..k,
    uniformly; the filled cells are those of the black-and-white picture of the seed.

    >>> g = random_grid(3, 4, 0.5, seed=7)
    >>> g.shape, g.dtype.name, bool(((g == 0) | (g == 1)).all())
    ((3, 4), 'uint8', True)
    >>> bool((random_grid(3, 4, 0.5, seed=7) == g).all())
    True
    >>> c = random_grid(3, 4, 0.5, seed=7, colours=3)
    >>> bool(((c > 0) == (g > 0)).all()), int(c.max()) <= 3
    (True, True)
    """
    _check_size(height, width)
    _check_density(density)
    _check_colours(colours)
    rng = np.random.default_rng(seed)
    filled = (rng.random((height, width)) < density).astype(np.uint8)
    if colours == 1:
        return filled
    # Drawn after the mask, from the same stream: the mask is the black-and-white picture of this seed.
    return filled * rng.integers(1, colours + 1, size=(height, width), dtype=np.uint8)


def smooth_grid(height: int, width: int, radius: int | None = None, seed: int = 0,
                density: float = 0.5, colours: int = 1) -> np.ndarray:
    """An image-like picture: blurred noise thresholded so that ``density`` of it is filled.

    Uniform noise gets two passes of a separable box blur (each cell becomes the
    mean of the cells at most ``radius`` away along the row, then along the column;
    windows are cut at the border), computed with cumulative sums in O(h·w)
    whatever the radius.  The ``round(density * h * w)`` highest cells are then
    filled: threshold at the quantile, so 0.5 is the median and the filled fraction
    is within ``1 / (2 h w)`` of ``density``.

    With ``colours`` k above 1, the filled cells (those of the black-and-white
    picture of the seed) are split into regions of colour: k more noise fields,
    blurred with three times the radius (regions of colour larger than the shapes'
    features; less on a grid too small to hold some 3k such regions), and each cell
    takes the colour (1..k) whose field is highest there.

    Args:
        radius: blur radius in cells; default ``max(1, round(min(h, w) / 20))``.
            0 leaves the noise unblurred.
        colours: the number of foreground colours (1: black and white).

    >>> g = smooth_grid(10, 10, seed=3)
    >>> int(g.sum())
    50
    >>> int(smooth_grid(10, 10, seed=3, density=0.3).sum())
    30
    >>> c = smooth_grid(10, 10, seed=3, colours=3)
    >>> bool(((c > 0) == (g > 0)).all()), set(c.ravel().tolist()) <= {0, 1, 2, 3}
    (True, True)
    """
    _check_size(height, width)
    _check_density(density)
    _check_colours(colours)
    if radius is None:
        radius = max(1, round(min(height, width) / 20))
    if isinstance(radius, bool) or not isinstance(radius, (int, np.integer)) or radius < 0:
        raise InvalidArgument(f"smooth_grid: radius must be a non-negative integer, not {radius!r}")
    # A window wider than the grid covers every line whole: any larger radius blurs the same,
    # and numpy's indices are C longs (a radius of 10**20 overflowed them).
    radius = min(int(radius), max(height, width))
    rng = np.random.default_rng(seed)
    filled = top_fraction(_blurred(rng.random((height, width)), radius), density)
    if colours == 1:
        return filled
    # Drawn after the mask's noise, from the same stream: the mask stays the seed's black-and-white picture.
    # Three times the shapes' radius, but small enough that the grid holds some 3k regions
    # (a region spans about 2r+1 cells each way): a small grid still shows every colour.
    spread = max(0, min(3 * int(radius), int((np.sqrt(height * width / (3 * colours)) - 1) // 2)))
    fields = [_blurred(rng.random((height, width)), spread) for _ in range(colours)]
    region = np.argmax(np.stack(fields), axis=0).astype(np.uint8) + 1
    return filled * region


def _blurred(values: np.ndarray, radius: int) -> np.ndarray:
    """``values`` after two passes of the separable box blur (in place)."""
    if radius:
        scratch = np.empty_like(values)
        for _ in range(2):
            _blur_axis(values, scratch, radius, axis=1)
            _blur_axis(scratch, values, radius, axis=0)
    return values


def clues_from_array(array: np.ndarray) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row clues and column clues (run lengths of the 1s) of a 0/1 picture.

    Vectorised: the runs are found with ``np.diff`` on the zero-padded array, and
    only the run lengths become Python ints.

    Raises:
        ValueError: not a non-empty 2-D array of 0s and 1s.

    >>> clues_from_array(np.array([[1, 1, 0], [0, 0, 0], [1, 0, 1]]))
    (((2,), (), (1, 1)), ((1, 1), (1,), (1,)))
    """
    a = np.asarray(array)
    if a.ndim != 2 or a.size == 0:
        raise ValueError(f"clues_from_array: expected a non-empty 2-D array, got shape {a.shape}")
    if a.dtype != np.bool_ and bool(((a != 0) & (a != 1)).any()):
        raise ValueError("clues_from_array: cells must be 0 or 1")
    a = a.astype(np.int8, copy=False)
    return _runs_per_row(a), _runs_per_row(a.T)


def puzzle_from_array(array: np.ndarray, name: str = "", with_goal: bool = False,
                      palette: Palette | None = None, **metadata: object) -> Puzzle:
    """The puzzle whose clues the picture gives.

    The goal picture is attached only with ``with_goal=True``: on a 4000x4000 grid
    it is a large Python object.  Metadata values are stored as strings.  A picture
    of colour indices (0 background, 1..k) with a ``palette`` of k colours gives a
    colour puzzle (without one, :meth:`Palette.default_for` names the colours).

    >>> p = puzzle_from_array(np.array([[1, 0], [1, 1]]), name="L", with_goal=True, seed=5)
    >>> p.rows, p.columns, p.metadata, str(p.goal)
    (((1,), (2,)), ((2,), (1,)), {'seed': '5'}, '#.\\n##')
    >>> c = puzzle_from_array(np.array([[1, 2], [0, 2]]), palette=Palette.default_for(2))
    >>> c.rows, c.row_colours, c.goal
    (((1, 1), (1,)), ((1, 2), (2,)), None)
    """
    a = np.asarray(array)
    if (palette is not None and len(palette) > 2) or (a.size and int(a.max()) > 1):
        coloured = Solution.from_bytes(a.astype(np.uint8).tobytes(), a.shape[1], colours=True)
        puzzle = Puzzle.from_solution(coloured, name=name, palette=palette,
                                      **{k: str(v) for k, v in metadata.items()})
        return puzzle if with_goal else puzzle.with_(goal=None)
    rows, columns = clues_from_array(array)
    goal = Solution.from_rows(np.asarray(array).astype(np.uint8).tolist()) if with_goal else None
    return Puzzle(rows=rows, columns=columns, name=name,
                  metadata={k: str(v) for k, v in metadata.items()}, goal=goal)


def taai_density(index: int, count: int) -> float:
    """The black-cell ratio of puzzle ``index`` (0-based) of ``count``: 0.50 falling to 0.35.

    As the TAAI/TCGA tournament generator, the ratio falls linearly so that the
    later (sparser) puzzles are the harder ones.

    >>> taai_density(0, 1000), taai_density(999, 1000)
    (0.5, 0.35)
    >>> round(taai_density(500, 1001), 6)
    0.425
    """
    if count < 1 or not 0 <= index < count:
        raise ValueError(f"taai_density: need 0 <= index < count, got index={index}, count={count}")
    if count == 1:
        return 0.5
    return 0.5 - 0.15 * index / (count - 1)


def _check_size(height: int, width: int) -> None:
    if height < 1 or width < 1:
        raise InvalidArgument(f"grid size must be positive, got {height}x{width} (height x width)")
    # The input limit holds for a drawn picture as for a read one, before its noise is drawn
    # (bench's random:WxH:N and large:S suites drew 100000x100000 into a 74.5 GiB MemoryError).
    from nonolab.formats.limits import check_cells
    check_cells(width, height)


def _check_colours(colours: int) -> None:
    if isinstance(colours, bool) or not isinstance(colours, (int, np.integer)) or not 1 <= colours <= MAX_COLOURS:
        raise InvalidArgument(f"{{arg}} must be an integer from 1 to {MAX_COLOURS} (the palette's legible, "
                              f"distinct colours), not {colours!r}", argument="colours")


def _check_density(density: float) -> None:
    if not 0.0 <= density <= 1.0:
        raise InvalidArgument(f"{{arg}} must be between 0 and 1, got {density!r}", argument="density")


def _blur_axis(src: np.ndarray, dst: np.ndarray, radius: int, axis: int) -> None:
    """``dst`` = mean of ``src`` over the window ``[i - radius, i + radius]`` along ``axis``.

    One cumulative sum per slab, then window sums as differences: O(cells), not
    O(cells x radius).  Slabs keep the float64 temporaries small.
    """
    n = src.shape[axis]
    index = np.arange(n)
    lo = np.maximum(index - radius, 0)
    hi = np.minimum(index + radius + 1, n)
    shape = [1, 1]
    shape[axis] = n
    inverse_width = (1.0 / (hi - lo)).reshape(shape)
    other = src.shape[1 - axis]
    step = max(1, _CHUNK_CELLS // n)
    for start in range(0, other, step):
        part = [slice(None), slice(None)]
        part[1 - axis] = slice(start, start + step)
        block = src[tuple(part)]
        padded_shape = list(block.shape)
        padded_shape[axis] += 1
        sums = np.zeros(padded_shape)
        tail = [slice(None), slice(None)]
        tail[axis] = slice(1, None)
        np.cumsum(block, axis=axis, out=sums[tuple(tail)])
        window = sums.take(hi, axis=axis)
        window -= sums.take(lo, axis=axis)
        window *= inverse_width
        dst[tuple(part)] = window


def top_fraction(values: np.ndarray, density: float) -> np.ndarray:
    """1 on the ``round(density * size)`` highest values (ties broken in reading order)."""
    total = values.size
    k = int(round(density * total))
    out = np.zeros(values.shape, dtype=np.uint8)
    if k == 0:
        return out
    if k == total:
        out.fill(1)
        return out
    flat = values.reshape(-1)
    threshold = np.partition(flat, total - k)[total - k]  # the k-th highest value
    np.greater(values, threshold, out=out, casting="unsafe")
    missing = k - int(np.count_nonzero(out))
    if missing:  # ties at the threshold: fill the first ones
        ties = np.flatnonzero(flat == threshold)[:missing]
        out.reshape(-1)[ties] = 1
    return out


def _runs_per_row(a: np.ndarray) -> tuple[Clue, ...]:
    """Run lengths of the 1s of each row of an int8 0/1 array, as tuples of Python ints."""
    height, width = a.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = a
    step = np.diff(padded, axis=1)
    start_rows, start_cols = np.nonzero(step == 1)
    _, end_cols = np.nonzero(step == -1)
    del padded, step
    lengths = (end_cols - start_cols).tolist()
    bounds = np.concatenate(([0], np.cumsum(np.bincount(start_rows, minlength=height)))).tolist()
    return tuple(tuple(lengths[bounds[r]:bounds[r + 1]]) for r in range(height))
