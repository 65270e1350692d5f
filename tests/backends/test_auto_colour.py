"""auto on colour puzzles: the first colour engine alone, then a rival beside it.

The race's timing is driven by stand-in engines (blocking until told to stop, failing,
answering at once), so each test decides who wins; the real engines' answers are checked
on a real colour puzzle.
"""

from __future__ import annotations

import threading
import time

import pytest

from nonolab.core.palette import Palette
from nonolab.core.puzzle import Puzzle
from nonolab.errors import TooLarge
from nonolab.solvers import get
from nonolab.solvers.auto import CDCL_BACKENDS
from nonolab.solvers.auto.colour import colour_engines
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.base import Capability, Limits, SolveResult, Stats, Status, capabilities


def _diagonal() -> Puzzle:
    return Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), row_colours=((1,), (2,)),
                  column_colours=((1,), (2,)), palette=Palette.default_for(2))


class _Answers:
    """Answers at once with the real solution of the puzzle."""

    def __init__(self):
        self.calls = 0

    def solve(self, puzzle, limits, given=None):
        self.calls += 1
        result = get("native").solve(puzzle, limits, given)
        return SolveResult(result.status, result.solutions, result.complete, Stats("stand-in", 0.0, {}))


class _Blocks:
    """Runs until told to stop (interrupted) or until its time limit (timeout), like an engine."""

    def __init__(self):
        self.started = threading.Event()
        self.stopped = threading.Event()

    def solve(self, puzzle, limits, given=None):
        self.started.set()
        end = None if limits.time_limit is None else time.perf_counter() + limits.time_limit
        while not limits.cancel.is_set():
            if end is not None and time.perf_counter() >= end:
                return SolveResult(Status.TIMEOUT, (), False, Stats("stand-in", 0.0, {}))
            time.sleep(0.005)
        self.stopped.set()
        return SolveResult(Status.INTERRUPTED, (), False, Stats("stand-in", 0.0, {}))


class _Fails:
    def solve(self, puzzle, limits, given=None):
        raise TooLarge("too many colours for this engine")


def _auto(monkeypatch, first, second, **options):
    auto = get("auto", **options)
    engines = colour_engines(auto.parts(), CDCL_BACKENDS)  # as auto chooses them
    assert len(engines) == 2, "two engines that declare colour are needed"
    stand_ins = dict(zip(engines, (first, second)))
    monkeypatch.setattr(Parts, "engine", lambda self, spec: stand_ins[spec])
    return auto, engines


def test_the_engines_are_chosen_by_declared_colour_capability():
    auto = get("auto")
    for spec in colour_engines(auto.parts(), ("cpsat", "cnf")):
        from nonolab.solvers import capabilities_of, parse_spec
        assert Capability.COLOUR in capabilities_of(parse_spec(spec)[0])
    assert colour_engines(auto.parts(), ())[0] == auto.cdcl


def test_an_easy_colour_puzzle_ends_on_the_first_engine_alone(monkeypatch):
    second = _Blocks()
    auto, engines = _auto(monkeypatch, _Answers(), second, colour_rival_after=5.0)
    result = auto.solve(_diagonal())
    assert result.unique and result.stats.counters["phase"] == engines[0]
    assert result.stats.counters["rival"] is None and not second.started.is_set()


def test_the_rival_joins_after_the_delay_and_its_answer_stops_the_first(monkeypatch):
    first = _Blocks()
    auto, engines = _auto(monkeypatch, first, _Answers(), colour_rival_after=0.2)
    began = time.perf_counter()
    result = auto.solve(_diagonal(), Limits(max_solutions=2, time_limit=20))
    assert time.perf_counter() - began >= 0.2      # not before its delay (a busy machine only adds)
    assert result.unique and result.stats.counters["phase"] == engines[1]
    assert result.stats.counters["rival"] == engines[1]
    assert first.stopped.wait(2.0)      # the loser was told to stop


def test_a_first_engine_that_fails_hands_the_puzzle_to_the_rival_at_once(monkeypatch):
    auto, engines = _auto(monkeypatch, _Fails(), _Answers(), colour_rival_after=30.0)
    result = auto.solve(_diagonal())          # at once: the rival was due in 30 s, and no limit was given
    assert result.unique and result.stats.counters["phase"] == engines[1]


def test_both_failing_raises_the_engines_error(monkeypatch):
    auto, _ = _auto(monkeypatch, _Fails(), _Fails(), colour_rival_after=0.0)
    with pytest.raises(TooLarge):
        auto.solve(_diagonal())


def test_the_time_limit_ends_a_colour_race_with_a_timeout(monkeypatch):
    auto, _ = _auto(monkeypatch, _Blocks(), _Blocks(), colour_rival_after=0.0)
    result = auto.solve(_diagonal(), Limits(max_solutions=2, time_limit=0.3))   # both block: the limit ends it
    assert result.status in (Status.TIMEOUT, Status.INTERRUPTED) and not result.complete


def test_the_real_engines_count_a_colour_puzzle_exactly_in_a_race():
    result = get("auto", colour_rival_after=0.0).solve(_diagonal(), Limits(max_solutions=None))
    assert result.complete and result.count == 1


def test_a_negative_colour_delay_is_refused():
    with pytest.raises(Exception, match="colour_rival_after"):
        get("auto", colour_rival_after=-1)


def test_an_engine_whose_options_leave_colour_out_is_not_chosen():
    # cnf declares colour, but cnf with Kissat (one solve per process) cannot count colour
    # solutions: as auto's rival it must leave colour puzzles to the next engine, not fail
    # at once and end the race.
    pytest.importorskip("pysat.solvers")
    auto = get("auto", rival="cnf:solver=kissat404")
    assert colour_engines(auto.parts(), ("cpsat",)) == [auto.cdcl, "cpsat"]
    assert Capability.COLOUR not in capabilities(get("cnf", solver="kissat404"))
    assert Capability.COLOUR in capabilities(get("cnf"))


def test_kissat_as_rival_leaves_a_hard_colour_puzzle_to_an_engine_that_takes_it(monkeypatch):
    first = _Blocks()
    auto = get("auto", rival="cnf:solver=kissat404", colour_rival_after=0.05)
    engines = colour_engines(auto.parts(), ("cpsat",))
    stand_ins = {engines[0]: first, engines[1]: _Answers()}
    monkeypatch.setattr(Parts, "engine", lambda self, spec: stand_ins[spec])
    result = auto.solve(_diagonal(), Limits(max_solutions=2, time_limit=20))
    assert result.unique and result.stats.counters["phase"] == engines[1] == "cpsat"
