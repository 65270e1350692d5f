"""One implementation, two ways to run it: compiled by numba, and as plain Python.

The engine's functions run uncompiled under ``NUMBA_DISABLE_JIT=1``; on a sample of
puzzles and lines both must give the same answers and the same counters (one search
style, without the time-sliced interleaving, is deterministic, so even the number of
line solves and nodes must match).
"""

from __future__ import annotations

from twice import run

SAMPLE = r'''
import json, random, sys
from pathlib import Path
from nonolab.core import Puzzle, Solution
from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver, fix_line
from nonolab.core.violations import clues_of

puzzles = Path(sys.argv[1])
rng = random.Random(11)
answers = {"lines": [], "puzzles": []}
for _ in range(300):
    n = rng.randint(1, 25)
    bits = [rng.random() < 0.5 for _ in range(n)]
    cells = bytes(rng.choice((1, 2, 3, 3, 3)) for _ in range(n))
    got = fix_line(clues_of(bits), cells)
    answers["lines"].append(None if got is None else list(got))
sample = [load(puzzles / f) for f in ("nonolab/switch.non", "nonolab/probe-merge.non",
          "nonolab/probe-contradiction.non", "nonolab/permutations-5.non", "nonolab/contradiction.non",
          "hakank/t2.non", "pynogram/smile.non")]
for _ in range(8):
    bits = [[int(rng.random() < 0.5) for _ in range(6)] for _ in range(6)]
    sample.append(Puzzle.from_solution(Solution.from_rows(bits)))
for probing in ("full", "contradiction", "none"):
    for p in sample:
        r = NativeSolver(probing=probing, record_steps=True, restarts=False).solve(p, Limits(max_solutions=None))
        c = dict(r.stats.counters)
        answers["puzzles"].append({"count": r.count, "complete": r.complete,
            "solutions": sorted(s.to_text() for s in r.solutions),
            "counters": {k: c[k] for k in ("line_solves", "cache_hits", "probes", "nodes", "max_depth")},
            "steps": [s.as_dict() for s in r.steps]})
print(json.dumps(answers))
'''


def test_compiled_and_plain_python_agree_exactly():
    compiled = run(SAMPLE, False)
    plain = run(SAMPLE, True)
    assert compiled["lines"] == plain["lines"]
    assert len(compiled["puzzles"]) == len(plain["puzzles"]) > 0
    for a, b in zip(compiled["puzzles"], plain["puzzles"]):
        assert a == b
