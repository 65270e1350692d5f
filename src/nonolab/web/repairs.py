"""The repairs the workbench offers, in one place: what to suggest for a puzzle that is
not unique, and what applying a suggestion makes of it.

The suggestions are the designer's report's (:func:`nonolab.harness.report.report`, as
``check --report`` gives it): the fewest cell flips of the report's solution that make
the puzzle unique, each proven by an exact count, and the givens of its ambiguity
report, proven to leave one solution.  :func:`suggest` turns them into plain dicts that
:func:`apply` reads back.

A suggestion: ``{"kind": "flip", "cells": [[r, c, new value], ...], "picture": [rows],
"text": ...}`` or ``{"kind": "givens", "cells": [[r, c, v], ...], "text": ...}``;
cells 0-based, the text 1-based as the CLI prints cells; a value is 0 (empty, the
background) or 1 (filled), or in colour a colour index; the picture's rows are the
picture's text (``#``/``.``, in colour ``.`` and ``1``-``9``, ``a``-``z``).  Givens
become part of the puzzle (:attr:`nonolab.core.puzzle.Puzzle.givens`): every solver,
format and picture then has them.

>>> from nonolab.core import Puzzle, Solution
>>> switch = Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))
>>> flip = {"kind": "flip", "cells": [[0, 1, 1]], "picture": ["#.", ".#"]}
>>> fixed = apply(switch, flip)
>>> fixed.rows, fixed.columns, fixed.givens
(((2,), (1,)), ((1,), (2,)), ())
>>> apply(switch, {"kind": "givens", "cells": [[0, 0, 1]]}).givens
((0, 0, 1),)
"""

from __future__ import annotations

from typing import Any

from nonolab.core.grid import COLOUR_CHARS, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument, InvalidPuzzle
from nonolab.core.words import counted


def _cell(r: int, c: int, value: int | None = None, puzzle: Puzzle | None = None) -> str:
    """``(1,2)``, or with a value ``(1,2)=#`` (in colour ``(1,2)=blue (%)``, as reports name colours)."""
    text = f"({r + 1},{c + 1})"
    return text if value is None or puzzle is None else f"{text}={puzzle.value_label(value)}"


def suggest(found: Any) -> list[dict[str, Any]]:
    """The repairs to offer from a designer's report (:class:`nonolab.harness.report.Report`),
    best first: its repair's suggestions proven unique, then its givens when proven
    (empty unless the puzzle has several solutions).

    >>> from nonolab.harness.report import report
    >>> switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    >>> [r["kind"] for r in suggest(report(switch, "native"))][-1]
    'givens'
    """
    puzzle, offered = found.puzzle, []
    repaired = found.repair
    if repaired is not None and repaired.picture is not None:
        rows = repaired.picture.to_text(chars=COLOUR_CHARS if puzzle.is_colour else None).splitlines()
        for suggestion in repaired.suggestions:
            if not suggestion.unique:
                continue
            offered.append({"kind": "flip", "cells": [list(f) for f in suggestion.flips], "picture": rows,
                            "text": f"{suggestion.describe()} in the picture: one solution then, by an exact "
                                    f"count ({'the fewest flips' if repaired.minimal else 'found greedily'})"})
    if found.givens:
        cells = [list(g) for g in found.givens]
        offered.append({"kind": "givens", "cells": cells,
                        "text": f"reveal {counted(len(cells), 'cell')} as givens: "
                                + " ".join(_cell(r, c, v, puzzle) for r, c, v in found.givens)
                                + " (one solution then, by an exact count)"})
    return offered


def apply(puzzle: Puzzle, repair: dict[str, Any], locked: Any = ()) -> Puzzle:
    """The puzzle a suggestion of :func:`suggest` makes of ``puzzle``.

    A flip changes the picture (which must solve ``puzzle``) and so the clues; givens
    keep the clues and become part of the puzzle.  A flip of a ``locked`` cell is refused.

    Raises:
        InvalidArgument: not a suggestion for this puzzle, or a flip of a locked cell.
    """
    if not isinstance(repair, dict) or repair.get("kind") not in ("flip", "givens"):
        raise InvalidArgument("a repair is a suggestion of the report: kind flip or givens")
    cells = repair.get("cells")
    if not isinstance(cells, list) or not cells:
        raise InvalidArgument("a repair names at least one cell")
    if not all(isinstance(cell, list) and len(cell) == 3 and all(_whole(x) for x in cell) for cell in cells):
        # JSON numbers as they arrive: 1e400 is a float (infinity), 2.5 no cell; only whole numbers name one.
        raise InvalidArgument("a repair's cells are [row, column, value], three whole numbers each")
    named = {(r, c): v for r, c, v in cells}
    for (r, c), v in named.items():
        if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
            raise InvalidArgument(f"cell {_cell(r, c)} is outside the {puzzle.width}x{puzzle.height} grid")
        if not 0 <= v <= puzzle.colours:
            raise InvalidArgument(f"cell {_cell(r, c)}: value {v} is not one of 0..{puzzle.colours}")
    if repair["kind"] == "givens":
        try:
            return puzzle.with_(givens={**puzzle.given_cells, **named})
        except InvalidPuzzle as err:      # e.g. a given that the goal does not have
            raise InvalidArgument(str(err)) from None
    touched = sorted(set(named) & {tuple(c) for c in locked})
    if touched:
        raise InvalidArgument(f"the flip changes a locked cell: {' '.join(_cell(r, c) for r, c in touched)}")
    picture = _picture(puzzle, repair.get("picture"))
    changed = [list(row) for row in picture]
    for (r, c), v in named.items():
        changed[r][c] = v
    name = puzzle.name if puzzle.name.endswith("(repaired)") else f"{puzzle.name or 'puzzle'} (repaired)"
    solution = Solution.from_bytes(bytes(v for row in changed for v in row), puzzle.width, colours=puzzle.is_colour)
    made = Puzzle.from_solution(solution, name, puzzle.palette).with_(metadata=puzzle.metadata)
    try:
        return made.with_(givens=puzzle.givens) if puzzle.givens else made
    except InvalidPuzzle as err:          # a flip of a given cell
        raise InvalidArgument(f"the flip changes a given cell: {err}") from None


def picture_of(puzzle: Puzzle, repair: dict[str, Any]) -> Solution:
    """The picture a flip suggestion changes (checked to solve ``puzzle``)."""
    return _picture(puzzle, repair.get("picture"))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _picture(puzzle: Puzzle, rows: Any) -> Solution:
    """The picture a flip changes, from its text; it must solve ``puzzle``."""
    chars = COLOUR_CHARS[:puzzle.colours + 1] if puzzle.is_colour else ".#"
    if (not isinstance(rows, list) or len(rows) != puzzle.height
            or not all(isinstance(row, str) and len(row) == puzzle.width and set(row) <= set(chars) for row in rows)):
        raise InvalidArgument(f"a flip carries the picture it changes ({puzzle.height} rows of "
                              f"{puzzle.width} of {' '.join(chars)})")
    picture = Solution.from_bytes(bytes(chars.index(ch) for row in rows for ch in row), puzzle.width,
                                  colours=puzzle.is_colour)
    if violations(puzzle, picture):
        raise InvalidArgument("the flip's picture is not a solution of this puzzle")
    return picture
