"""The colour step log's memory is declared (``NativeSolver.COLOUR_STEP_LOG_BYTES_PER_CELL``
beside ``COLOUR_BYTES_PER_CELL``), so explain's budget check holds: explain of a large colour
puzzle peaks within the cells times the sum, measured as the peak resident memory a process
of its own adds (reset before explain: /proc/self/clear_refs), not by time.  The engine's
log held as whole 40-byte rows (a step's id, technique, source and depth on every cell)
peaked at 128 bytes a cell here, beyond the 120 declared; held compact, 99."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nonolab.solvers.native.compiled import available

pytestmark = [pytest.mark.skipif(not available(), reason="the native engine is not built"),
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/status (Linux)")]

_MEASURE = """
import gc, json, sys
from nonolab.core import Palette, Puzzle, Solution
from nonolab.solvers.native import NativeSolver

def kib(field):
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith(field))

side, colours = int(sys.argv[1]), int(sys.argv[2])
cells = [[0 if c % 10 == 0 else 1 + r % colours for c in range(side)] for r in range(side)]
puzzle = Puzzle.from_solution(Solution.from_values(cells), palette=Palette.default_for(colours))
import numpy  # noqa: F401  (explain reads a long log with it: its import is not the log's)
from nonolab.harness.explanation import explain
gc.collect()
try:
    open("/proc/self/clear_refs", "w").write("5")   # the peak from here on
except OSError:
    print(json.dumps(None)); sys.exit()
base = kib("VmRSS:")
found = explain(puzzle, NativeSolver(record_steps=True), time_limit=600)
added = (kib("VmHWM:") - base) * 1024
ruled = sum(len(s.ruled_out) for s in found.steps)
print(json.dumps({"added": added, "per_cell": added / side ** 2, "verdict": found.verdict.value, "ruled_out": ruled,
                  "declared": side ** 2 * (NativeSolver.COLOUR_BYTES_PER_CELL + NativeSolver.COLOUR_STEP_LOG_BYTES_PER_CELL)}))
"""


def test_explain_of_a_large_colour_puzzle_peaks_within_its_declared_memory():
    """Stripes of 6 colours, 700x700 (every tenth column empty): line-solvable, a value ruled
    out of every cell besides the one decided, 1.4 M rows of log."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, "700", "6"], capture_output=True, text=True,
                         check=True).stdout
    measured = json.loads(out)
    if measured is None:
        pytest.skip("/proc/self/clear_refs cannot be written here")
    assert measured["verdict"] == "unique" and measured["ruled_out"] == 700 * 700
    assert measured["added"] <= measured["declared"], measured
