"""A stand-in for lcg's compiled engine on a 1x1 puzzle, for the tests of auto's race on
the solo path: each search follows a script of what its slices return, and counts them
(no clock read, no search)."""

from __future__ import annotations

from typing import Any

OPEN, SOLUTION, END = 0, 1, 2   # what a stand-in's run() returns (interleave's RUN_* codes)


class Scripted:
    """An engine of seed ``seed`` whose n-th slice returns ``script[n]``, the last entry for
    every slice after (``OPEN`` there: a search that goes on until it is told to stop,
    between its slices)."""

    def __init__(self, seed: int, script: tuple[int, ...]) -> None:
        self.seed, self.script, self.calls = seed, script, 0

    def run(self, seconds, conflicts=0):
        self.calls += 1
        return self.script[min(self.calls, len(self.script)) - 1]

    def solution(self):
        return b"\x01"

    def root(self):
        return b"\x02"

    def stats(self):
        return {"conflicts": self.calls, "learned": 0, "explanations": 0, "explained_literals": 0}


def stand_in_lcg(monkeypatch: Any, scripts: dict[int, tuple[int, ...]],
                 others: tuple[int, ...] | None = None) -> list[Scripted]:
    """lcg's engine module replaced: the engine of seed ``s`` follows ``scripts[s]``, of a
    seed not there ``others`` (the engines built, listed in order)."""
    from nonolab.solvers import lcg
    from nonolab.solvers.auto import parts, reuse

    built: list[Scripted] = []

    class Module:
        @staticmethod
        def Engine(*args, seed=0, **options):  # noqa: N802 - the compiled module's name
            script = scripts.get(seed, others)
            assert script is not None, f"no script for seed {seed}"
            built.append(Scripted(seed, script))
            return built[-1]

    monkeypatch.setattr(lcg, "engine_module", lambda: Module)
    # lcg reads its engine module as it is built, and auto copies the engine it built first
    # for equal options (auto.reuse): forget those built with the real module.
    monkeypatch.setattr(parts, "_SHARED", {})
    monkeypatch.setattr(reuse, "_SETTLED", {})
    return built
