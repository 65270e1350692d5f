"""The generator's first look at drawn candidates: their counts to 2, many at a time.

When the judge would count every candidate to 2 anyway (``unique``, or no ``max_grade``
below ``search``) and its backend declares ``Capability.BATCH``, the loop of
:func:`~nonolab.generate.make.make_puzzles` draws candidates a group ahead and counts
the clues of the drawn pictures that pass the filters through
:func:`~nonolab.harness.uniqueness.check_many` (native: many puzzles a call into its
compiled engine, every solution checked against the clues).  The candidates are then
judged one by one, in order, as before, each with its count
(:func:`~nonolab.generate.criteria.assess` takes it: two solutions are ``multiple``
without a grading, one spares the second count).  A count that did not end (a timeout,
an error) is no answer: the judge works as it would have.  So the same candidates get
the same outcomes and the same seed gives the same puzzles; only the time differs.

Groups start at :data:`FIRST_GROUP` candidates and double up to :data:`LAST_GROUP`, so a
run that needs few candidates draws few more than it uses.  The counts are cut by the
run's own deadline (the cancel passed down is the run's budget), so they cannot keep
the run past its time limit.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np

from nonolab.core.palette import Palette
from nonolab.errors import NonolabError
from nonolab.generate.grids import puzzle_from_array
from nonolab.generate.repair import filled_fraction, uniform_lines
from nonolab.harness.uniqueness import CheckResult, Verdict, check_many
from nonolab.solvers import build
from nonolab.solvers.base import Budget, Capability, capabilities

__all__ = ["FIRST_GROUP", "LAST_GROUP", "Screen", "applies"]

FIRST_GROUP = 4
LAST_GROUP = 64


def applies(recipe: Any) -> bool:
    """Whether the candidates of ``recipe`` are counted ahead: drawn pictures (not an
    image), a judge that counts every one of them to 2, and a backend that batches."""
    if recipe.image is not None or not recipe.criteria.checks or recipe.max_grade not in (None, "search"):
        return False
    return Capability.BATCH in capabilities(build(recipe.backend))


def passes_filters(picture: np.ndarray, recipe: Any, palette: Palette | None) -> bool:
    """Whether the judge would count ``picture`` as drawn (the filters before any count)."""
    low, high = recipe.density_range
    if not low <= filled_fraction(picture) <= high:
        return False
    colours = len(palette) - 1 if palette is not None else 1
    if colours > 1 and np.count_nonzero(np.bincount(picture.ravel(), minlength=colours + 1)[1:]) < colours:
        return False
    return recipe.uniform_lines_allowed or not uniform_lines(picture)


class _RunDeadline:
    """A cancel (``is_set()``) that is set once the run's budget is spent."""

    def __init__(self, budget: Budget):
        self.budget = budget

    def is_set(self) -> bool:
        return self.budget.expired()


class Screen:
    """The drawn candidates of a run, each with its count to 2 (made when first asked for).

    Args:
        recipe: the run's :class:`~nonolab.generate.make.Recipe`.
        palette: the palette of a colour picture (None in black and white).
        draw: candidate index -> its picture, as the loop draws it.
        last: the number of candidates the run may draw.
        budget: the run's budget (its deadline and cancel).
    """

    def __init__(self, recipe: Any, palette: Palette | None, draw: Callable[[int], np.ndarray], last: int,
                 budget: Budget):
        self._recipe, self._palette, self._draw, self._last = recipe, palette, draw, last
        self._solver = build(recipe.backend)
        self._budget = budget
        self._size = FIRST_GROUP
        self._ahead: dict[int, tuple[np.ndarray, Callable[[], CheckResult | None]]] = {}
        #: How many drawn candidates were given to check_many (for the tests and the benchmarks).
        self.screened = 0

    def take(self, index: int) -> tuple[np.ndarray, Callable[[], CheckResult | None]]:
        """Candidate ``index``'s picture, and a function giving its count to 2 (None: none)."""
        if index not in self._ahead:
            self._ahead.clear()
            self._fill(index)
        return self._ahead.pop(index)

    def _fill(self, first: int) -> None:
        size = max(1, min(self._size, self._last - first))
        self._size = min(2 * self._size, LAST_GROUP)
        pictures = [(index, self._draw(index)) for index in range(first, first + size)]
        screened = [(index, picture) for index, picture in pictures
                    if passes_filters(picture, self._recipe, self._palette)]
        limit = self._budget.time_limit()
        if self._recipe.candidate_time_limit is not None:
            limit = self._recipe.candidate_time_limit if limit is None else min(limit, self._recipe.candidate_time_limit)
        answers = check_many((puzzle_from_array(picture, palette=self._palette) for _, picture in screened),
                             self._solver, limit, cancel=_RunDeadline(self._budget), errors="yield")
        got: list[Any] = []

        def answer_at(at: int) -> CheckResult | None:
            while len(got) <= at:
                got.append(next(answers))
            found = got[at]
            if isinstance(found, NonolabError) or found.verdict not in (Verdict.UNIQUE, Verdict.MULTIPLE):
                return None   # no answer: the judge counts as it would have
            return found

        at_of = {index: at for at, (index, _) in enumerate(screened)}
        self.screened += len(screened)
        for index, picture in pictures:
            at = at_of.get(index)
            self._ahead[index] = (picture, partial(answer_at, at) if at is not None else _no_count)


def _no_count() -> CheckResult | None:
    """A candidate the filters reject is not counted ahead."""
    return None
