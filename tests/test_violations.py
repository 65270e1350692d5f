"""The independent checker: the compiled line check (``nonolab.core._check``) says what the
plain Python check (``tests/reference.py``: ``clues_of``/``colour_runs_of`` line by line)
says, message for message, on right and wrong pictures, black-and-white and colour."""

from __future__ import annotations

import builtins
import importlib
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.core.palette import Palette
from nonolab.core.violations import clues_of, violations
from nonolab.errors import MissingDependency
from tests.reference import reference_violations

checker = importlib.import_module("nonolab.core.violations")   # the module (the package exports the function)


def _puzzle_of(rows: list[list[int]]) -> Puzzle:
    columns = [[row[c] for row in rows] for c in range(len(rows[0]))]
    return Puzzle(rows=tuple(clues_of(r) for r in rows), columns=tuple(clues_of(c) for c in columns))


def _pictures(top: int, sizes: st.SearchStrategy = st.integers(1, 9)):
    """(width, cells) of a picture with values 0..top; mostly one value at a time in runs,
    and whole lines empty or full (the edge cases) as often as random ones."""
    def cells(h: int, w: int):
        line = st.one_of(st.lists(st.integers(0, top), min_size=w, max_size=w),
                         st.integers(0, top).map(lambda v: [v] * w))
        return st.lists(line, min_size=h, max_size=h).map(lambda rows: (w, [v for row in rows for v in row]))
    return st.tuples(sizes, sizes).flatmap(lambda hw: cells(*hw))


def _wide(h: int, w: int):
    """(w, cells) of an h x w black-and-white picture: runs of random lengths, full lines."""
    line = st.one_of(st.lists(st.integers(0, 1), min_size=w, max_size=w), st.integers(0, 1).map(lambda v: [v] * w),
                     st.lists(st.tuples(st.integers(0, 1), st.integers(1, 70)), max_size=8).map(
                         lambda runs: ([v for v, n in runs for _ in range(n)] + [0] * w)[:w]))
    return st.lists(line, min_size=h, max_size=h).map(lambda rows: (w, [v for row in rows for v in row]))


def _wrong(cells: list[int], top: int, changes: list[tuple[int, int]]) -> bytes:
    data = bytearray(cells)
    for i, v in changes:
        data[i % len(data)] = v % (top + 1)
    return bytes(data)


def _with_givens(puzzle: Puzzle, cells: list[int], picks: list[int]) -> Puzzle:
    """``puzzle`` revealing the cells ``picks`` (indices, wrapped) of its picture."""
    w = puzzle.width
    return replace(puzzle, givens={divmod(i % len(cells), w): cells[i % len(cells)] for i in picks})


@settings(max_examples=700, deadline=None)
@given(picture=_pictures(1), other=st.integers(0, 2**64 - 1),
       changes=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 1)), max_size=4),
       how=st.sampled_from(("right", "changed", "another")), picks=st.lists(st.integers(0, 100), max_size=3))
def test_black_and_white_compiled_check_is_the_python_check(picture, other, changes, how, picks):
    w, cells = picture
    puzzle = _with_givens(Puzzle.from_solution(Solution.from_bytes(bytes(cells), w)), cells, picks)
    if how == "right":
        data = bytes(cells)
    elif how == "changed":   # a few cells changed: mostly wrong, sometimes right again
        data = _wrong(cells, 1, changes)
    else:                    # another picture of the same size: the clues random to it
        data = bytes((other >> (i % 64)) & 1 for i in range(len(cells)))
    solution = Solution.from_bytes(data, w)
    got = violations(puzzle, solution)
    assert got == reference_violations(puzzle, solution)
    if how == "right":
        assert got == []


@settings(max_examples=300, deadline=None)
@given(picture=st.tuples(st.sampled_from((1, 2, 63, 64, 65, 70)), st.sampled_from((1, 3, 63, 64, 65, 128))).flatmap(
           lambda hw: _wide(*hw)),
       changes=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 1)), max_size=3))
def test_black_and_white_around_64_cells_a_line(picture, changes):
    # Lines of up to 64 cells are read as 64-bit words (a full line of 64: one run of 64);
    # a longer side takes the run-by-run pass: both against the Python check.
    w, cells = picture
    puzzle = Puzzle.from_solution(Solution.from_bytes(bytes(cells), w))
    for data in (bytes(cells), _wrong(cells, 1, changes)):
        solution = Solution.from_bytes(data, w)
        assert violations(puzzle, solution) == reference_violations(puzzle, solution)


@settings(max_examples=700, deadline=None)
@given(top=st.integers(2, 5), data=st.data(), how=st.sampled_from(("right", "changed", "another", "beyond")))
def test_colour_compiled_check_is_the_python_check(top, data, how):
    w, cells = data.draw(_pictures(top))
    palette = Palette.default_for(top)
    puzzle = Puzzle.from_solution(Solution.from_bytes(bytes(cells), w, colours=True), palette=palette)
    puzzle = _with_givens(puzzle, cells, data.draw(st.lists(st.integers(0, 100), max_size=3)))
    if how == "right":
        picture = bytes(cells)
    elif how == "changed":
        picture = _wrong(cells, top, data.draw(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, top)),
                                                        max_size=4)))
    elif how == "another":
        picture = bytes(data.draw(st.lists(st.integers(0, top), min_size=len(cells), max_size=len(cells))))
    else:                    # a value beyond the palette
        picture = _wrong(cells, top + 1, [(data.draw(st.integers(0, 10_000)), top + 1)])
    solution = Solution.from_bytes(picture, w, colours=True)
    got = violations(puzzle, solution)
    assert got == reference_violations(puzzle, solution)
    if how == "right":
        assert got == []
    if how == "beyond":
        assert got[-1] == f"cell value {top + 1} is not a colour of the {top}-colour palette"


@pytest.mark.parametrize("rows", [["#"], ["."], ["#####"], ["....."], ["#.#.#"], list("#.##."), list(".....")])
def test_one_line_grids_and_their_transposes(rows):
    # 1xN, Nx1, a single cell; empty and full lines.
    for grid in (rows, ["".join(r[i] for r in rows) for i in range(len(rows[0]))]):
        right = Solution.from_rows(grid)
        puzzle = Puzzle.from_solution(right)
        assert violations(puzzle, right) == [] == reference_violations(puzzle, right)
        for i in range(right.width * right.height):
            flipped = bytearray(right.to_bytes())
            flipped[i] ^= 1
            wrong = Solution.from_bytes(bytes(flipped), right.width)
            assert violations(puzzle, wrong) == reference_violations(puzzle, wrong) != []


def test_a_wrong_line_is_named():
    puzzle = _puzzle_of([[1, 0, 1], [0, 1, 0]])
    wrong = Solution.from_rows(["#.#", "#.."])
    assert violations(puzzle, wrong) == ["column 1: expected (1,), got (2,)", "column 2: expected (1,), got ()"]


def test_runs_laid_end_to_end_must_also_split_into_the_same_lines():
    # Rows (1, 1), (1,) against (1,), (1, 1): the same runs end to end, the same
    # columns; only the number of runs per row tells them apart.
    puzzle = _puzzle_of([[1, 0, 1], [0, 1, 0]])
    swapped = Solution.from_rows([".#.", "#.#"])
    assert violations(puzzle, swapped) == ["row 1: expected (1, 1), got (1,)", "row 2: expected (1,), got (1, 1)"]


def test_colour_blocks_that_touch_are_two_blocks_and_a_wrong_colour_is_named():
    puzzle = Puzzle.from_solution(Solution.from_values([[1, 2, 2], [0, 1, 0]]))
    assert violations(puzzle, Solution.from_values([[1, 2, 2], [0, 1, 0]])) == []
    assert violations(puzzle, Solution.from_values([[1, 1, 2], [0, 1, 0]])) == [
        "row 1: expected (1c1 2c2), got (2c1 1c2)", "column 2: expected (1c2 1c1), got (2c1)"]


def test_a_large_picture_is_checked_and_a_flip_is_named():
    # 2100 x 2000: the columns are read in the rows' pass (no strided slices, no numpy).
    import subprocess
    import sys

    code = ("import sys\n"
            "from nonolab.core import Puzzle, Solution\n"
            "from nonolab.core.violations import clues_of, violations\n"
            "w, h = 2100, 2000\n"
            "data = bytearray(((r * 7 + c * 3) % 5 < 2) ^ ((r // 300 + c // 200) % 2 == 0)\n"
            "                 for r in range(h) for c in range(w))\n"
            "s = Solution.from_bytes(bytes(data), w)\n"
            "p = Puzzle(rows=tuple(clues_of(s.row_bytes(r)) for r in range(h)),\n"
            "           columns=tuple(clues_of(s.column_bytes(c)) for c in range(w)))\n"
            "assert violations(p, s) == []\n"
            "data[w * 1500 + 2099] ^= 1\n"
            "bad = violations(p, Solution.from_bytes(bytes(data), w))\n"
            "assert len(bad) == 2 and bad[0].startswith('row 1501') and bad[1].startswith('column 2100'), bad\n"
            "assert 'numpy' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_compiled_check_refuses_what_it_cannot_read():
    from nonolab.core._check import wrong_lines

    assert wrong_lines(b"\x01\x00", 2, ((1,),), ((1,), ())) == []
    assert wrong_lines(b"\x01\x00", 2, ((1,),), ((), (1,))) == [(1, 0, (1,)), (1, 1, ())]
    assert wrong_lines(b"\x01\x02", 2, ((1, 1),), ((1,), (1,)), ((1, 2),), ((1,), (2,))) == []
    assert wrong_lines(b"\x01\x02", 2, ((2,),), ((1,), (1,)), ((1,),), ((1,), (2,))) == [(0, 0, ((1, 1), (1, 2)))]
    assert wrong_lines(b"\x01\x00", 2, ((2 ** 80,),), ((1,), ())) == [(0, 0, (1,))]   # beyond C: no match
    for args, error in (((b"\x02\x00", 2, ((1,),), ((1,), ())), ValueError),      # not black and white
                        ((b"\x01\x00", 3, ((1,),), ((1,), ())), ValueError),      # not whole rows
                        ((b"\x01\x00", 2, ((1,), ()), ((1,), ())), ValueError),   # two rows' clues for one
                        ((b"\x01\x00", 2, ((1,),), ((1,), ()), ((1,),), None), ValueError),   # one side's colours
                        ((b"\x01\x02", 2, ((1, 1),), ((1,), (1,)), ((1,),), ((1,), (2,))), ValueError),
                        ((b"\x01\x00", 2, ((1.0,),), ((1,), ())), TypeError),
                        ((b"\x01\x00", 2, (1,), ((1,), ())), TypeError)):
        with pytest.raises(error):
            wrong_lines(*args)


def test_without_its_compiled_part_the_check_says_so(monkeypatch):
    # No fallback: a tree where the extension was not built fails the check by name.
    real_import = builtins.__import__

    def no_extension(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "nonolab.core" and fromlist and "_check" in fromlist:
            raise ImportError("not built")
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(checker, "_compiled", None)
    monkeypatch.setattr(builtins, "__import__", no_extension)
    with pytest.raises(MissingDependency, match="nonolab.core._check"):
        violations(_puzzle_of([[1]]), Solution.from_rows(["#"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((0, 0, 1, 2, 10, 63)), max_size=40))
def test_colour_runs_of_bytes_is_the_cell_by_cell_loop(line):
    # The bytes path (a regular expression over the runs) against the loop over a list;
    # 10 is a newline byte, which a pattern without DOTALL would not match.
    from nonolab.core.violations import colour_runs_of

    assert colour_runs_of(bytes(line)) == colour_runs_of(list(line))


#: Line lengths at and around the word boundaries of the compiled check's general path (a
#: colour picture, or a side over 64 cells: its runs found 8 cells a step) and of the
#: 64-cell words of its black-and-white path for smaller grids.
BOUNDARY_SIDES = (7, 8, 9, 15, 16, 17, 63, 64, 65, 127, 128, 129)


def _banded(height: int, width: int, top: int) -> bytes:
    """A picture whose runs begin and end at every offset around the word boundaries: row r's
    runs are r % 11 + 1 long and change value there; every fifth row is one run across."""
    cells = bytearray()
    for r in range(height):
        length = r % 11 + 1
        for c in range(width):
            cells.append(1 + r % top if r % 5 == 4 else (c // length + r) % (top + 1))
    return bytes(cells)


def _boundary_cells(height: int, width: int) -> list[tuple[int, int]]:
    """Cells whose column is beside a word boundary (in the first, a middle and the last row),
    and cells whose row is (in the first, a middle and the last column)."""
    near = sorted({i for b in (0, 8, 16, 64, 128) for i in (b - 2, b - 1, b, b + 1)})
    rows = sorted({r for r in near if 0 <= r < height} | {height - 1})
    columns = sorted({c for c in near if 0 <= c < width} | {width - 1})
    return sorted({(r, c) for r in (0, height // 2, height - 1) for c in columns}
                  | {(r, c) for c in (0, width // 2, width - 1) for r in rows})


@pytest.mark.parametrize("top", [1, 3])
@pytest.mark.parametrize("width", BOUNDARY_SIDES)
def test_lines_across_the_word_boundaries_are_checked_as_the_python_check(width, top):
    """Each width beside heights across the same boundaries: the picture right, then one cell
    changed at a time where a word ends or begins (a run one longer or shorter, split or
    joined there), and a whole line changed; the compiled check names what the plain Python
    check names."""
    for height in (1, 9, 65, 129):
        cells = _banded(height, width, top)
        solution = Solution.from_bytes(cells, width, colours=top > 1)
        palette = Palette.default_for(top) if top > 1 else None
        puzzle = Puzzle.from_solution(solution, palette=palette) if palette else Puzzle.from_solution(solution)
        assert violations(puzzle, solution) == [] == reference_violations(puzzle, solution)
        for r, c in _boundary_cells(height, width):
            for value in {(cells[r * width + c] + 1) % (top + 1), (cells[r * width + c] + top) % (top + 1)}:
                changed = bytearray(cells)
                changed[r * width + c] = value
                wrong = Solution.from_bytes(bytes(changed), width, colours=top > 1)
                got = violations(puzzle, wrong)
                assert got == reference_violations(puzzle, wrong), (height, width, r, c, value)
                assert got   # a changed cell changes its row's runs and its column's
        last = bytearray(cells)
        last[-width:] = bytes([1] * width)
        whole = Solution.from_bytes(bytes(last), width, colours=top > 1)
        assert violations(puzzle, whole) == reference_violations(puzzle, whole)


def test_a_colour_picture_within_its_palette_is_checked_without_reading_its_highest_value(monkeypatch):
    """Solution.colours (the highest cell value) is max() over the cells in Python when not
    known: 11 ms a check of a 1000x1000 colour picture, ten times the compiled line check.
    The check finds a value beyond the palette at C speed and reads it for the message only."""
    cells = _banded(65, 129, 3)
    solution = Solution.from_bytes(cells, 129, colours=True)
    puzzle = Puzzle.from_solution(solution, palette=Palette.default_for(3))
    read = []
    colours = Solution.colours
    monkeypatch.setattr(Solution, "colours", property(lambda self: read.append(1) or colours.fget(self)))
    assert violations(puzzle, Solution.from_bytes(cells, 129, colours=True)) == []
    assert read == []
    beyond = Solution.from_bytes(cells[:-1] + b"\x05", 129, colours=True)
    assert violations(puzzle, beyond) == ["cell value 5 is not a colour of the 3-colour palette"]
