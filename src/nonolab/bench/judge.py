"""Which answers of a benchmark are wrong, and where solvers disagree: one function decides it.

A proof beats a claim.  nonolab holds two kinds of proof about a puzzle:

* **checked solutions**: every solution a nonolab run found (each checked against the
  clues before it left its backend; a run that then ran out of time counts too), and a
  grid an external printed that nonolab checked.  One proves the puzzle has a solution,
  two distinct ones (of one run) that it has several;
* **a complete search's verdict**: a nonolab run's ``unique`` or ``contradiction`` (with
  ``--task count``, its exact count).  It stands unless checked solutions refute it (then
  that run is wrong) or another complete search says otherwise (then nothing is proven
  beyond the checked solutions: a disagreement, a bug in one of them).

Every other verdict is a claim: an external's ``unique`` proves nothing by itself.  A
claim contrary to a proof is **wrong** (in the summary's table, its ``wrong`` list and
the bug report): an external's ``unique`` or ``multiple`` on a puzzle a complete search
proved contradictory, ``multiple`` or ``contradiction`` on one it proved unique,
``unique`` or ``contradiction`` where two checked solutions are known.  Two claims that
cannot both be true are a **disagreement**, and so is a puzzle with a wrong answer: each
is listed and saved as a bug report.

Each answer stands for a range of solution counts (``unique`` 1, ``multiple`` 2 or
more, ``contradiction`` 0, ``solved`` 1 or more, an exact count N); what is proven is a
range too, and an answer is wrong when its range misses the proven one.

>>> rows = [dict(puzzle="p", solver="native", kind="nonolab", verdict="contradiction", exact=True, count=0),
...         dict(puzzle="p", solver="x", kind="external", verdict="unique", count=1)]
>>> disagreements, wrong = judge(rows, "check")
>>> wrong
{1: "refuted by native's complete search (contradiction)"}
>>> disagreements[0]["refuted"], disagreements[0]["proof"]
(['x'], "native's complete search (contradiction)")
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Sequence

#: The verdicts that claim something about the puzzle's solutions.
CLAIMS = ("unique", "multiple", "contradiction", "solved")
#: The solution counts each verdict stands for (lowest, highest).
RANGES = {"unique": (1, 1), "multiple": (2, math.inf), "contradiction": (0, 0), "solved": (1, math.inf)}
#: The solutions a nonolab verdict comes with, checked (for a row that does not say: an older version's child).
_CHECKED_BY_VERDICT = {"unique": 1, "multiple": 2, "solved": 1}


def _number(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _exact(row: dict) -> bool:
    return str(row.get("exact")) == "True"


def claim(row: dict, task: str) -> str:
    """What a run claims, as the reports write it: its verdict, or ``N solutions`` for a
    nonolab run's exact count (``--task count``)."""
    if task == "count" and row.get("kind") == "nonolab" and _exact(row) and _number(row.get("count")) is not None:
        return f"{_number(row['count'])} solutions"
    return row["verdict"]


def _range(row: dict, task: str) -> tuple[float, float]:
    n = _number(row.get("count"))
    if task == "count" and row.get("kind") == "nonolab" and _exact(row) and n is not None:
        return (n, n)
    return RANGES[row["verdict"]]


def checked(row: dict) -> int:
    """The distinct solutions of a run that nonolab checked against the clues (``checked``;
    a nonolab row without it, from an older version's child: those its verdict comes with)."""
    number = _number(row.get("checked"))
    if number is not None:
        return number
    return _CHECKED_BY_VERDICT.get(row.get("verdict") or "", 0) if row.get("kind") == "nonolab" else 0


def _complete(row: dict, task: str) -> bool:
    """A nonolab run's verdict from an exhausted search: ``unique``, ``contradiction``, an exact count."""
    if row.get("kind") != "nonolab" or row.get("verdict") not in CLAIMS:
        return False
    return row["verdict"] in ("unique", "contradiction") or (task == "count" and _exact(row))


def _solutions(n: int) -> str:
    return "a checked solution" if n == 1 else f"{n} checked solutions"


def judge(rows: Sequence[dict], task: str) -> tuple[list[dict], dict[int, str]]:
    """The disagreements and the wrong answers of a benchmark's ``rows``.

    Returns:
        ``(disagreements, wrong)``: per puzzle with a wrong answer or two claims that
        cannot both be true, ``{"puzzle", "answers" (solver -> its claims), "refuted"
        (the solvers with a wrong answer), "proof" (what nonolab proved, or None)}``;
        and the index in ``rows`` of every wrong answer, with why it is wrong.
    """
    by_puzzle: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_puzzle[row["puzzle"]].append(i)
    disagreements: list[dict] = []
    wrong: dict[int, str] = {}
    for puzzle, indices in by_puzzle.items():
        claims = [i for i in indices if rows[i].get("verdict") in CLAIMS]
        if not claims:
            continue
        witness = max(indices, key=lambda i: checked(rows[i]))
        seen = checked(rows[witness])
        low: float = seen
        high: float = math.inf
        proof = f"{_solutions(seen)} ({rows[witness]['solver']})" if seen else None
        searched = {i: _range(rows[i], task)[0] for i in claims if _complete(rows[i], task)}
        standing = {n for n in searched.values() if n >= seen}
        if len(standing) == 1:   # the complete searches checked solutions do not refute say one thing
            (low,) = standing
            high = low
            by = next(i for i, n in searched.items() if n == low)
            proof = f"{rows[by]['solver']}'s complete search ({claim(rows[by], task)})"
        for i in claims:
            lo, hi = _range(rows[i], task)
            if hi < seen:
                wrong[i] = f"refuted by {_solutions(seen)} ({rows[witness]['solver']})"
            elif lo > high or hi < low:
                wrong[i] = f"refuted by {proof}"
        ranges = [_range(rows[i], task) for i in claims]
        conflict = max(lo for lo, _ in ranges) > min(hi for _, hi in ranges)
        if conflict or any(i in wrong for i in claims):
            answers: dict[str, list[str]] = defaultdict(list)
            for i in claims:
                answers[rows[i]["solver"]].append(str(claim(rows[i], task)))
            disagreements.append({"puzzle": puzzle, "answers": {s: sorted(set(v)) for s, v in answers.items()},
                                  "refuted": sorted({rows[i]["solver"] for i in claims if i in wrong}),
                                  "proof": proof if any(i in wrong for i in claims) else None})
    return disagreements, wrong
