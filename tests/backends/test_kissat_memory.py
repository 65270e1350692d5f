"""The memory budget holds Kissat's child as it runs (cnf.oneshot): its resident memory is
read at every poll and every line it writes, and past the budget it is killed and the
search refused (TooLarge).  No plan declares that memory: a one-shot solver's learned
clauses grow with its search, not with the cells (a random 127x127 grid: 1.5 GB in 60 s,
under a budget of 200 MB, before).  In auto's race the part so refused leaves the race to
the others.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pysat.solvers")

from nonolab.core import Puzzle
from nonolab.errors import TooLarge
from nonolab.formats.limits import MEMORY_VARIABLE
from nonolab.solvers import get
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.cnf import oneshot

# A budget no Python child fits in (its interpreter alone holds more) and the puzzles do
# (their cells times what their engines declare).
TINY = 2 ** 20
CROSS = Puzzle(rows=((1,), (3,), (1,)), columns=((1,), (3,), (1,)))


def _children_made(monkeypatch) -> list:
    """The workers started from now on (none reused from an earlier test)."""
    made: list = []
    start = oneshot._Worker.__init__

    def recorded(self) -> None:
        start(self)
        made.append(self)

    monkeypatch.setattr(oneshot, "_IDLE", [])
    monkeypatch.setattr(oneshot._Worker, "__init__", recorded)
    return made


def test_a_kissat_child_beyond_the_memory_budget_is_killed_and_the_search_refused(monkeypatch):
    made = _children_made(monkeypatch)
    monkeypatch.setenv(MEMORY_VARIABLE, str(TINY))
    with pytest.raises(TooLarge, match=r"kissat404 child held .* beyond the memory budget of 1.0 MiB"):
        get("cnf", solver="kissat404").solve(CROSS, Limits(max_solutions=2))
    assert made and all(worker.child.poll() is not None for worker in made)   # killed and reaped
    assert not oneshot._IDLE                                                  # not kept for the next call


def test_within_the_budget_kissat_answers():
    assert get("cnf", solver="kissat404").solve(CROSS, Limits(max_solutions=2)).status is Status.SOLVED


def test_autos_race_goes_on_without_a_kissat_part_beyond_the_budget(monkeypatch):
    # lcg (a stand-in: its slices counted, no clock read) waits after its first slice until
    # Kissat's part, joining there, has ended, then answers: Kissat refused, lcg's answer
    # is the answer (before: Kissat answered, and won).
    import threading

    from lcg_stand_in import END, OPEN, SOLUTION, Scripted, stand_in_lcg
    from nonolab.solvers.auto import parts

    made = _children_made(monkeypatch)
    stand_in_lcg(monkeypatch, {0: (OPEN, SOLUTION, END)})
    kissat_ended = threading.Event()
    hand_over, run = parts.Parts.hand_over, Scripted.run

    def handed(self, *args, **options):
        try:
            return hand_over(self, *args, **options)
        finally:
            kissat_ended.set()

    def scripted_run(self, seconds, conflicts=0):
        if self.calls >= 1:
            assert kissat_ended.wait(60), "Kissat's part never ended"   # (a hang guard)
        return run(self, seconds, conflicts)

    monkeypatch.setattr(parts.Parts, "hand_over", handed)
    monkeypatch.setattr(Scripted, "run", scripted_run)
    monkeypatch.setenv(MEMORY_VARIABLE, str(TINY))
    auto = get("auto", solo_budget=0, count_relay=False, rival="cnf:solver=kissat404")
    result = auto.solve(Puzzle(rows=((1,),), columns=((1,),)), Limits(max_solutions=2))
    assert result.count == 1 and result.complete and result.stats.counters["winner"] == "lcg"
    assert made and all(worker.child.poll() is not None for worker in made)
