"""``auto`` on grids up to ``solo_side`` cells a side: the first engine alone, then a rival.

With its phase hints (belief propagation), lcg alone answers the tournament's 25x25
grids, the survey's hard eight and Knotty faster than any part of the race did, and
on puzzles of a few milliseconds racing two engines on two cores cost more than it
won: native's thread, lcg's thread and waking the caller, and twice the CPU while both
run (benchmarks/log/2026-11-26-fast.md).  So on such grids the first engine (``cdcl``,
lcg by default) runs alone in the caller's thread: no thread is started and native
has no phase.  If it has not answered after ``solo_budget`` CPU seconds, the rival
(Kissat by default) joins on the other core, given the cells the engine's root level
has proved (``rival_fix_cells``), and the first answer wins; the other is told to stop
and is not awaited.  When one solution is asked for, the rival is the first engine
again with another seed (``find_seed``), after ``solo_find_budget``: the tail of
first-solution searches is mostly the luck of the search's path, and a second draw on
the other core cuts it (Kissat found those solutions slower than lcg).  In a count
(``count_relay``, on by default) that draw is the rival after ``solo_budget``, or after
``solo_find_budget`` while the engine has no solution (``relay_early``, on; with one in
by then, Kissat joins after ``solo_budget``), and gives its core to Kissat once the engine
has a solution (:mod:`nonolab.solvers.auto.relay`).  A rival that answers stops the engine
inside its slice (the race's ``won`` is part of the engine's cancel).

Counting stays exact as in the duel: the engine searched the whole puzzle, the rival
the space its root cells leave (every solution the engine had not found yet lies
there), so the union of their solutions is exact when the winner's search was.
"""

from __future__ import annotations

from typing import Any, Mapping

from nonolab.core.grid import Grid
from nonolab.core.puzzle import Puzzle
from nonolab.solvers.base import Given, Limits, SolveResult, Budget, finish, left
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import JOIN, STOPPED, Either, Race
from nonolab.solvers.auto.relay import relay

__all__ = ["solo", "solo_fits"]


def solo_fits(parts: Parts, puzzle: Puzzle, engine_class: type) -> bool:
    """Whether ``puzzle`` goes to the first engine (of class ``engine_class``) alone: a
    black-and-white grid within ``solo_side``, no step log asked for (native writes it),
    and an engine that takes the alarm this path starts the rival with."""
    return (0 < max(puzzle.height, puzzle.width) <= parts.schedule.solo_side and not parts.record_steps
            and "alarm" in getattr(engine_class, "PROGRAMMATIC", ()))


def solo(parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given,
         engine: Any) -> SolveResult:
    """``engine`` (the first engine, built) alone in the caller's thread; past
    ``solo_budget`` CPU seconds (``solo_find_budget`` when one solution is asked for)
    the rival joins in a thread of its own."""
    # One solution asked for: finding it is lcg's strength, and its rival is another draw of
    # its luck (find_seed); a count's proof that there is no other is Kissat's.
    find = limits.max_solutions == 1
    rival = parts.rival if parts.rival in parts.engines[1:] else None
    # A count with count_relay: the seeded draw until a first solution is in, then the
    # rival (auto.relay), told of the engine's first solution through its ``found``.
    relayed = (not find and rival is not None and parts.find_rival is not None and parts.schedule.count_relay
               and "found" in getattr(type(engine), "PROGRAMMATIC", ()))
    if find and parts.find_rival:
        rival = parts.find_rival
    handed: dict[str, Any] = {"label": rival}
    found: list = []
    if relayed:
        engine.found = found
    # relay_early: the seeded draw joins a count when it joins a find (solo_find_budget) if lcg
    # has no solution by then; with one in, the rival joins at solo_budget, as without it.
    schedule = parts.schedule
    early = relayed and schedule.relay_early and schedule.solo_find_budget < schedule.solo_budget
    late: list = []   # (the early join found a solution in: the alarm set again for solo_budget)
    # The race is made when the rival joins (most puzzles end before: they never pay for
    # its events); until then the engine's cancel is its ``won`` to come.
    won = _Won(lambda: Race(lambda got: got[0].status not in STOPPED, limits.cancel))

    def join(root: Grid) -> Any:  # between the engine's slices, in the caller's thread; the next alarm
        if rival is None or watch.expired() or watch.cancelled():
            return None
        if early and found and not late:
            late.append(True)
            return schedule.solo_budget, join
        handed["root"] = root
        if relayed and not found:
            handed["label"] = f"{parts.find_rival}>{rival}"
            won.race().start(1, handed["label"], lambda cancel: relay(parts, puzzle, root, given,
                                                                      left(limits, watch, cancel), found),
                             schedule.rival_nice)
            return None
        won.race().start(1, rival, lambda cancel: parts.hand_over(rival, puzzle, root, given,
                                                                  left(limits, watch, cancel), parts.rival_fix_cells),
                         schedule.rival_nice)
        return None

    kept: list = []  # the engine's memory, freed after the answer is in
    budget = schedule.solo_find_budget if find or early else schedule.solo_budget
    engine.alarm = (budget, join)
    if "hold" in getattr(type(engine), "PROGRAMMATIC", ()):
        engine.hold = kept
    cancel: Any = won if limits.cancel is None else Either(won, limits.cancel)
    try:
        first = engine.solve(puzzle, left(limits, watch, cancel), given)
    except BaseException:   # Ctrl-C between the engine's slices, or its error: the rival is told to stop too
        if won.made is not None:
            won.made.stop()
        raise
    name, label = parts.first, handed["label"]
    race = won.made
    if first.status not in STOPPED or race is None:
        if race is not None:
            race.stop()
        phase = f"{name}|{label} race" if race is not None else f"{name} alone"
        return _relabel(parts, watch, first, phase, name if first.status not in STOPPED else None)
    if watch.expired() or watch.cancelled():  # the caller's limit: nobody answered
        race.stop()
        return _relabel(parts, watch, first, f"{name}|{label} race", None)
    if not race.won.is_set():   # the engine's own work limit stopped it: the rival shares that stop
        race.won.wait(JOIN)
        race.stop()
    winner, _ = race.wait(grace=JOIN)
    got = race.results.get(1)  # the rival's slot (the engine ran in this thread)
    if winner is None or got is None or isinstance(got, BaseException):
        if isinstance(got, BaseException) and not first.solutions:
            raise got
        return _relabel(parts, watch, first, f"{name}|{label} race", None)
    second, cells = got
    merged = list(dict.fromkeys(first.solutions + second.solutions))
    cap = limits.max_solutions
    complete = second.complete and (cap is None or len(merged) <= cap)
    counters = _counters(f"{name}|{label} race", label, first, second)
    counters.update(cells)
    return finish(parts.name, puzzle, limits, watch, merged[:cap] if cap is not None else merged, complete,
                  counters, (), second.remainder or handed.get("root"), checked=True)


class _Won:
    """A race's ``won`` before the race is made (:meth:`race`, once, in the caller's
    thread, as are the engine's subscriptions): unset until then; what subscribed to it
    (the engine's interrupt) is subscribed to the race's ``won`` when it is made.

    >>> from nonolab.solvers.auto.racing import Race
    >>> won, calls = _Won(lambda: Race(lambda got: True)), []
    >>> unsubscribe = won.on_set(lambda: calls.append("stopped"))
    >>> won.is_set(), won.made is None
    (False, True)
    >>> won.race().won.set(); won.is_set(), calls
    (True, ['stopped'])
    """

    def __init__(self, make: Any):
        self._make = make
        self.made: Race | None = None
        self._calls: list[list[Any]] = []   # [call, its unsubscribe from the race's won]

    def race(self) -> Race:
        if self.made is None:
            self.made = self._make()
            for entry in self._calls:
                entry[1] = self.made.won.on_set(entry[0])
        return self.made

    def is_set(self) -> bool:
        return self.made is not None and self.made.won.is_set()

    def set(self) -> None:
        self.race().won.set()

    def on_set(self, call: Any) -> Any:
        """Call ``call()`` when the race is won (subscribed now, or when the race is made)."""
        entry = [call, self.made.won.on_set(call) if self.made is not None else None]
        self._calls.append(entry)

        def unsubscribe() -> None:
            if entry in self._calls:
                self._calls.remove(entry)
            if entry[1] is not None:
                entry[1]()
        return unsubscribe


def _counters(phase: str, winner: str | None, first: SolveResult, second: SolveResult | None) -> dict[str, Any]:
    """The first engine's counters as ``cdcl_*``, the rival's as ``rival_*``; ``conflicts``
    those of the engine that answered."""
    counters: dict[str, Any] = {"phase": phase, "winner": winner, "cdcl_time": round(first.stats.wall_time, 6)}
    counters.update(_prefixed("cdcl_", first.stats.counters))
    answered = first if second is None else second
    if "conflicts" in answered.stats.counters:
        counters["conflicts"] = answered.stats.counters["conflicts"]
    if second is not None:
        counters.update(_prefixed("rival_", second.stats.counters))
        counters.update(rival_time=round(second.stats.wall_time, 6), cdcl_solutions=len(first.solutions),
                        rival_solutions=len(second.solutions))
    return counters


# Counter names with a prefix, by prefix (made once each: an engine names the same
# few dozen counters on every solve).
_PREFIXED: dict[str, dict[str, str]] = {}


def _prefixed(prefix: str, counters: Mapping[str, Any]) -> dict[str, Any]:
    """``counters`` with ``prefix`` before each name.

    >>> _prefixed("cdcl_", {"conflicts": 3, "restarts": 0})
    {'cdcl_conflicts': 3, 'cdcl_restarts': 0}
    """
    names = _PREFIXED.setdefault(prefix, {})
    try:
        return dict(zip(map(names.__getitem__, counters), counters.values()))
    except KeyError:   # a name not seen yet
        if len(names) > 4096:   # (an engine's counters are a few dozen: never a growing set)
            names.clear()
        names.update((name, f"{prefix}{name}") for name in counters)
        return dict(zip(map(names.__getitem__, counters), counters.values()))


def _relabel(parts: Parts, watch: Budget, result: SolveResult, phase: str,
             winner: str | None) -> SolveResult:
    """The first engine's own result as ``auto``'s."""
    return result.relabelled(parts.name, watch.elapsed(), _counters(phase, winner, result, None))
