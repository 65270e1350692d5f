"""Ctrl-C in the caller's thread ends auto's race: the parts running in threads of their own
(the solo path's rival: lcg with another seed, the count's relay, Kissat's child behind it;
the colour path's first engine, the duel's engines after native's hand-off) are told to
stop, not left to search on (``Race`` as a context manager, and the solo path's own stop).

Before, a ``KeyboardInterrupt`` raised between the first engine's slices (the library's
caller pressed Ctrl-C) left the rival's thread searching, and the interpreter waited for it
at exit: 17 s on 15-Dom with Kissat's child running, for ever without a time limit.  The
tests count the rival's slices (stand-ins for lcg's engine: no clock read): a rival told to
stop ends within a slice, one left behind runs its whole script.
"""

from __future__ import annotations

import threading

import pytest

from nonolab.core import Puzzle
from nonolab.solvers import get
from nonolab.solvers.base import Limits, Status
from lcg_stand_in import END, OPEN, Scripted, stand_in_lcg

pytest.importorskip("nonolab.solvers.lcg")

ONE = Puzzle(rows=((1,),), columns=((1,),))
# The rival's slices before its script ends by itself: far more than it runs once told to
# stop (a guard, so that a rival left behind ends the test instead of hanging it).
RIVAL_SLICES = 2_000_000


def _interrupt_the_first_engine(monkeypatch) -> threading.Event:
    """The first engine (seed 0) raises ``KeyboardInterrupt`` in its slice once the rival has
    run one: as Python raises it between the compiled engine's slices on Ctrl-C."""
    rival_ran = threading.Event()
    run = Scripted.run

    def scripted_run(self, seconds, conflicts=0):
        if self.seed != 0:
            rival_ran.set()
        elif self.calls >= 1:
            assert rival_ran.wait(60), "the rival never started"   # (a hang guard)
            raise KeyboardInterrupt
        return run(self, seconds, conflicts)

    monkeypatch.setattr(Scripted, "run", scripted_run)
    return rival_ran


def _searching(monkeypatch) -> threading.Event:
    """Set once a stand-in engine runs its first slice (the hang guards wait for it)."""
    searching = threading.Event()
    run = Scripted.run

    def scripted_run(self, seconds, conflicts=0):
        searching.set()
        return run(self, seconds, conflicts)

    monkeypatch.setattr(Scripted, "run", scripted_run)
    return searching


def _interrupted(solve) -> None:
    """``solve()`` raises ``KeyboardInterrupt``; then wait for the auto threads it started
    (each ends by itself at the latest after its script's RIVAL_SLICES)."""
    before = set(threading.enumerate())
    with pytest.raises(KeyboardInterrupt):
        solve()
    for thread in set(threading.enumerate()) - before:
        if thread.name.startswith("nonolab-auto-"):
            thread.join()


@pytest.mark.parametrize("max_solutions, options", [
    (1, {"solo_find_budget": 0, "find_seed": 5}),   # a first solution: lcg with another seed beside it
    (2, {"solo_budget": 0, "find_seed": 5}),        # a count: the relay's seeded stage
    (2, {"solo_budget": 0, "count_relay": False, "rival": "cpsat", "find_seed": 0})])   # the rival engine
def test_ctrl_c_in_the_callers_thread_stops_the_solo_paths_rival(monkeypatch, max_solutions, options):
    engines = stand_in_lcg(monkeypatch, {0: (OPEN,)}, others=(OPEN,) * RIVAL_SLICES + (END,))
    _interrupt_the_first_engine(monkeypatch)
    if options.get("rival") == "cpsat":   # the rival a stand-in too: lcg's engine, named as the rival
        from nonolab.solvers.auto import parts
        engine = parts.Parts.engine
        monkeypatch.setattr(parts.Parts, "engine", lambda self, spec: engine(self, "lcg:seed=7" if spec == "cpsat"
                                                                             else spec))
        # (the scripted run counts seed 7's slices as a rival's: not seed 0)
    _interrupted(lambda: get("auto", **options).solve(ONE, Limits(max_solutions=max_solutions)))
    rivals = [engine for engine in engines if engine.seed != 0]
    assert rivals and all(rival.calls < RIVAL_SLICES for rival in rivals), [r.calls for r in rivals]


def test_ctrl_c_while_a_colour_puzzle_waits_for_its_first_engine_stops_it(monkeypatch):
    # The colour path waits in the caller's thread (colour_rival_after) while its first
    # engine searches in a thread of its own; Ctrl-C there (raised in its pause) stops it.
    import time

    from nonolab.core import Palette, Solution
    from nonolab.solvers.auto import colour

    engines = stand_in_lcg(monkeypatch, {}, others=(OPEN,) * RIVAL_SLICES + (END,))
    searching = _searching(monkeypatch)

    class Clock:   # colour's own view of time: its pause is where Ctrl-C comes
        perf_counter = staticmethod(time.perf_counter)

        @staticmethod
        def sleep(seconds: float) -> None:
            assert searching.wait(60), "the first engine never started"   # (a hang guard)
            raise KeyboardInterrupt

    monkeypatch.setattr(colour, "time", Clock)
    puzzle = Puzzle.from_solution(Solution.from_values([[1, 2], [0, 1]]), palette=Palette.default_for(2))
    _interrupted(lambda: get("auto").solve(puzzle, Limits(max_solutions=2)))
    assert engines and all(engine.calls < RIVAL_SLICES for engine in engines), [e.calls for e in engines]


def test_ctrl_c_while_the_duel_waits_for_the_rivals_turn_stops_the_first_engine(monkeypatch):
    # Past native's hand-off the first engine searches in a thread of its own while the
    # caller's thread waits rival_after seconds to start the rival: Ctrl-C in that wait
    # stops the first engine.
    from nonolab.solvers.auto.duel import Duel

    engines = stand_in_lcg(monkeypatch, {}, others=(OPEN,) * RIVAL_SLICES + (END,))
    searching = _searching(monkeypatch)

    def interrupted(seconds=None):
        assert searching.wait(60), "the first engine never started"   # (a hang guard)
        raise KeyboardInterrupt

    hand_over = Duel._hand_over

    def hand_over_interrupted(self, remainder):
        self.race.won.wait = interrupted   # (this race's only: the wait for the rival's turn)
        return hand_over(self, remainder)

    monkeypatch.setattr(Duel, "_hand_over", hand_over_interrupted)
    auto = get("auto", solo_side=0, native_budget=0, handoff_by=0, early=False, rival_after=1000)
    _interrupted(lambda: auto.solve(Puzzle(rows=((1,),) * 6, columns=((1,),) * 6), Limits(max_solutions=None)))
    assert engines and all(engine.calls < RIVAL_SLICES for engine in engines), [e.calls for e in engines]


def test_a_work_limit_that_stops_the_first_engine_stops_the_rival_too(monkeypatch):
    # A conflict limit given to auto's first engine (cdcl_options: the library's; the CLI
    # refuses a work limit on auto) ends it without an answer: the rival, which holds no
    # such limit (Kissat cannot), shares that stop as a duel's parts share a deadline,
    # instead of being awaited to its search's end.
    from nonolab.solvers.auto import parts

    engines = stand_in_lcg(monkeypatch, {0: (OPEN,)}, others=(OPEN,) * RIVAL_SLICES + (END,))
    engine = parts.Parts.engine
    monkeypatch.setattr(parts.Parts, "engine", lambda self, spec: engine(self, "lcg:seed=7" if spec == "cpsat"
                                                                         else spec))   # the rival a stand-in
    auto = get("auto", rival="cpsat", solo_budget=0, count_relay=False, find_seed=0,
               cdcl_options={"conflict_limit": 50})
    result = auto.solve(ONE, Limits(max_solutions=2))
    assert result.status is Status.TIMEOUT and result.stats.counters["cdcl_conflicts"] == 50
    for thread in [t for t in threading.enumerate() if t.name.startswith("nonolab-auto-")]:
        thread.join()   # (ends by itself at the latest after its script's RIVAL_SLICES)
    rivals = [engine for engine in engines if engine.seed == 7]
    assert rivals and rivals[0].calls < RIVAL_SLICES, rivals[0].calls
