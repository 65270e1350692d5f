"""Colour puzzles in the ``auto`` portfolio: the first engine alone, then a rival beside it.

lcg answers the generated colour sets 5-70x sooner than CP-SAT (milliseconds up to
100x100), but on hard colour grids (independent cells, 30x30, 3-4 colours) neither
engine wins reliably: lcg timed out at 30 s on one that CP-SAT took in 24 s
(benchmarks/RESULTS.md).  So the first engine that declares colour gets the puzzle
alone for ``colour_rival_after`` seconds (the easy ones end there, without paying for a
second model), then the next engine that declares colour races it on the other core;
the first answer wins and the other is told to stop, not awaited.  A step log comes
from native, the engine that records colour steps.  Engines are chosen by declared
capability, never by name.
"""

from __future__ import annotations

import time
from typing import Any

from nonolab.core.puzzle import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.solvers import capabilities_of, build, parse_spec
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, capabilities, left
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.auto.racing import STOPPED, Race

__all__ = ["solve_colour", "colour_engines"]

# How long the answer waits for a part told to stop once another has ended without one.
_GRACE = 0.1
# How often the wait for the first engine looks at its state.
_POLL = 0.01


def colour_engines(parts: Parts, fallbacks: tuple[str, ...]) -> list[str]:
    """The engine specs that take a colour puzzle, in auto's order: its first engine, its
    rival, then ``fallbacks``; at most two (the cores)."""
    order = list(parts.engines) + list(fallbacks)
    chosen: list[str] = []
    for spec in order:
        # The backend's declaration first (no build when it has no colour), then the
        # engine the spec builds: an option may leave colour out (cnf:solver=kissat404).
        name = parse_spec(spec)[0]
        if spec not in chosen and Capability.COLOUR in capabilities_of(name) and _takes_colour(spec):
            chosen.append(spec)
    return chosen[:2]


def _takes_colour(spec: str) -> bool:
    """Whether the engine ``spec`` builds takes colour (not: it cannot be built here)."""
    try:
        return Capability.COLOUR in capabilities(build(spec))
    except (BackendUnavailable, InvalidArgument):  # (a python-sat without this solver)
        return False


def solve_colour(parts: Parts, puzzle: Puzzle, limits: Limits, watch: Budget, given: Given,
                 fallbacks: tuple[str, ...]) -> SolveResult:
    """Solve a colour ``puzzle`` with ``parts`` (see the module doc).

    >>> from nonolab.core.palette import Palette
    >>> from nonolab.solvers import get
    >>> p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), row_colours=((1,), (2,)),
    ...            column_colours=((1,), (2,)), palette=Palette.default_for(2))
    >>> result = get("auto").solve(p)
    >>> result.unique, result.stats.counters["phase"] in ("lcg", "cpsat", "cnf", "native")
    (True, True)
    """
    if parts.record_steps:
        if not {Capability.COLOUR, Capability.STEPS} <= capabilities_of("native"):
            raise InvalidArgument("backend 'auto': no installed backend records steps for colour puzzles")
        result = parts.native().solve(puzzle, left(limits, watch), given)
        return _as_auto(parts, watch, result, "native", {})
    engines = colour_engines(parts, fallbacks)
    if not engines:
        raise InvalidArgument("backend 'auto': no installed backend solves colour puzzles")
    if len(engines) == 1:
        result = parts.engine(engines[0]).solve(puzzle, left(limits, watch), given)
        return _as_auto(parts, watch, result, engines[0], {})
    race = Race(is_answer=lambda result: result.status not in STOPPED, cancel=limits.cancel)
    solvers = [parts.engine(spec) for spec in engines]

    def part(slot: int):
        return lambda cancel: solvers[slot].solve(puzzle, left(limits, watch, cancel), given)

    with race:   # (Ctrl-C in this thread's wait stops the parts started)
        race.start(0, engines[0], part(0))
        joined = False
        start_rival = time.perf_counter() + parts.schedule.colour_rival_after
        while not (race.won.is_set() or 0 in race.results or watch.expired()):
            if time.perf_counter() >= start_rival:
                race.start(1, engines[1], part(1))
                joined = True
                break
            time.sleep(_POLL)
        first_failed = isinstance(race.results.get(0), BaseException)
        if first_failed and not joined and not watch.expired():
            race.start(1, engines[1], part(1))   # the first engine could not take it (too many colours, say)
            joined = True
        winner, ended = race.wait(grace=_GRACE)
    counters: dict[str, Any] = {"rival": engines[1] if joined else None,
                                "left_running": race.running(ended)}
    if winner is not None:
        return _as_auto(parts, watch, race.results[winner], engines[winner], counters)
    # No answer: the first part that ended without raising says how it stopped.
    for slot in ended:
        if not isinstance(race.results[slot], BaseException):
            return _as_auto(parts, watch, race.results[slot], engines[slot], counters)
    errors = [race.results[slot] for slot in ended]
    if errors:
        raise errors[0]
    return parts.stopped(watch, counters)


def _as_auto(parts: Parts, watch: Budget, result: SolveResult, phase: str,
             counters: dict[str, Any]) -> SolveResult:
    return result.relabelled(parts.name, watch.elapsed(), {**result.stats.counters, **counters, "phase": phase})
