"""A race part that stops on a work limit of its own is not the caller's deadline.

``racing.Race.wait`` gives the other parts a short grace once a part ends without an
answer: they share the caller's deadline, so they are stopping too.  A part held to its
own limit (lcg with ``conflict_limit`` in ``cdcl_options``) stops with no deadline come,
and the grace cut the rival off: auto said ``timeout`` with no limit set, while its rival
(Kissat, CP-SAT) was about to answer; in colour and on the solo path a first engine that
stopped before the rival's start left auto with no rival at all (found by the wall's race
tests, tests/wall/test_races.py).
"""

from __future__ import annotations

import threading

import pytest

from nonolab.solvers import get
from nonolab.solvers.auto.racing import Race
from nonolab.solvers.base import Limits, Status
from tests.wall import brute, puzzles


def _stopped_then_answer(limit_came):
    race = Race(is_answer=lambda got: got == "answer", limit_came=limit_came)
    later = threading.Event()
    race.start(0, "held", lambda cancel: "stopped")
    race.start(1, "rival", lambda cancel: (later.wait(0.5), "answer")[1])
    return race.wait(grace=0.05)


def test_a_part_stopped_on_its_own_limit_leaves_the_race_to_the_others():
    winner, ended = _stopped_then_answer(limit_came=lambda: False)
    assert winner == 1 and sorted(ended) == [0, 1]


def test_a_part_stopped_at_the_callers_limit_gives_the_others_only_the_grace():
    winner, ended = _stopped_then_answer(limit_came=lambda: True)
    assert winner is None and ended == [0]


@pytest.mark.parametrize("options", [{"solo_side": 0, "native_budget": 0}, {"colour_rival_after": 0},
                                     {"solo_budget": 0, "count_relay": False}, {"solo_budget": 0}],
                         ids=["duel", "colour", "solo", "solo relay"])
def test_auto_answers_when_its_first_engine_is_held_to_a_conflict(options):
    # lcg held to 1 conflict stops at once; the rival (Kissat after native or on the solo path,
    # CP-SAT in colour) answers.  On the solo path lcg may spend its conflict in root probing,
    # before the end of its first slice, where the alarm that starts the rival rings: the rival
    # then starts when lcg stops.  (The relay's seeded draw inherits the limit; Kissat follows it.)
    auto = get("auto", cdcl_options={"conflict_limit": 1}, **options)
    colour = "colour_rival_after" in options
    for i, case in enumerate(puzzles.busy_cases(46, 12, colour, 8)):
        cap = 1 + i % 2   # a first solution (its rival: lcg with find_seed, the same limit), a count to 2
        truth = set(brute.solutions(case.rows, case.columns, case.values, {}, limit=3))
        result = auto.solve(case.puzzle(), Limits(max_solutions=cap))
        got = {s.cells for s in result.solutions}
        assert all(brute.fits(cells, case.rows, case.columns, {}) for cells in got)
        if cap == 1 and result.status is Status.TIMEOUT:   # the seeded rival is held to 1 conflict too
            continue
        assert result.status is not Status.TIMEOUT, (case.seed, cap, result.stats.counters.get("phase"))
        assert len(got) == min(len(truth), cap)
        assert result.complete if len(truth) < cap else not (len(truth) > cap and result.complete)


def test_a_first_engine_that_gives_up_before_its_budget_hands_the_search_to_the_rival():
    # solo_find_budget (0.3 CPU s) never ran out: lcg held to 4 conflicts stopped within
    # milliseconds, and auto said timeout, its rival (lcg with find_seed, the same limit,
    # another path) never started.  It starts when lcg stops; on these puzzles it finds some.
    auto = get("auto", cdcl_options={"conflict_limit": 4})
    winners = []
    for case in puzzles.busy_cases(46, 24, False, 8):
        result = auto.solve(case.puzzle(), Limits(max_solutions=1))
        assert all(brute.fits(s.cells, case.rows, case.columns, {}) for s in result.solutions)
        winners.append(result.stats.counters.get("winner"))
    assert "lcg:seed=2" in winners, winners
