"""Jupyter's pictures of puzzles, solutions and reports; the terminal's grid with its clues."""

from __future__ import annotations

import io

from rich.console import Console
from svg_reading import PUZZLES, assert_every_clue_drawn, legend, parse

import nonolab
from nonolab.core import Grid, Puzzle, Solution
from nonolab.core.grid import FILLED
from nonolab.render.terminal import grid_with_clues

T2 = PUZZLES / "hakank" / "t2.non"
CAT = PUZZLES / "webpbn" / "webpbn-00006-cat.non"


def test_notebooks_show_puzzles_solutions_and_reports_as_pictures():
    puzzle = nonolab.load(T2)
    assert_every_clue_drawn(parse(puzzle._repr_svg_()), puzzle)
    solution = nonolab.solve(puzzle, "cnf").solution
    assert_every_clue_drawn(parse(solution._repr_svg_()), puzzle)
    answer = nonolab.check(puzzle, "cnf")
    assert legend(parse(answer._repr_svg_())) == ["red frame: the 4 cells where the two solutions differ"]
    report = nonolab.ambiguity_report(puzzle, "cnf")
    assert "a: 2x2 switch at rows 3-4, columns 7-8" in legend(parse(report._repr_svg_()))
    contradiction = nonolab.load(PUZZLES / "nonolab" / "contradiction.non")
    assert nonolab.check(contradiction, "cnf")._repr_svg_() is None          # nothing to draw: text repr
    assert nonolab.ambiguity_report(contradiction, "cnf")._repr_svg_() is None
    huge = Solution.from_bytes(bytes(400 * 400), 400)
    assert huge._repr_svg_() is None


def _printed(renderable, colour: bool) -> str:
    out = io.StringIO()
    Console(file=out, width=200, force_terminal=colour, color_system="standard" if colour else None).print(renderable)
    return out.getvalue()


def test_the_terminal_grid_has_its_clues_beside_it():
    puzzle = nonolab.load(CAT)
    solution = nonolab.solve(puzzle, "cnf").solution
    picture = grid_with_clues(puzzle, solution)
    lines = _printed(picture, colour=False).splitlines()
    depth = max(len(c) for c in puzzle.columns)
    rows = [ln for ln in lines[depth:] if "─" not in ln]
    assert len(rows) == puzzle.height
    for r, (line, clue) in enumerate(zip(rows, puzzle.rows)):
        left, cells = line[:picture.clue_width], line[picture.clue_width + 1:].replace("│", "")
        assert left.split() == [str(n) for n in clue]                       # the row's clue on its left
        blocks = [len(b) // picture.cell_width for b in cells.replace("·", " ").split()]
        assert blocks == list(clue), r                                      # and its picture agrees
    header = [ln[picture.clue_width + 1:].replace("│", " ") for ln in lines[:depth]]
    for c, clue in enumerate(puzzle.columns):
        column = [h[c * picture.cell_width + c // 5:(c + 1) * picture.cell_width + c // 5].strip() for h in header]
        assert [n for n in column if n] == [str(n) for n in clue], c        # the column's clue above it


def test_colour_only_where_the_terminal_has_it():
    puzzle = Puzzle(rows=((1,), ()), columns=((1,), ()))
    grid = Grid(2, 2)
    grid.set(0, 0, FILLED)
    coloured, plain = _printed(grid_with_clues(puzzle, grid), True), _printed(grid_with_clues(puzzle, grid), False)
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert plain.splitlines() == grid_with_clues(puzzle, grid).plain().splitlines()
    assert plain.splitlines()[1:] == ["1 ██ ?", "0  ? ?"]                    # undecided cells as ?


def test_solve_prints_the_clues_at_a_terminal_only(capsys):
    from nonolab.cli.render_commands import echo_grid

    puzzle = nonolab.load(T2)
    solution = nonolab.solve(puzzle, "cnf").solution
    echo_grid(puzzle, solution, terminal=False)
    assert capsys.readouterr().out == solution.to_text() + "\n"          # a pipe: the rows scripts read
    echo_grid(puzzle, solution, terminal=True)
    shown = capsys.readouterr().out.splitlines()
    assert [ln.rstrip() for ln in shown] == grid_with_clues(puzzle, solution).plain().splitlines()
    assert max(map(len, shown)) == grid_with_clues(puzzle, solution).width
