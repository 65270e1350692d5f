"""The docs say every case in which a cross-check (`verify`) is INCONCLUSIVE.

`verify u1.xml --backends native,dlx,lcg` of a colour puzzle printed `unique: backends
INCONCLUSIVE` (exit 1) while usage.md and trust.md said INCONCLUSIVE only "when no backend
proved anything" (and its verdict then `timeout`): a backend named that declines the puzzle
makes it inconclusive too, the verdict the word the others proved.
"""

from __future__ import annotations

import re
from pathlib import Path

from nonolab import Puzzle, Solution, crosscheck
from nonolab.core.palette import Palette

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_a_declined_backend_is_said_where_inconclusive_is_explained():
    colour = Puzzle.from_solution(Solution.from_values([[1, 2, 0], [0, 2, 1], [1, 1, 2]]),
                                  palette=Palette.default_for(2))
    check = crosscheck(colour, ["native", "dlx"])
    assert check.agreement.value == "INCONCLUSIVE" and check.consensus().value == "unique"
    usage = (DOCS / "usage.md").read_text(encoding="utf-8")
    said = re.search(r"INCONCLUSIVE when [^|]*", usage).group(0)
    assert "declined" in said, said
    trust = " ".join((DOCS / "trust.md").read_text(encoding="utf-8").split())
    said = re.search(r"`inconclusive` when [^.]*\.", trust).group(0)
    assert "declined" in said, said
