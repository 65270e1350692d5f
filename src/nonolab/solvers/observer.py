"""What a caller follows of native's search: one observer, told between its slices.

Native's search runs in its compiled core in slices (the two search styles take turns);
between two slices it tells its observer what happened, and the observer may act then
(``auto`` starts a learning engine, or hands the rest of the search over).  What the
observer watches is declared on it, because watching costs: until the root's
propagation is reported the root runs in short slices, and while a root report or a
hand-off is pending the root runs alone, one node a slice.  An observer that watches
nothing changes nothing (it is the default).  The protocol lives beside the contract,
not in native, so that a strategy (``auto``) implements it without importing a backend.

>>> from nonolab.core import Puzzle
>>> from nonolab.solvers import get
>>> class Rooted(SearchObserver):
...     def __init__(self):
...         super().__init__(follows_root=True)
...         self.seen = []
...     def rooted(self, remainder):
...         self.seen.append(remainder.cells.count(3))  # open cells when the search begins
>>> watcher = Rooted()
>>> get("native", observer=watcher).solve(Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))).count
2
>>> watcher.seen
[4]
"""

from __future__ import annotations

from typing import Callable

from nonolab.core.grid import Grid

__all__ = ["HandOff", "QUIET", "SearchObserver"]


class SearchObserver:
    """Told of native's search between its slices; subclass it and override what you watch.

    Args:
        follows_propagation: call :meth:`stuck` when the root's first line propagation
            is over and left cells open (the puzzle is not line-solvable).  Until then
            the root runs in short slices (each as long as the solve so far, from
            0.1 ms), so that the call follows the propagation's end closely.
        follows_root: call :meth:`rooted` when the root's propagation and probing are
            over and the search goes on.
        alarm_after: call :meth:`alarm` once, when this many seconds have passed since
            the search began (the slice then running is cut to end then), if the search
            is still going; ``None``: never.
        hand_off_after: call :meth:`hand_off` once, if the search is still going, when
            the root's propagation and probing are over and this many seconds have
            passed; ``None``: never.  Waiting for the root makes the hand-off
            independent of the machine's load: the root's probing proves every cell the
            remainder gets (the search below it added none on the survey's hard eight),
            and on a loaded machine it may end later (Gettys: 2 s).
        hand_off_by: seconds by which :meth:`hand_off` is called whatever the root's
            state (``None``: no bound; a root that never ends then never hands off).

    Each call gets the search's remainder then (see ``SolveResult.remainder``) and comes
    in native's thread, between slices; the search goes on after it (a caller that wants
    it to stop sets the search's cancel).
    """

    def __init__(self, *, follows_propagation: bool = False, follows_root: bool = False,
                 alarm_after: float | None = None, hand_off_after: float | None = None,
                 hand_off_by: float | None = None):
        self.follows_propagation = follows_propagation
        self.follows_root = follows_root
        self.alarm_after = alarm_after
        self.hand_off_after = hand_off_after
        self.hand_off_by = hand_off_by

    def stuck(self, remainder: Grid) -> None:
        """The root's first line propagation is over and left cells open."""

    def rooted(self, remainder: Grid) -> None:
        """The root's propagation and probing are over; the search begins."""

    def alarm(self) -> None:
        """``alarm_after`` seconds have passed."""

    def hand_off(self, remainder: Grid) -> None:
        """The hand-off is due (``hand_off_after``, ``hand_off_by``)."""

    def hand_off_due(self, elapsed: float, root_done: Callable[[], bool]) -> bool:
        """Whether the hand-off is due ``elapsed`` seconds into the solve (``root_done``
        asks the search whether its root is over: asked only when it matters)."""
        if self.hand_off_after is None:
            return False
        if self.hand_off_by is not None and elapsed >= self.hand_off_by:
            return True
        return elapsed >= self.hand_off_after and root_done()


class HandOff(SearchObserver):
    """An observer that only hands over: ``call(remainder)`` once the hand-off is due."""

    def __init__(self, call: Callable[[Grid], None], hand_off_after: float, hand_off_by: float | None = None):
        super().__init__(hand_off_after=hand_off_after, hand_off_by=hand_off_by)
        self.call = call

    def hand_off(self, remainder: Grid) -> None:
        self.call(remainder)


#: The observer of a search nobody follows.
QUIET = SearchObserver()
