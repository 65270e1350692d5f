"""A plugin for batch workers in tests (``run_batch(preload=["batch_plugin"])``).

A worker process imports it before its first job, which registers the fake
backends there: the registry of the test process is not the workers'.
"""

from nonolab.solvers import _REGISTRY

for _name, _cls in (("stuck", "StuckSolver"), ("dying", "DyingSolver"), ("batchfaulty", "BatchingFaultySolver"),
                    ("threadspy", "ThreadsSpySolver")):
    _REGISTRY.setdefault(_name, ("fake_backends", _cls, None, "solver"))
