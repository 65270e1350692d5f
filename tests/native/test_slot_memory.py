"""LalaFrogKK's slot's memory is declared (``NativeSolver.memory_per_cell``), so it runs at
any size under the one memory budget: a search with the slot on a grid over 512x512 is held
to the sum it declares, measured as the peak resident memory of a process of its own
(counted bytes, bound by a node limit, not by time)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nonolab.bench.suites import items_of
from nonolab.core import Puzzle
from nonolab.errors import TooLarge
from nonolab.formats.limits import InputLimits, applied
from nonolab.solvers.base import Limits, Status
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.compiled import available

pytestmark = pytest.mark.skipif(not available(), reason="the native engine is not built")


def _cornered(name: str, side: int) -> Puzzle:
    """``name``'s puzzle in the corner of a blank ``side`` x ``side`` grid: the root settles
    every other cell, the search is the small puzzle's (far beyond the node limits here)."""
    small = items_of([name])[0].puzzle
    return Puzzle(rows=small.rows + ((),) * (side - small.height),
                  columns=small.columns + ((),) * (side - small.width))


def test_the_slot_runs_on_a_grid_over_512x512_within_its_declared_budget():
    """9-Dom in a 600x600 grid (360,000 cells), restarts off (deterministic by nodes): the
    slot runs at the budget the search declares; one byte below it the search runs without
    the slot (a speed-up that gives way), and below the search's own need it is refused."""
    puzzle = _cornered("ndom:9", 600)
    solver = NativeSolver(lalafrog_after=0, node_limit=3000, threads=1, restarts=False)
    declared = puzzle.width * puzzle.height * solver.memory_per_cell(puzzle)
    with applied(InputLimits(max_memory=declared)):
        result = solver.solve(puzzle, Limits(max_solutions=2))
    assert result.stats.counters["styles"] == 2 and result.stats.counters["slot_nodes"] > 0
    assert result.status is Status.TIMEOUT
    with applied(InputLimits(max_memory=declared - 1)):
        alone = solver.solve(puzzle, Limits(max_solutions=2))
    assert alone.stats.counters["styles"] == 1 and alone.stats.counters["slot_nodes"] == 0
    rest = puzzle.width * puzzle.height * NativeSolver(lalafrog_after=None).memory_per_cell(puzzle)
    with applied(InputLimits(max_memory=rest - 1)), pytest.raises(TooLarge, match="beyond the memory budget"):
        solver.solve(puzzle, Limits(max_solutions=2))


def test_the_slot_is_in_the_declared_memory_a_cell():
    p = Puzzle(rows=((1,),), columns=((1,),))
    for steps in (False, True):
        on, off = NativeSolver(record_steps=steps), NativeSolver(record_steps=steps, lalafrog_after=None)
        assert on.memory_per_cell(p) > off.memory_per_cell(p)


_MEASURE = """
import json, resource, sys
from nonolab.core import Puzzle
from nonolab.bench.suites import items_of
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
side, steps = int(sys.argv[1]), sys.argv[2] == "1"
small = items_of(["ndom:9"])[0].puzzle
puzzle = Puzzle(rows=small.rows + ((),) * (side - small.height), columns=small.columns + ((),) * (side - small.width))
solver = NativeSolver(lalafrog_after=0, node_limit=20000, threads=1, record_steps=steps, cache_bytes=0)
solver.solve(small, Limits(max_solutions=2))   # the engine and its imports loaded before the baseline
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = solver.solve(puzzle, Limits(max_solutions=2))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"per_cell": (peak - before) * 1024 / side ** 2, "bytes": (peak - before) * 1024, "declared": side * side * solver.memory_per_cell(puzzle),
                  "styles": result.stats.counters["styles"], "slot_nodes": result.stats.counters["slot_nodes"]}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in kilobytes (Linux)")
@pytest.mark.parametrize("steps", [False, True], ids=["search", "step-log"])
def test_a_search_with_the_slot_peaks_within_its_declared_memory(steps):
    """9-Dom in a 1500x1500 grid, the default two styles and the slot from the first node,
    20,000 nodes (below 2.5 M cells every style joins as soon as the first branches; the
    second style searches far fewer than 20,000 nodes in a slice on lines of 1,500 cells):
    the peak above the process's before the search is within the cells times the declared
    bytes a cell.  Measured 10.8 of 17 bytes a cell, 106.8-108.1 of 115 with the step log
    (where the 82 declared without the slot's share would not hold)."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, "1500", str(int(steps))],
                         capture_output=True, text=True, check=True).stdout
    measured = json.loads(out)
    assert measured["styles"] == 3 and measured["slot_nodes"] > 0
    assert measured["bytes"] <= measured["declared"], measured
