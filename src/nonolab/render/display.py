"""What Jupyter shows for nonolab's objects: their picture as SVG, and as HTML.

``Puzzle``, ``Solution``, ``CheckResult`` and ``AmbiguityReport`` each have a
``_repr_svg_`` method that imports this module when a notebook first asks (so that the
core and the harness load no drawing code otherwise) and returns :func:`svg_of` itself.
``Puzzle``, ``Solution``, ``CheckResult`` and the designer's ``Report`` also have
``_repr_html_`` (:func:`html_of`): the picture with the words around it (title,
verdict, grade, warnings, repairs), escaped, in one self-contained block.
Grids beyond ``MAX_SHOWN`` cells show as their text ``repr`` instead: an SVG of a
million rectangles would stall the notebook.

>>> from nonolab.core import Solution
>>> svg_of(Solution.from_rows(["#."])).startswith("<svg")
True
"""

from __future__ import annotations

from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.render.pictures import ambiguity_svg, diff_svg, puzzle_svg, solution_svg

MAX_SHOWN = 150 * 150
CELL = 16


def _size(picture: Any) -> int:
    return picture.width * picture.height


def svg_of(obj: Any) -> str | None:
    """The SVG a notebook shows for ``obj``, or ``None`` to fall back to its text ``repr``.

    A puzzle: its empty grid and clues.  A solution: itself with its clues.  A check
    result (``nonolab.check``): the unique solution, or two solutions and where they
    differ; nothing for a contradiction or a timeout.  An ambiguity report: its map.
    """
    if isinstance(obj, Puzzle):
        return puzzle_svg(obj, cell=CELL) if _size(obj) <= MAX_SHOWN else None
    if isinstance(obj, Solution):
        return solution_svg(obj, cell=CELL) if _size(obj) <= MAX_SHOWN else None
    witnesses = getattr(obj, "witnesses", None)
    if witnesses is not None:                              # a CheckResult
        if not witnesses or _size(witnesses[0]) > MAX_SHOWN:
            return None
        if len(witnesses) >= 2:
            return diff_svg(witnesses[0], witnesses[1], cell=CELL)
        return solution_svg(witnesses[0], cell=CELL) if obj.verdict.value == "unique" else None
    reference = getattr(obj, "reference", None)            # an AmbiguityReport
    if reference is not None and hasattr(obj, "regions") and _size(reference) <= MAX_SHOWN:
        return ambiguity_svg(obj, cell=CELL)
    return None


def html_of(obj: Any) -> str | None:
    """The HTML block a notebook shows for ``obj`` (see :mod:`nonolab.render.html`), or
    ``None`` for an object it does not know.

    >>> from nonolab.core import Puzzle
    >>> page = html_of(Puzzle(rows=((1,),), columns=((1,),), name="a & b"))
    >>> page.startswith("<div") and "a &amp; b" in page and "a & b" not in page
    True
    """
    from nonolab.render import html

    if isinstance(obj, Puzzle):
        return html.puzzle_html(obj)
    if isinstance(obj, Solution):
        return html.solution_html(obj)
    if hasattr(obj, "repair") and hasattr(obj, "warnings"):   # the designer's report
        return html.report_html(obj)
    if hasattr(obj, "witnesses") and hasattr(obj, "verdict"):  # a CheckResult
        return html.check_html(obj, getattr(obj, "puzzle", None))
    return None
