"""The repairs the workbench offers, in one place: what to suggest for a puzzle that is
not unique, and what applying a suggestion makes of it.

The suggestions are the library's: the fewest cell flips of the designer's picture
(the goal, else the first solution) that make the puzzle unique, each proven by an
exact count (:func:`nonolab.harness.repair.repair`, as ``check --report`` and
``nonolab repair`` give them), and the givens of the ambiguity report (``check --why``),
proven to leave one solution.  :func:`suggest` is the only function the rest of the
workbench asks, and a suggestion is a plain dict that :func:`apply` reads back.

A suggestion: ``{"kind": "flip", "cells": [[r, c], ...], "picture": [rows of # and .],
"text": ...}`` or ``{"kind": "givens", "cells": [[r, c, v], ...], "text": ...}``;
cells 0-based, the text 1-based as the CLI prints cells.

>>> from nonolab.core import Puzzle, Solution
>>> switch = Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))
>>> flip = {"kind": "flip", "cells": [[0, 1]], "picture": ["#.", ".#"]}
>>> fixed, givens = apply(switch, {}, flip)
>>> fixed.rows, fixed.columns, givens
(((2,), (1,)), ((1,), (2,)), {})
"""

from __future__ import annotations

from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import InvalidArgument

Givens = dict[tuple[int, int], int]


def _cell(r: int, c: int, value: int | None = None) -> str:
    text = f"({r + 1},{c + 1})"
    return text if value is None else f"{text}={'#' if value else '.'}"


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
        for suggestion in repaired.suggestions:
            if not suggestion.unique:
                continue
            cells = [[r, c] for r, c, _ in suggestion.flips]
            found.append({"kind": "flip", "cells": cells, "picture": reference.to_text().splitlines(),
                          "text": f"{suggestion.describe()} in the picture: one solution then, by an exact "
                                  f"count ({'the fewest flips' if repaired.minimal else 'found greedily'})"})
    if report is not None and report.givens and report.givens_unique:
        cells = [[r, c, v] for r, c, v in report.givens]
        found.append({"kind": "givens", "cells": cells,
                      "text": f"reveal {len(cells)} cell{'s' * (len(cells) != 1)} as givens: "
                              + " ".join(_cell(r, c, v) for r, c, v in report.givens)
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
    try:
        if repair["kind"] == "givens":
            fixed = {(int(r), int(c)): 1 if int(v) else 0 for r, c, v in cells}
        else:
            flips = [(int(r), int(c)) for r, c in cells]
    except (TypeError, ValueError):
        raise InvalidArgument("a repair's cells are [row, column] (flip) or [row, column, value] (givens)") from None
    named = fixed if repair["kind"] == "givens" else dict.fromkeys(flips, 0)
    for r, c in named:
        if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
            raise InvalidArgument(f"cell {_cell(r, c)} is outside the {puzzle.width}x{puzzle.height} grid")
    if repair["kind"] == "givens":
        return puzzle, {**givens, **fixed}
    rows = repair.get("picture")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise InvalidArgument("a flip carries the picture it flips (rows of # and .)")
    picture = Solution.from_rows(rows)
    if (picture.height, picture.width) != (puzzle.height, puzzle.width) or violations(puzzle, picture):
        raise InvalidArgument("the flip's picture is not a solution of this puzzle")
    flipped = [list(row) for row in picture.cells]
    for r, c in flips:
        flipped[r][c] ^= 1
    name = puzzle.name if puzzle.name.endswith("(repaired)") else f"{puzzle.name or 'puzzle'} (repaired)"
    return Puzzle.from_solution(Solution(flipped), name=name).with_(metadata=puzzle.metadata), {}
