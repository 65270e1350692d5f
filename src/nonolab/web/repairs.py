"""The repairs the workbench offers, in one place: what to suggest for a puzzle that is
not unique, and what applying a suggestion makes of it.

The suggestions are the library's: the fewest cell flips of the designer's picture
(the goal, else the first solution) that make the puzzle unique, each proven by an
exact count (:func:`nonolab.harness.repair.repair`, as ``check --report`` and
``nonolab repair`` give them), and the givens of the ambiguity report (``check --why``),
proven to leave one solution.  :func:`suggest` is the only function the rest of the
workbench asks, and a suggestion is a plain dict that :func:`apply` reads back.

A suggestion: ``{"kind": "flip", "cells": [[r, c, new value], ...], "picture": [rows],
"text": ...}`` or ``{"kind": "givens", "cells": [[r, c, v], ...], "text": ...}``;
cells 0-based, the text 1-based as the CLI prints cells; a value is 0 (empty, the
background) or 1 (filled), or in colour a colour index; the picture's rows are the
picture's text (``#``/``.``, in colour ``.`` and ``1``-``9``, ``a``-``z``).

>>> from nonolab.core import Puzzle, Solution
>>> switch = Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))
>>> flip = {"kind": "flip", "cells": [[0, 1, 1]], "picture": ["#.", ".#"]}
>>> fixed, givens = apply(switch, {}, flip)
>>> fixed.rows, fixed.columns, givens
(((2,), (1,)), ((1,), (2,)), {})
"""

from __future__ import annotations

from typing import Any

from nonolab.core.grid import COLOUR_CHARS, Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument

Givens = dict[tuple[int, int], int]


def _cell(r: int, c: int, value: int | None = None, chars: str = ".#") -> str:
    text = f"({r + 1},{c + 1})"
    return text if value is None else f"{text}={chars[value]}"


def suggest(puzzle: Puzzle, witnesses: tuple[Solution, ...], report: Any, time_limit: float | None = None,
            cancel: Any = None) -> list[dict[str, Any]]:
    """The repairs to offer for ``puzzle``, best first (empty when it is unique).

    ``witnesses``: two different solutions (``check``'s); ``report``: the ambiguity
    report (:func:`nonolab.harness.ambiguity.ambiguity_report`) or ``None``.  The flips
    are the library's repair (:func:`nonolab.harness.repair.repair`: the fewest cell
    flips of the designer's picture, each proven unique by an exact count), within
    ``time_limit``; the givens are the ambiguity report's.
    """
    from nonolab.harness.repair import repair

    found: list[dict[str, Any]] = []
    reference = (report.reference if report is not None and report.reference is not None
                 else puzzle.goal or (witnesses[0] if witnesses else None))
    if reference is not None and len(witnesses) >= 2:
        repaired = repair(puzzle, reference, "native", max_flips=2, time_limit=time_limit, cancel=cancel)
        picture_rows = reference.to_text(chars=COLOUR_CHARS if puzzle.is_colour else None).splitlines()
        for suggestion in repaired.suggestions:
            if not suggestion.unique:
                continue
            cells = [[r, c, v] for r, c, v in suggestion.flips]
            found.append({"kind": "flip", "cells": cells, "picture": picture_rows,
                          "text": f"{suggestion.describe()} in the picture: one solution then, by an exact "
                                  f"count ({'the fewest flips' if repaired.minimal else 'found greedily'})"})
    if report is not None and report.givens and report.givens_unique:
        cells = [[r, c, v] for r, c, v in report.givens]
        chars = puzzle.palette.chars if puzzle.is_colour else ".#"   # type: ignore[union-attr]
        found.append({"kind": "givens", "cells": cells,
                      "text": f"reveal {len(cells)} cell{'s' * (len(cells) != 1)} as givens: "
                              + " ".join(_cell(r, c, v, chars) for r, c, v in report.givens)
                              + " (one solution then, by an exact count)"})
    return found


def apply(puzzle: Puzzle, givens: Givens, repair: dict[str, Any]) -> tuple[Puzzle, Givens]:
    """The puzzle and givens a suggestion of :func:`suggest` makes of ``puzzle``.

    A flip changes the picture (which must solve ``puzzle``) and so the clues; givens
    keep the clues and fix cells.

    Raises:
        InvalidArgument: not a suggestion for this puzzle.
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
        return puzzle, {**givens, **named}
    picture = _picture(puzzle, repair.get("picture"))
    changed = [list(row) for row in picture]
    for (r, c), v in named.items():
        changed[r][c] = v
    name = puzzle.name if puzzle.name.endswith("(repaired)") else f"{puzzle.name or 'puzzle'} (repaired)"
    solution = Solution.from_bytes(bytes(v for row in changed for v in row), puzzle.width, colours=puzzle.is_colour)
    return Puzzle.from_solution(solution, name, puzzle.palette).with_(metadata=puzzle.metadata), {}


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
