"""Every step of a colour step log follows from what the steps before it showed.

A colour cell has more than two values, so a line solve may rule values out of a cell
without deciding it.  The log held only decisions, so about a quarter of the line steps
of random colour puzzles (``explain``, the stepper) rested on values ruled out by steps
that were never shown: the grid showed those cells as ``?`` and the step followed from
nothing on it.  Here each step is held, by brute force sharing no code with the engine
(``tests/colour/brute.py``), to the state the steps before it show: the cells decided
and the values ruled out.
"""

from __future__ import annotations

import random

from nonolab.core import Palette, Puzzle, Solution
from nonolab.harness.explanation import explain
from nonolab.solvers import Technique, replay
from tests.colour import brute


def _random_puzzles(seed: int, count: int):
    rnd = random.Random(seed)
    for _ in range(count):
        h, w, k = rnd.randint(2, 6), rnd.randint(2, 6), rnd.randint(2, 4)
        density = rnd.choice([0.4, 0.6, 0.8])
        cells = [[rnd.randint(1, k) if rnd.random() < density else 0 for _ in range(w)] for _ in range(h)]
        yield Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(k))


def _line_fits(puzzle: Puzzle, kind: str, index: int, domains: dict) -> list[tuple[int, ...]]:
    """The lines of the clue that agree with every cell's open values."""
    if kind == "row":
        clue, cells = puzzle.coloured_rows[index], [(index, c) for c in range(puzzle.width)]
    else:
        clue, cells = puzzle.coloured_columns[index], [(r, index) for r in range(puzzle.height)]
    return [line for line in brute.lines_of(clue, len(cells), puzzle.colours)
            if all(v in domains[cell] for v, cell in zip(line, cells))], cells


def _problem(puzzle: Puzzle, steps, truth: set) -> str:
    """What is wrong with the log's reasons, or ''."""
    values = set(range(puzzle.colours + 1))
    domains = {(r, c): set(values) for r in range(puzzle.height) for c in range(puzzle.width)}
    for r, c, v in puzzle.givens:
        domains[(r, c)] = {v}
    replay_steps = list(replay(puzzle, steps))   # a value set that was ruled out raises here
    assert len(replay_steps) == len(steps)
    searching = False
    for n, step in enumerate(steps, 1):
        said = f"step {n} ({step.describe()})"
        narrowed = {(r, c): {v} for r, c, v in step.cells}
        for r, c, v in step.ruled_out:
            narrowed.setdefault((r, c), set(domains[(r, c)])).discard(v)
        if not narrowed:
            return f"{said} changes nothing"
        for cell, left in narrowed.items():
            if not left <= domains[cell] or left == domains[cell]:
                return f"{said} gives cell {cell} {sorted(left)}, not a narrowing of {sorted(domains[cell])}"
        searching = searching or step.technique in (Technique.GUESS, Technique.CDCL) or step.depth > 0
        if step.technique is Technique.LINE:
            # The line's clue and its cells' open values alone leave exactly what it says.
            fits, cells = _line_fits(puzzle, step.source[0], step.source[1], domains)
            for i, cell in enumerate(cells):
                if cell in narrowed and not {line[i] for line in fits} <= narrowed[cell]:
                    return f"{said}: the line still allows {sorted({l[i] for l in fits})} at {cell}"
        elif not searching:
            # A probe: every solution that agrees with what is shown agrees with it.
            for solution in truth:
                if all(solution[r][c] in domains[(r, c)] for r, c in domains) and any(
                        solution[r][c] not in left for (r, c), left in narrowed.items()):
                    return f"{said} rules out a solution that the steps before it allow"
        for cell, left in narrowed.items():
            domains[cell] = left
    return ""


def test_every_colour_step_follows_from_what_the_steps_before_it_show():
    checked = steps = ruled = 0
    for puzzle in _random_puzzles(seed=14, count=150):
        truth = brute.solutions(puzzle)
        found = explain(puzzle)
        problem = _problem(puzzle, found.steps, truth)
        assert not problem, (puzzle.coloured_rows, puzzle.coloured_columns, problem)
        if found.solution is not None:
            *_, (_, grid) = replay(puzzle, found.steps)
            assert grid.to_solution() == found.solution and found.solution in truth
        checked += 1
        steps += len(found.steps)
        ruled += sum(bool(s.ruled_out) for s in found.steps)
    assert checked == 150 and steps > 500 and ruled > 50   # the values ruled out are shown, and checked


def test_a_log_that_sets_a_value_an_earlier_step_ruled_out_is_refused():
    import pytest

    from nonolab.solvers.steps import Step

    puzzle = Puzzle.from_solution(Solution.from_values([[1, 2]]), palette=Palette.default_for(2))
    out = Step(Technique.LINE, ("column", 0), (), ruled_out=((0, 0, 2),))
    with pytest.raises(ValueError, match="ruled out"):
        list(replay(puzzle, [out, Step(Technique.LINE, ("row", 0), ((0, 0, 2),))]))
    assert [g.get(0, 0) for _, g in replay(puzzle, [out, Step(Technique.LINE, ("row", 0), ((0, 0, 1),))])][-1] == 1


def _told(block: str) -> str | None:
    """What a step's block of ``explain`` text says it ruled out: its wrapped lines joined."""
    lines = block.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("ruled out: ")), None)
    return None if at is None else " ".join(line.strip() for line in lines[at:])[len("ruled out: "):]


def _cells_told(told: str, chars: str) -> list[tuple[int, int, int]]:
    """The (row, column, value) the text names, 0-based: ``(5, 1-9) not a or b`` is nine cells."""
    def span(text):
        first, _, last = text.partition("-")
        return range(int(first) - 1, int(last or first))
    found = []
    for part in told.split("; "):
        where, values = part.split(" not ")
        rows, columns = where.strip("()").split(", ")
        found += [(r, c, chars.index(ch)) for r in span(rows) for c in span(columns) for ch in values.split(" or ")]
    return found


def _explain_text(path, columns: int = 80) -> str:
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    return CliRunner(env={"COLUMNS": str(columns)}).invoke(cli, ["explain", str(path)], catch_exceptions=False).stdout


def test_explain_prints_and_writes_what_each_step_rules_out():
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from nonolab.cli.main import cli
    from nonolab.formats import load

    path = Path(__file__).resolve().parents[1] / "data" / "colour" / "probe-six.xml"
    puzzle, found = load(path), explain(load(path))
    text = _explain_text(path)
    chars = puzzle.palette.chars
    blocks = text.split("\n\n")[:-1]   # a step a block: its line, its grid, what it ruled out
    assert len(blocks) == len(found.steps) and any(s.ruled_out for s in found.steps)
    for block, step in zip(blocks, found.steps):
        told = _told(block)
        if not step.ruled_out:
            assert told is None
            continue
        assert step.describe() in block
        assert sorted(_cells_told(told, chars)) == sorted(step.ruled_out)
    data = json.loads(CliRunner().invoke(cli, ["explain", str(path), "--json"], catch_exceptions=False).stdout)
    assert [s.get("ruled_out", []) for s in data["steps"]] == [[list(c) for c in s.ruled_out] for s in found.steps]


def test_explain_of_a_wide_puzzle_says_what_it_rules_out_in_ranges_wrapped_to_the_terminal(tmp_path):
    # A step across a 100-cell row named each cell and its values on one line of 1,000s of characters.
    import json

    from click.testing import CliRunner

    from nonolab.cli.main import cli
    from nonolab.formats import dump

    rnd = random.Random(16)
    stripes = [[1 + (c // 7 + r) % 3 if rnd.random() < 0.8 else 0 for c in range(100)] for r in range(4)]
    puzzle = Puzzle.from_solution(Solution.from_values(stripes), palette=Palette.default_for(3))
    path = tmp_path / "wide.non"
    dump(puzzle, path)
    found = explain(puzzle)
    wide = [s for s in found.steps if len({(r, c) for r, c, _ in s.ruled_out}) >= 50]
    assert wide, "the puzzle must rule values out of long stretches of a line"
    for columns in (60, 100):
        text = _explain_text(path, columns)
        blocks = text.split("\n\n")[:-1]
        assert len(blocks) == len(found.steps)
        for block, step in zip(blocks, found.steps):
            told = _told(block)
            if step.ruled_out:
                lines = block.splitlines()
                said = lines[next(i for i, line in enumerate(lines) if line.startswith("ruled out: ")):]
                assert all(len(line) <= columns for line in said), said
                assert sorted(_cells_told(told, puzzle.palette.chars)) == sorted(step.ruled_out)
        for step in wide:   # a stretch of cells ruled out the same values is one item, not a cell an item
            items = _told(blocks[found.steps.index(step)]).split("; ")
            assert len(items) < len({(r, c) for r, c, _ in step.ruled_out}) / 4, items
    data = json.loads(CliRunner().invoke(cli, ["explain", str(path), "--json"], catch_exceptions=False).stdout)
    assert [s.get("ruled_out", []) for s in data["steps"]] == [[list(c) for c in s.ruled_out] for s in found.steps]
