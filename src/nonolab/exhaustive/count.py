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

from typing import Any, Callable

from nonolab.exhaustive.pictures import Plan
from nonolab.exhaustive.symmetry import Symmetries
from nonolab.core.words import counted
from nonolab.errors import LimitReached, WrongAnswer
from nonolab.harness.classify import Grade, grade
from nonolab.solvers.native.compiled.batch import EXHAUSTED, UNFINISHED, check_arrays

__all__ = ["GRADES", "BEYOND", "census_chunk", "skipped_tally"]

#: The grade names a census counts, weakest first, then the bucket of the clue sets
#: full probing leaves open when they are not graded further.
GRADES = tuple(g.value for g in Grade)
BEYOND = "beyond-full-probe"
_LEVELS = (Grade.LINE.value, Grade.CONTRADICTION_PROBE.value, Grade.FULL_PROBE.value)

#: Seconds the engine may spend on one clue set: far beyond what a census-sized grid
#: needs (microseconds), so reaching it means something is wrong.
PUZZLE_SECONDS = 60.0


def census_chunk(width: int, height: int, chunk: tuple[int, ...], deep: bool = True,
                 symmetry: bool = False, stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """The tallies of one chunk of the W x H census (see :class:`~nonolab.exhaustive.pictures.Plan`).

    ``deep``: grade the clue sets full probing leaves open with
    :func:`~nonolab.harness.classify.grade` (else they are counted as ``beyond-full-probe``).
    ``symmetry``: check one picture of each orbit of the grid's symmetries, weighted by
    the orbit's size (:mod:`~nonolab.exhaustive.symmetry`); every count is of pictures
    (and of clue sets) all the same, ``orbits`` says how many pictures were checked.
    ``stop``: asked between the chunk's steps and every tenth of a second of the engine's
    counts; once it returns true the chunk ends, its tallies unwanted.

    Raises:
        WrongAnswer: the two counts disagree, or the engine's solution is not the picture.
        LimitReached: ``stop`` said so.
    """
    import numpy as np

    def check_stop() -> None:
        if stop is not None and stop():
            raise LimitReached(f"census {width}x{height}, chunk {list(chunk)}: stopped")
    chunk = tuple(chunk)
    plan = Plan(width, height)
    group = Symmetries.of(plan) if symmetry else None
    if group is not None and group.prefix_excluded(chunk):
        return skipped_tally(chunk, deep)
    pictures = plan.pictures(chunk)
    check_stop()
    if group is None:
        numbers = plan.line_numbers(pictures)
        weight = np.ones(len(pictures), dtype=np.int64)
    else:
        pictures, numbers, weight = _orbit_pictures(plan, group, pictures)
    check_stop()
    keys = plan.keys(numbers)
    check_stop()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    check_stop()
    sets = numbers[first]
    # members: the pictures whose clues are in the clue set's orbit (each clue set of it has
    # members / clue_sets of them); without symmetry, the pictures with the clue set.
    members = np.bincount(inverse.ravel(), weights=weight, minlength=len(sets)).astype(np.int64)
    clue_sets = group.clue_orbit(sets) if group is not None else np.ones(len(sets), dtype=np.int64)
    check_stop()
    answers = check_arrays(*plan.packed(sets), max_solutions=2, probing="none", levels=True,
                           puzzle_seconds=PUZZLE_SECONDS, stop=stop)
    where = f"census {width}x{height}, chunk {list(chunk)}"
    if (answers.state == UNFINISHED).any():
        raise WrongAnswer(f"{where}: the engine did not finish a clue set within {PUZZLE_SECONDS:g} s")
    grouped_unique = members == clue_sets
    engine_unique = (answers.found == 1) & (answers.state == EXHAUSTED)
    engine_multiple = answers.found >= 2
    if not (np.array_equal(grouped_unique, engine_unique) and np.array_equal(~grouped_unique, engine_multiple)):
        bad = int(np.flatnonzero((grouped_unique != engine_unique) | (grouped_unique == engine_multiple))[0])
        raise WrongAnswer(f"{where}: {counted(int(members[bad] // clue_sets[bad]), 'picture')} share a clue set "
                          f"on which the engine found {counted(int(answers.found[bad]), 'solution')} "
                          f"(exhausted: {answers.state[bad] == EXHAUSTED})")
    check_stop()
    cells = width * height
    solutions = answers.grids.reshape(len(sets), 2, cells)[:, 0, :]
    bits = (pictures[first][:, None] >> np.arange(cells, dtype=np.uint64)[None, :]) & np.uint64(1)
    agree = (solutions == bits.astype(np.uint8) + 1).all(axis=1)
    if not agree[grouped_unique].all():
        raise WrongAnswer(f"{where}: the engine's one solution of a unique clue set is not its picture")
    levels = answers.level[grouped_unique]
    unique_members = members[grouped_unique]
    grades = {name: int(unique_members[levels == level].sum()) for level, name in enumerate(_LEVELS)}
    open_sets = levels == 3
    if deep:
        for name in (Grade.DEPTH2.value, Grade.SEARCH.value):
            grades[name] = 0
        for numbers_of, count in zip(sets[grouped_unique][open_sets], unique_members[open_sets]):
            check_stop()
            grades[_grade_deep(plan, numbers_of).value] += int(count)
    else:
        grades[BEYOND] = int(unique_members[open_sets].sum())
    return {"chunk": list(chunk), "pictures": int(weight.sum()), "orbits": len(pictures),
            "clue_sets": int(clue_sets.sum()), "unique": int(unique_members.sum()),
            "line": grades[Grade.LINE.value], "grades": grades, "nodes": int(answers.nodes.sum())}


def skipped_tally(chunk: tuple[int, ...], deep: bool = True) -> dict[str, Any]:
    """The tallies of a chunk that holds no picture to check (with the symmetry reduction,
    its pictures are counted through their orbits' kept pictures, in other chunks)."""
    names = GRADES if deep else GRADES[:3] + (BEYOND,)
    return {"chunk": list(chunk), "pictures": 0, "orbits": 0, "clue_sets": 0, "unique": 0, "line": 0,
            "grades": {name: 0 for name in names}, "nodes": 0}


def _orbit_pictures(plan: Plan, group: Symmetries, pictures: Any) -> tuple[Any, Any, Any]:
    """``(pictures, numbers, weight)``: the pictures that are their orbit's least by (clue
    key, picture), their clue numbers and their orbits' sizes.  The symmetries that keep
    rows as rows (the flips) are applied first, on the rows' clues alone, so most pictures
    are dropped before their columns are read."""
    import numpy as np
    h = plan.height
    rows = plan.row_numbers(pictures)
    row_key = group.key(rows)
    keep = np.ones(len(pictures), dtype=bool)
    for g in group.row_stage():
        keep &= row_key <= group.image_key(g, rows, lines=h)
    pictures = pictures[keep]
    numbers = np.empty((len(pictures), h + plan.width), dtype=np.uint64, order="F")
    numbers[:, :h] = rows[keep]
    numbers[:, h:] = plan.column_numbers(pictures)
    kept, weight = group.orbits(pictures, numbers)
    return pictures[kept], numbers[kept], weight[kept]


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
