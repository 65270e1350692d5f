"""The checker's share of a check (nonolab check -b native, count to 2): each violations() call timed (CPU), and the whole check.

Usage: PYTHONPATH=. .venv/bin/python benchmarks/results/follow-14/checker_share.py 1000 2000 COLOUR.non ... (a number: the large:N suite's square)."""
import time, sys, importlib, resource
V = importlib.import_module("nonolab.core.violations")
import nonolab.solvers.base as base
from nonolab.bench.suites import large_puzzle
from nonolab.formats import load
from nonolab.harness.uniqueness import check
from nonolab.solvers import build
real = V.violations
log = []
def timed(p, s):
    preset = s._top is not None
    t = time.process_time(); out = real(p, s); log.append((round((time.process_time() - t) * 1000, 2), preset)); return out
base.violations = timed
for spec in sys.argv[1:]:
    p = large_puzzle(int(spec), 2000) if spec.isdigit() else load(spec)
    log.clear()
    t = time.process_time(); r = check(p, build("native")); total = time.process_time() - t
    print(spec[-32:], r.verdict.value, "check %.1f ms" % (total * 1000), "calls (ms, _top preset):", log, flush=True)
