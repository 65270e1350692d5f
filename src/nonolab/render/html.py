"""What Jupyter shows as HTML: a puzzle, a solution, a check result and the designer's report.

Each function returns one self-contained ``<div>`` (inline SVG pictures, inline
styles, no script, nothing fetched): the text parts (titles, verdicts, warnings,
repairs) are escaped with :func:`html.escape`, so a puzzle titled ``<b>`` shows as
those three characters.  Pictures come from :mod:`nonolab.render.pictures`; a grid
over ``MAX_SHOWN`` cells is named, not drawn (an SVG of a million rectangles would
stall the notebook).

The objects are read by their attributes, not their types: this module imports
nothing from the harness.

>>> from nonolab.core import Puzzle
>>> page = puzzle_html(Puzzle(rows=((1,),), columns=((1,),), name="<one>"))
>>> "&lt;one&gt;" in page and "<one>" not in page and "<svg" in page
True
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.render.text import LIMIT_FIRST
from nonolab.render.pictures import ambiguity_svg, diff_svg, puzzle_svg, solution_svg
from nonolab.core.words import counted

MAX_SHOWN = 150 * 150
CELL = 16

_BOX = ('<div class="nonolab" style="font-family: sans-serif; line-height: 1.4">', "</div>")
_VERDICT_INK = {"unique": "#1a7f37", "multiple": "#b35900", "contradiction": "#c62828"}


def _title(puzzle: Puzzle) -> str:
    name = escape(puzzle.name) if puzzle.name else "puzzle"
    kind = f", {len(puzzle.palette) - 1} colours" if puzzle.is_colour else ""  # type: ignore[arg-type]
    return f'<div class="title"><strong>{name}</strong> ({puzzle.width}x{puzzle.height}{kind})</div>'


def _fits(grid: Any) -> bool:
    return grid.width * grid.height <= MAX_SHOWN


def _figure(svg: str, caption: str = "") -> str:
    """One picture (already SVG, whose text the drawing code escaped) with an escaped caption."""
    below = f'<figcaption>{escape(caption)}</figcaption>' if caption else ""
    return f'<figure class="picture" style="display: inline-block; margin: 0.3em">{svg}{below}</figure>'


def _not_drawn(grid: Any, what: str) -> str:
    return (f'<p class="picture-omitted">({escape(what)}: {grid.width}x{grid.height}, over {MAX_SHOWN} cells, '
            "not drawn)</p>")


def _list(css: str, items: Iterable[str]) -> str:
    """``<ul>`` of already escaped items (nothing for none)."""
    rows = "".join(f"<li>{item}</li>" for item in items)
    return f'<ul class="{css}">{rows}</ul>' if rows else ""


def puzzle_html(puzzle: Puzzle) -> str:
    """The puzzle's title and size, and its empty grid with the clues."""
    picture = _figure(puzzle_svg(puzzle, cell=CELL)) if _fits(puzzle) else _not_drawn(puzzle, "the grid")
    return f"{_BOX[0]}{_title(puzzle)}{picture}{_BOX[1]}"


def solution_html(solution: Solution) -> str:
    """The picture with its clues (derived from it), and its size."""
    picture = _figure(solution_svg(solution, cell=CELL)) if _fits(solution) else _not_drawn(solution, "the picture")
    return f'{_BOX[0]}<div class="title">solution ({solution.width}x{solution.height})</div>{picture}{_BOX[1]}'


def _verdict(word: str) -> str:
    ink = _VERDICT_INK.get(word, "#555555")
    return (f'<p>verdict: <strong class="verdict" style="color: {ink}">{escape(word)}</strong></p>')


def check_html(found: Any, puzzle: Puzzle | None = None) -> str:
    """A check result (:func:`nonolab.check`): its verdict, and the solution or two
    solutions and where they differ."""
    word = found.verdict.value
    parts = [_BOX[0]] + ([_title(puzzle)] if puzzle is not None else []) + [_verdict(word)]
    witnesses = found.witnesses
    if len(witnesses) >= 2:
        first, second = witnesses[:2]
        n = len(found.differing)
        parts.append(f"<p>{counted(n, 'cell')} differ between two solutions</p>")
        parts.append(_figure(diff_svg(first, second, puzzle, cell=CELL)) if _fits(first)
                     else _not_drawn(first, "the two solutions"))
    elif witnesses and word == "unique":
        parts.append(_figure(solution_svg(witnesses[0], puzzle, cell=CELL)) if _fits(witnesses[0])
                     else _not_drawn(witnesses[0], "the solution"))
    parts.append(_BOX[1])
    return "".join(parts)


def _grade(rep: Any) -> str:
    graded = rep.grade
    if rep.verdict.value == "contradiction":
        return '<p class="grade">grade: not graded (a puzzle with no solution has no grade)</p>'
    if graded is None or graded.grade is None:
        stopped = rep.stopped.value if rep.stopped is not None else "timeout"
        return f'<p class="grade">grade: {stopped} (not reached: {LIMIT_FIRST})</p>'
    return (f'<p class="grade">grade: <strong>{escape(graded.grade.value)}</strong> (pbnsolve class: '
            f'{escape(str(graded.grade.pbnsolve_class))}); difficulty <strong class="difficulty">'
            f'{rep.difficulty:.3f}</strong> (0-1 line, 1-4 probing, 4-5 search)</p>')


def _pictures(rep: Any) -> str:
    """The solution; for several solutions, two and their difference, and the ambiguity map."""
    puzzle, solution = rep.puzzle, rep.solution
    if solution is None:
        return _figure(puzzle_svg(puzzle, cell=CELL), "the puzzle") if _fits(puzzle) else ""
    if not _fits(solution):
        return _not_drawn(solution, "the solutions" if rep.alternative is not None else "the solution")
    if rep.alternative is None:
        return _figure(solution_svg(solution, puzzle, cell=CELL), "the solution")
    out = [_figure(diff_svg(solution, rep.alternative, puzzle, cell=CELL),
                   f"two solutions; {len(rep.differing)} cells differ")]
    amb = rep.ambiguity
    drawn = ambiguity_svg(amb, cell=CELL) if amb is not None else None   # None: no reference solution
    if drawn is not None:
        out.append(_figure(drawn, "where the solutions differ (regions) and givens"))
    return "".join(out)


def _ambiguity(amb: Any, puzzle: Puzzle) -> str:
    if amb is None:
        return ""
    count = f"{amb.solution_count} solutions" if amb.count_exact else f"at least {amb.solution_count} solutions"
    if not amb.regions_known:      # the regions were not computed: none is claimed
        return f"<p>{count}; regions where they differ: timeout (not computed: {LIMIT_FIRST})</p>"
    regions = _list("regions", (escape(r.describe()) for r in amb.regions))
    givens = ""
    if amb.givens_unique:
        cells = ", ".join(f"({r + 1},{c + 1})={puzzle.value_label(v)}" for r, c, v in amb.givens)
        givens = f'<p class="givens">givens instead of a repair (greedy): {escape(cells)}</p>'
    return f"<p>{count}; {counted(len(amb.regions), 'region')} where they differ:</p>" \
           f"{regions}{givens}"


def _repairs(repaired: Any, puzzle: Puzzle) -> str:
    """Each repair (flips, whether an exact count proved it unique, the clues it changes), and
    the picture before and after the first."""
    if repaired is None or repaired.status == "unique":
        return ""
    if not repaired.suggestions:
        why = f"timeout ({LIMIT_FIRST})" if repaired.status == "timeout" else "none found within the limits"
        return f'<div class="repairs"><p>repair: {escape(why)}</p></div>'
    best = repaired.best
    how = "the fewest possible" if repaired.minimal else "greedy, not proven the fewest"
    items = []
    for s in repaired.suggestions:
        clue = s.puzzle.blocks_label
        lines = "; ".join(f"{kind} {i + 1}: {escape(clue(before))} &rarr; {escape(clue(after))}"
                          for kind, i, before, after in s.lines)
        proof = "unique (exact count)" if s.unique else "NOT unique"
        items.append(f"{escape(s.describe())}: <strong>{proof}</strong>" + (f" ({lines})" if lines else ""))
    parts = [f'<div class="repairs"><p>repairs of the {escape(repaired.source)} ({how}):</p>', _list("repair", items)]
    after = best.puzzle.goal
    if after is not None and repaired.picture is not None and _fits(after):
        parts += [_figure(solution_svg(repaired.picture, puzzle, cell=CELL), "before (solution 1)"),
                  _figure(solution_svg(after, best.puzzle, cell=CELL), "after repair 1")]
    parts.append("</div>")
    return "".join(parts)


def report_html(rep: Any) -> str:
    """The designer's report (:func:`nonolab.report`): verdict, grade and numeric
    difficulty, warnings, the pictures, the ambiguity and the repairs."""
    parts = [_BOX[0], _title(rep.puzzle), _verdict(rep.verdict.value), _grade(rep),
             _list("warnings", (f"warning: {escape(w.message)}" for w in rep.warnings)),
             _pictures(rep)]
    if rep.verdict == "multiple":
        parts += [_ambiguity(rep.ambiguity, rep.puzzle), _repairs(rep.repair, rep.puzzle)]
    if not rep.complete:
        stopped = rep.stopped.value if rep.stopped is not None else "timeout"
        parts.append(f"<p>({stopped}: part of the report was cut short)</p>")
    parts += [f'<p class="footer">{rep.time:.3f} s, backend {escape(rep.backend)}</p>', _BOX[1]]
    return "".join(parts)
