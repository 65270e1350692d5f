"""check --why's report of a colour puzzle with the CNF session as it is ("new") or, as before follow46,
the generic one-shot session for colour puzzles ("old": a fresh encoding and SAT solver per question).

    nice python why_colour_ab.py new|old PUZZLE
"""
import sys
import time

from nonolab.formats import load
from nonolab.harness.ambiguity import why_report
from nonolab.solvers import OneShotSession
from nonolab.solvers.cnf.solver import CnfSession, CnfSolver

mode, path = sys.argv[1], sys.argv[2]
if mode == "old":
    CnfSolver.session = lambda self, puzzle: (OneShotSession(self, puzzle) if puzzle.is_colour
                                              else CnfSession(self, puzzle))
puzzle = load(path)
puzzle = puzzle[0] if isinstance(puzzle, list) else puzzle
start = time.process_time()
report = why_report(puzzle, "auto", None)
print(mode, path.split("/")[-1], repr(report), "questions", report.stats["questions"],
      "cpu_s %.2f" % (time.process_time() - start), "wall_s %.1f" % report.stats["wall_time"],
      open("/proc/loadavg").read().split()[:3])
