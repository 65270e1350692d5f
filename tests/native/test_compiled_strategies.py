"""The line strategies' kernels, compiled and as plain Python, give the same answers.

Same method as test_compiled.py: one script run twice, with and without
``NUMBA_DISABLE_JIT=1``; lines through every strategy (with their labels), and
small puzzles solved by one deterministic search style per strategy (so even the
counters and the labelled step logs must match).
"""

from __future__ import annotations

from twice import run

SAMPLE = r'''
import json, random, sys
from pathlib import Path
from nonolab.core import Puzzle, Solution
from nonolab.core.violations import clues_of
from nonolab.formats import load
from nonolab.solvers.base import Limits
from nonolab.solvers.native import NativeSolver
from nonolab.solvers.native.strategies import STRATEGIES, fix_line_with

puzzles = Path(sys.argv[1])
rng = random.Random(23)
answers = {"lines": [], "puzzles": []}
for _ in range(200):
    n = rng.randint(1, 25)
    bits = [rng.random() < 0.5 for _ in range(n)]
    cells = bytes(rng.choice((1, 2, 3, 3, 3)) for _ in range(n))
    for name in STRATEGIES:
        got, labels = fix_line_with(name, clues_of(bits), cells, cap=rng.choice((3, 50, 1 << 16)))
        answers["lines"].append([None if got is None else list(got), list(labels)])
sample = [load(puzzles / f) for f in ("nonolab/switch.non", "nonolab/probe-merge.non",
          "hakank/t2.non", "pynogram/smile.non")]
for _ in range(4):
    bits = [[int(rng.random() < 0.5) for _ in range(6)] for _ in range(6)]
    sample.append(Puzzle.from_solution(Solution.from_rows(bits)))
for line in STRATEGIES:
    for p in sample:
        r = NativeSolver(line=line, record_steps=True, restarts=False).solve(p, Limits(max_solutions=None))
        c = dict(r.stats.counters)
        answers["puzzles"].append({"count": r.count, "complete": r.complete,
            "counters": {k: c[k] for k in ("line_solves", "cache_hits", "probes", "nodes")},
            "steps": [s.as_dict() for s in r.steps]})
print(json.dumps(answers))
'''


def test_compiled_and_plain_python_strategies_agree_exactly():
    compiled = run(SAMPLE, False)
    plain = run(SAMPLE, True)
    assert compiled["lines"] == plain["lines"] and len(compiled["lines"]) == 800
    assert len(compiled["puzzles"]) == len(plain["puzzles"]) > 0
    for a, b in zip(compiled["puzzles"], plain["puzzles"]):
        assert a == b
