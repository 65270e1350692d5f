"""The independent checker: its whole-grid fast path agrees with the line-by-line one.

``_line_by_line`` below counts runs with ``clues_of`` (a Python loop for lists; here
bytes ``split(b"\\x00")``), a different mechanism from the fast path's ``split()`` of
text whose empty cells are spaces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nonolab.core import Puzzle, Solution
from nonolab.core.violations import _ARRAYS_FROM, _all_lines_match, _all_runs_match, clues_of, violations


def _puzzle_of(rows: list[list[int]]) -> Puzzle:
    columns = [[row[c] for row in rows] for c in range(len(rows[0]))]
    return Puzzle(rows=tuple(clues_of(r) for r in rows), columns=tuple(clues_of(c) for c in columns))


def _line_by_line(puzzle: Puzzle, solution: Solution) -> bool:
    rows = all(clues_of(solution.row_bytes(r)) == tuple(c) for r, c in enumerate(puzzle.rows))
    columns = all(clues_of(solution.column_bytes(c)) == tuple(k) for c, k in enumerate(puzzle.columns))
    return rows and columns


grids = st.integers(1, 7).flatmap(lambda h: st.integers(1, 7).flatmap(
    lambda w: st.tuples(*[st.lists(st.integers(0, 1), min_size=w, max_size=w) for _ in range(h)])))


@settings(max_examples=600, deadline=None)
@given(picture=grids, flips=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=3))
def test_the_fast_check_agrees_with_the_line_by_line_check(picture, flips):
    rows = [list(r) for r in picture]
    puzzle = _puzzle_of(rows)
    for r, c in flips:  # a few flipped cells: mostly a wrong picture, sometimes right again
        rows[r % len(rows)][c % len(rows[0])] ^= 1
    solution = Solution.from_rows(rows)
    assert _all_lines_match(puzzle, solution) == _line_by_line(puzzle, solution)
    assert (violations(puzzle, solution) == []) == _line_by_line(puzzle, solution)


wide_grids = st.integers(1, 40).flatmap(lambda h: st.integers(1, 40).flatmap(
    lambda w: st.tuples(st.just(w), st.lists(st.integers(0, 1), min_size=w * h, max_size=w * h))))


@settings(max_examples=400, deadline=None)
@given(grid=wide_grids, flips=st.lists(st.integers(0, 1599), max_size=3),
       slice_cells=st.sampled_from((1, 7, 64, 1 << 22)), tile=st.sampled_from((1, 3, 256)),
       density=st.sampled_from((None, 0, 1)))
def test_the_numpy_run_lengths_agree_with_the_line_by_line_check(grid, flips, slice_cells, tile, density):
    # Slices of one line and more, tiles of one row and more: their edges cut runs.
    w, cells = grid
    if density is not None:  # all empty or all filled: no run, or one run a line
        cells = [density] * len(cells)
    puzzle = _puzzle_of([cells[r:r + w] for r in range(0, len(cells), w)])
    data = bytearray(cells)
    for i in flips:
        data[i % len(data)] ^= 1
    solution = Solution.from_bytes(bytes(data), w)
    assert _all_runs_match(puzzle, solution, slice_cells, tile) == _line_by_line(puzzle, solution)


def test_a_picture_beyond_the_numpy_threshold_is_checked_and_a_flip_is_named():
    w, h = 2100, 2000
    assert w * h >= _ARRAYS_FROM
    import numpy as np

    r, c = np.indices((h, w))
    data = bytearray((((r * 7 + c * 3) % 5 < 2) ^ ((r // 300 + c // 200) % 2 == 0)).astype(np.uint8).tobytes())
    s = Solution.from_bytes(bytes(data), w)
    p = Puzzle(rows=tuple(clues_of(s.row_bytes(i)) for i in range(h)),
               columns=tuple(clues_of(s.column_bytes(i)) for i in range(w)))
    assert violations(p, s) == []
    data[w * 1500 + 2099] ^= 1
    bad = violations(p, Solution.from_bytes(bytes(data), w))
    assert bad and bad[0].startswith("row 1501") and bad[1].startswith("column 2100"), bad


def test_a_wrong_line_is_named():
    puzzle = _puzzle_of([[1, 0, 1], [0, 1, 0]])
    wrong = Solution.from_rows(["#.#", "#.."])
    assert violations(puzzle, wrong) == ["column 1: expected (1,), got (2,)", "column 2: expected (1,), got ()"]


def test_runs_laid_end_to_end_must_also_split_into_the_same_lines():
    # Rows (1, 1), (1,) against (1,), (1, 1): the same runs end to end, the same
    # columns; only the number of runs per row tells them apart.
    puzzle = _puzzle_of([[1, 0, 1], [0, 1, 0]])
    swapped = Solution.from_rows([".#.", "#.#"])
    assert not _all_lines_match(puzzle, swapped)
    for slice_cells in (1, 3, 64):
        assert not _all_runs_match(puzzle, swapped, slice_cells)
    assert violations(puzzle, swapped) == ["row 1: expected (1, 1), got (1,)", "row 2: expected (1,), got (1, 1)"]


def test_a_large_picture_is_checked_without_numpy_and_a_flip_is_caught():
    # 1200 x 1100 (1.3 million cells): the size where a numpy path used to take over.
    import subprocess
    import sys

    code = ("import sys\n"
            "from nonolab.core import Puzzle, Solution\n"
            "from nonolab.core.violations import clues_of, violations\n"
            "w, h = 1100, 1200\n"
            "data = bytearray((r * 7 + c * 3) % 5 < 2 for r in range(h) for c in range(w))\n"
            "s = Solution.from_bytes(bytes(data), w)\n"
            "p = Puzzle(rows=tuple(clues_of(s.row_bytes(r)) for r in range(h)),\n"
            "           columns=tuple(clues_of(s.column_bytes(c)) for c in range(w)))\n"
            "assert violations(p, s) == []\n"
            "data[w * 600 + 550] ^= 1\n"
            "bad = violations(p, Solution.from_bytes(bytes(data), w))\n"
            "assert bad and bad[0].startswith('row 601'), bad\n"
            "assert 'numpy' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((0, 0, 1, 2, 10, 63)), max_size=40))
def test_colour_runs_of_bytes_is_the_cell_by_cell_loop(line):
    # The bytes path (a regular expression over the runs) against the loop over a list;
    # 10 is a newline byte, which a pattern without DOTALL would not match.
    from nonolab.core.violations import colour_runs_of

    assert colour_runs_of(bytes(line)) == colour_runs_of(list(line))
