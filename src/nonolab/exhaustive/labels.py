"""Labels for a set of puzzles at full speed: verdict, witness, line-solvable, grade.

What a machine-learning set of nonograms lacks (NonoDataset's puzzles carry no
uniqueness label): for each puzzle, ``unique``/``multiple``/``contradiction`` with the
solution or two of them, whether the line solver alone solves it, and its grade on the
ladder of :mod:`nonolab.harness.classify`.  The puzzles go to the native engine's batch
entry 256 at a time (counted to 2 without probing, graded by its one-node runs); every
solution is checked by :func:`~nonolab.core.violations`.  A puzzle the entry does not
finish in :data:`SLICE` seconds, a colour puzzle or one with givens is labelled by
:func:`~nonolab.harness.uniqueness.check` and :func:`~nonolab.harness.classify.grade`.
A puzzle a library error stops (a wrong solution caught, a limit) is labelled with that
error, and the others go on; :func:`label_records` labels what
:mod:`~nonolab.exhaustive.reading` reads, puzzles that could not be read included.

>>> from nonolab.core import Puzzle
>>> [(r["verdict"], r["grade"], r["line_solvable"]) for r in label_many([Puzzle(rows=((1,),), columns=((1,),))])]
[('unique', 'line', True)]
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Iterable, Iterator

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle
from nonolab.core.violations import violations
from nonolab.errors import NonolabError, WrongAnswer
from nonolab.harness.classify import Grade, grade
from nonolab.harness.uniqueness import Verdict, check
from nonolab.solvers import get
from nonolab.solvers.native.compiled.batch import ENOUGH, EXHAUSTED, check_arrays, pack

__all__ = ["GROUP", "SLICE", "failed", "label_many", "label_records"]

GROUP = 256
#: Seconds the batch entry gives one puzzle before the ordinary path takes it.
SLICE = 0.05
_LEVELS = (Grade.LINE, Grade.CONTRADICTION_PROBE, Grade.FULL_PROBE)


def label_many(puzzles: Iterable[Puzzle | NonolabError], time_limit: float | None = None) -> Iterator[dict[str, Any]]:
    """One label a puzzle, in order: ``verdict``, ``grade``, ``line_solvable``,
    ``solutions`` (the solution of a unique puzzle, two of a multiple one, as rows of
    ``#`` and ``.``) and ``error`` (None).  ``time_limit``: seconds a puzzle (a puzzle it
    stops is labelled ``timeout``, grade ``None``).  A contradiction has no grade (nothing
    to solve).  A puzzle a library error stops, or an element that is an error (a puzzle
    that could not be read), is labelled with verdict ``None`` and the one-line message
    in ``error``.  At most :data:`GROUP` puzzles are taken ahead of the labels given."""
    stream = iter(puzzles)
    while True:
        group = list(islice(stream, GROUP))
        if not group:
            return
        plain = [p for p in group if isinstance(p, Puzzle) and _plain(p)]
        slice_ = SLICE if time_limit is None else min(SLICE, time_limit)
        answers = (check_arrays(*pack(plain), probing="none", levels=True, puzzle_seconds=slice_, budget=SLICE)
                   if plain else None)
        at = 0
        for puzzle in group:
            try:
                if isinstance(puzzle, NonolabError):
                    raise puzzle
                if not _plain(puzzle):
                    label = _slowly(puzzle, time_limit)
                else:
                    at += 1
                    label = _label(puzzle, answers, at - 1, time_limit)
            except NonolabError as err:
                label = failed(err)
            yield label


def failed(err: NonolabError) -> dict[str, Any]:
    """The label of a puzzle a library error stopped (or that could not be read).

    >>> failed(WrongAnswer("a wrong solution"))["error"]
    'a wrong solution'
    """
    return {"verdict": None, "grade": None, "line_solvable": None, "solutions": [], "error": str(err)}


def label_records(items: Iterable[tuple[str, int, Puzzle | NonolabError]],
                  time_limit: float | None = None) -> Iterator[dict[str, Any]]:
    """The record of each ``(file, index, puzzle or error)`` (as
    :func:`~nonolab.exhaustive.reading.read_puzzles` gives them), in order: ``file``,
    ``index``, ``width``, ``height`` (None for an error), then the label.  A stream of any
    length: at most one group of items is held.

    >>> one = Puzzle(rows=((1,),), columns=((1,),))
    >>> [(r["index"], r["verdict"]) for r in label_records([("a.json", 1, one)])]
    [(1, 'unique')]
    """
    from collections import deque

    held: deque[tuple[str, int, Puzzle | NonolabError]] = deque()

    def taken() -> Iterator[Puzzle | NonolabError]:
        for item in items:
            held.append(item)
            yield item[2]

    for label in label_many(taken(), time_limit):
        file, index, puzzle = held.popleft()
        size = (None, None) if isinstance(puzzle, NonolabError) else (puzzle.width, puzzle.height)
        yield {"file": file, "index": index, "width": size[0], "height": size[1], **label}


def _plain(puzzle: Puzzle | NonolabError) -> bool:
    """Whether the batch entry takes it: a black-and-white puzzle without givens."""
    return isinstance(puzzle, Puzzle) and not puzzle.is_colour and not puzzle.givens


def _label(puzzle: Puzzle, answers: Any, i: int, time_limit: float | None) -> dict[str, Any]:
    state, found = int(answers.state[i]), int(answers.found[i])
    if state not in (EXHAUSTED, ENOUGH) or (found == 0 or answers.level[i] == 3):
        return _slowly(puzzle, time_limit)  # unfinished, a contradiction, or past full probing: rare
    solutions = [Solution.from_states(row.tobytes(), puzzle.width) for row in answers.solutions(i)]
    for solution in solutions:
        if violations(puzzle, solution):
            raise WrongAnswer(f"the native engine's batch entry returned a wrong solution for {puzzle.name or 'a puzzle'}")
    if found >= 2:
        return _record(Verdict.MULTIPLE, Grade.SEARCH, solutions)
    return _record(Verdict.UNIQUE, _LEVELS[int(answers.level[i])], solutions)


def _slowly(puzzle: Puzzle, time_limit: float | None) -> dict[str, Any]:
    checked = check(puzzle, get("native"), time_limit)
    graded = grade(puzzle, "native", time_limit) if checked.verdict is Verdict.UNIQUE else None
    level = Grade.SEARCH if checked.verdict is Verdict.MULTIPLE else (graded.grade if graded else None)
    return _record(checked.verdict, level, list(checked.witnesses))


def _record(verdict: Verdict, level: Grade | None, solutions: list[Solution]) -> dict[str, Any]:
    return {"verdict": verdict.value, "grade": level.value if level else None,
            "line_solvable": verdict is Verdict.UNIQUE and level is Grade.LINE,
            "solutions": [s.to_text().splitlines() for s in solutions], "error": None}
