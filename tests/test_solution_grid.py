"""Solution: the cells two pictures differ in, and the highest cell value, at C speed."""

from __future__ import annotations

import doctest
import importlib

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core.grid import Solution

GRID = importlib.import_module("nonolab.core.grid")


def _naive_diff(a: Solution, b: Solution) -> list[tuple[int, int]]:
    return [(r, c) for r in range(a.height) for c in range(a.width) if a[r][c] != b[r][c]]


@settings(max_examples=300, deadline=None)
@given(width=st.integers(1, 90), height=st.integers(1, 90), seed=st.integers(0, 2**32 - 1),
       flips=st.lists(st.integers(0, 90 * 90 - 1), max_size=40), everything=st.booleans())
def test_diff_finds_exactly_the_differing_cells_in_row_major_order(width, height, seed, flips, everything):
    import random

    rng = random.Random(seed)
    first = bytes(rng.getrandbits(1) for _ in range(width * height))
    second = bytearray(first)
    for cell in (range(width * height) if everything else flips):
        second[cell % (width * height)] ^= 1
    a, b = Solution.from_bytes(first, width), Solution.from_bytes(bytes(second), width)
    assert a.diff(b) == _naive_diff(a, b)
    assert b.diff(a) == a.diff(b)


def test_diff_of_two_large_pictures_finds_the_few_cells_across_chunk_borders():
    side = 1000
    first = bytes((r * 31 + c * 17) % 7 < 3 for r in range(side) for c in range(side))
    second = bytearray(first)
    chunk = GRID._DIFF_CHUNKS[0]
    cells = [0, chunk - 1, chunk, 3 * chunk + 255, 3 * chunk + 256, side * side - 1]
    for cell in cells:
        second[cell] ^= 1
    found = Solution.from_bytes(first, side).diff(Solution.from_bytes(bytes(second), side))
    assert found == [divmod(cell, side) for cell in cells]


def test_colours_is_the_highest_value_whichever_way_the_picture_was_built():
    assert Solution.from_rows(["..", ".."]).colours == 0
    assert Solution.from_rows(["#.", ".."]).colours == 1
    assert Solution.from_bytes(b"\x00\x00\x00\x01", 2).colours == 1
    assert Solution.from_bytes(b"\x00\x00\x00\x00", 2).colours == 0
    assert Solution.from_values([[0, 3], [1, 1]]).colours == 3
    assert Solution.from_bytes(b"\x00\x02\x01\x00", 2, colours=True).colours == 2
    assert Solution.from_bytes(b"\x00\x01\x01\x00", 2, colours=True).colours == 1
    assert Solution.from_states(b"\x01\x02\x01\x01", 2).colours == 1


def test_doctests():
    assert doctest.testmod(GRID).failed == 0


def test_a_cell_of_the_library_indexes_its_solution():
    """The cells the library returns (``check(...).differing``, ``Solution.diff``) index a picture,
    as ``s[row, column]`` does; a key that is neither a row nor a cell is a TypeError that says so."""
    import nonolab
    from nonolab.core.cell import Cell

    s = Solution.from_rows(["#.", ".#"])
    assert s[0, 0] == 1 and s[0, 1] == 0 and s[Cell(1, 1)] == 1 and s[-1, -1] == 1 and s[1] == (0, 1)
    answer = nonolab.check(nonolab.Puzzle(rows=((1,), (1,)), columns=((1,), (1,))))
    first, second = answer.witnesses[:2]
    assert [first[c] for c in answer.differing] != [second[c] for c in answer.differing]
    for key, name in (((2, 0), "IndexError"), ((0, 2), "IndexError"), (slice(0, 1), "TypeError"),
                      ("a", "TypeError"), (1.0, "TypeError"), ((0, 0, 0), "TypeError"), (True, "TypeError")):
        with pytest.raises((IndexError, TypeError)) as caught:
            s[key]
        assert type(caught.value).__name__ == name, key
        assert "Solution" in str(caught.value), (key, str(caught.value))
