"""Deliberately broken backends, registered by tests to prove the harness catches them."""

from __future__ import annotations

from nonolab.core import Solution
from nonolab.solvers.base import Limits, SolveResult, Stats, Status, checked_solutions


class UndercountingSolver:
    """Claims an exhausted search after the first solution: a wrong exact count."""

    name = "undercount"

    def solve(self, puzzle, limits=Limits()):
        from nonolab.solvers.native import NativeSolver
        first = NativeSolver().solve(puzzle, Limits(max_solutions=1))
        return SolveResult(first.status, first.solutions, True, Stats(self.name))


class WrongPictureSolver:
    """Returns a picture that breaks the clues."""

    name = "wrongpicture"

    def solve(self, puzzle, limits=Limits()):
        bad = Solution(tuple((1,) * puzzle.width for _ in range(puzzle.height)))
        return SolveResult(Status.SOLVED, checked_solutions(puzzle, [bad], self.name), True, Stats(self.name))


class CrashingSolver:
    name = "crash"

    def solve(self, puzzle, limits=Limits()):
        raise RuntimeError("segfault imitation")


class StuckSolver:
    """Hangs on every puzzle of more than four cells, ignoring its time limit (a native
    library stuck in a loop); it answers the 2x2 puzzle a batch worker warms up on."""

    name = "stuck"

    def solve(self, puzzle, limits=Limits()):
        if puzzle.width * puzzle.height > 4:
            import time
            time.sleep(3600)
        return SolveResult(Status.TIMEOUT, (), False, Stats(self.name))


class DyingSolver:
    """Ends its whole process on every puzzle of more than four cells (a segfault)."""

    name = "dying"

    def solve(self, puzzle, limits=Limits()):
        if puzzle.width * puzzle.height > 4:
            import os
            os._exit(139)
        return SolveResult(Status.TIMEOUT, (), False, Stats(self.name))


class TimingOutSolver:
    """Runs out of time on every puzzle without finding anything (a limit too small to answer)."""

    name = "timingout"

    def solve(self, puzzle, limits=Limits()):
        return SolveResult(Status.TIMEOUT, (), False, Stats(self.name))
