"""The census of one chunk of pictures: two uniqueness counts that must agree, and grades.

1. Grouping: every picture's clues as one key (numpy), sorted and counted; a clue set
   is unique when exactly one picture has it.  No solver is involved.
2. The engine: each distinct clue set counted to 2 by the native engine's compiled
   core (the batch entry), without probing, so a count whose root alone decided every
   cell is the complete line solver's own answer: the clue set is line-solvable.

They must agree on every clue set, and the engine's one solution of a unique clue set
must be the picture that has it; anything else raises :class:`~nonolab.errors.WrongAnswer`.
A unique clue set is then graded on the ladder of :mod:`nonolab.harness.classify`:
the engine's one-node runs at each probing level give ``line``, ``contradiction-probe``
and ``full-probe``; the few that full probing leaves open are graded by
:func:`~nonolab.harness.classify.grade` itself (``depth-2`` or ``search``), when asked.

>>> tally = census_chunk(2, 2, ())
>>> tally["pictures"], tally["unique"], tally["line"], tally["grades"]["line"]
(16, 14, 14, 14)
"""

from __future__ import annotations

from typing import Any

from nonolab.exhaustive.pictures import Plan
from nonolab.errors import WrongAnswer
from nonolab.harness.classify import Grade, grade
from nonolab.solvers.native.compiled.batch import EXHAUSTED, UNFINISHED, check_arrays

__all__ = ["GRADES", "BEYOND", "census_chunk"]

#: The grade names a census counts, weakest first, then the bucket of the clue sets
#: full probing leaves open when they are not graded further.
GRADES = tuple(g.value for g in Grade)
BEYOND = "beyond-full-probe"
_LEVELS = (Grade.LINE.value, Grade.CONTRADICTION_PROBE.value, Grade.FULL_PROBE.value)

#: Seconds the engine may spend on one clue set: far beyond what a census-sized grid
#: needs (microseconds), so reaching it means something is wrong.
PUZZLE_SECONDS = 60.0


def census_chunk(width: int, height: int, chunk: tuple[int, ...], deep: bool = True) -> dict[str, Any]:
    """The tallies of one chunk of the W x H census (see :class:`~nonolab.exhaustive.pictures.Plan`).

    ``deep``: grade the clue sets full probing leaves open with
    :func:`~nonolab.harness.classify.grade` (else they are counted as ``beyond-full-probe``).

    Raises:
        WrongAnswer: the two counts disagree, or the engine's solution is not the picture.
    """
    import numpy as np
    chunk = tuple(chunk)
    plan = Plan(width, height)
    pictures = plan.pictures(chunk)
    numbers = plan.line_numbers(pictures)
    keys = plan.keys(numbers)
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    sets = numbers[first]
    answers = check_arrays(*plan.packed(sets), max_solutions=2, probing="none", levels=True,
                           puzzle_seconds=PUZZLE_SECONDS)
    where = f"census {width}x{height}, chunk {list(chunk)}"
    if (answers.state == UNFINISHED).any():
        raise WrongAnswer(f"{where}: the engine did not finish a clue set within {PUZZLE_SECONDS:g} s")
    grouped_unique = counts == 1
    engine_unique = (answers.found == 1) & (answers.state == EXHAUSTED)
    engine_multiple = answers.found >= 2
    if not (np.array_equal(grouped_unique, engine_unique) and np.array_equal(~grouped_unique, engine_multiple)):
        bad = int(np.flatnonzero((grouped_unique != engine_unique) | (grouped_unique == engine_multiple))[0])
        raise WrongAnswer(f"{where}: {int(counts[bad])} picture(s) share a clue set on which the engine found "
                          f"{int(answers.found[bad])} solution(s) (exhausted: {answers.state[bad] == EXHAUSTED})")
    cells = width * height
    solutions = answers.grids.reshape(len(sets), 2, cells)[:, 0, :]
    bits = (pictures[first][:, None] >> np.arange(cells, dtype=np.uint64)[None, :]) & np.uint64(1)
    agree = (solutions == bits.astype(np.uint8) + 1).all(axis=1)
    if not agree[grouped_unique].all():
        raise WrongAnswer(f"{where}: the engine's one solution of a unique clue set is not its picture")
    levels = answers.level[grouped_unique]
    grades = {name: int((levels == level).sum()) for level, name in enumerate(_LEVELS)}
    open_sets = sets[grouped_unique][levels == 3]
    if deep:
        for name in (Grade.DEPTH2.value, Grade.SEARCH.value):
            grades[name] = 0
        for numbers_of in open_sets:
            grades[_grade_deep(plan, numbers_of).value] += 1
    else:
        grades[BEYOND] = len(open_sets)
    unique = int(grouped_unique.sum())
    return {"chunk": list(chunk), "pictures": len(pictures), "clue_sets": len(sets), "unique": unique,
            "line": grades[Grade.LINE.value], "grades": grades, "nodes": int(answers.nodes.sum())}


def _grade_deep(plan: Plan, numbers: Any) -> Grade:
    """The grade of a unique clue set that full probing leaves open (depth-2 or search)."""
    from nonolab.core.puzzle import Puzzle
    h = plan.height
    puzzle = Puzzle(rows=tuple(plan.row_clues[i] for i in numbers[:h]),
                    columns=tuple(plan.column_clues[i] for i in numbers[h:]))
    found = grade(puzzle, backend="native")
    if found.grade not in (Grade.DEPTH2, Grade.SEARCH):
        raise WrongAnswer(f"census: the engine's full probing left {puzzle.rows} / {puzzle.columns} open, "
                          f"but grade says {found.grade}")
    return found.grade
