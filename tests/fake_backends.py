"""Deliberately broken or awkward backends, registered by tests to prove the harness and the generator cope."""

from __future__ import annotations

from nonolab.core import Solution
from nonolab.solvers.base import (Capability, Limits, SolveResult, Stats, Status, Budget, accept,
                                  checked_solutions, finish)


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


class RotatingPairSolver:
    """An exact count whose witnesses change from call to call, as a race's do with timing:
    the solutions lcg enumerates (a few beyond those asked), rotated by a random number of
    places on each call.  It declares an exact count, never reproducibility."""

    name = "rotating"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT})
    calls = 0

    def solve(self, puzzle, limits=Limits(), given=None):
        from nonolab.solvers.lcg import LcgSolver
        watch = Budget.of(limits)
        accept(self, puzzle, given)
        wanted = limits.max_solutions
        every = LcgSolver().solve(puzzle, Limits(None if wanted is None else wanted + 6, limits.time_limit))
        found = list(every.solutions)
        import random
        RotatingPairSolver.calls += 1
        shift = random.SystemRandom().randrange(len(found)) if found else 0
        found = found[shift:] + found[:shift]
        kept = found if wanted is None else found[:wanted]
        return finish(self.name, puzzle, limits, watch, kept, every.complete and len(kept) == len(found))


class QuestionsCut:
    """cnf that answers its first ``answered`` questions and runs out of time on every
    later one: a time limit that ends inside an ambiguity report, without the clock."""

    name = "cnf"

    def __init__(self, answered: int):
        from nonolab.solvers.cnf import CnfSolver
        self.inner, self.left = CnfSolver(), answered
        self.CAPABILITIES = self.inner.CAPABILITIES - {Capability.SESSION}   # every question a solve

    def solve(self, puzzle, limits=Limits(), given=None):
        if self.left <= 0:
            return SolveResult(Status.TIMEOUT, (), False, Stats(self.name))
        self.left -= 1
        return self.inner.solve(puzzle, limits, given)


class BatchingFaultySolver:
    """Declares ``Capability.BATCH`` and answers as native does, except on a puzzle named
    ``die`` (it ends its whole process, a segfault), ``hang`` (it sleeps an hour, ignoring
    its limit) or ``refuse`` (a library error, in that puzzle's place).  Its ``solve_many``
    answers a group's puzzles only once it has them all, as a compiled batch path does."""

    name = "batchfaulty"
    CAPABILITIES = frozenset({Capability.BATCH, Capability.EXACT_COUNT})

    def solve(self, puzzle, limits=Limits()):
        from nonolab.errors import TooLarge
        from nonolab.solvers.native import NativeSolver
        if puzzle.name == "die":
            import os
            os._exit(139)
        if puzzle.name == "hang":
            import time
            time.sleep(3600)
        if puzzle.name == "refuse":
            raise TooLarge("refused: the puzzle is named refuse")
        return NativeSolver().solve(puzzle, limits)

    def solve_many(self, puzzles, limits=Limits()):
        from nonolab.errors import NonolabError
        group = list(puzzles)
        for puzzle in group:
            try:
                yield self.solve(puzzle, limits)
            except NonolabError as err:
                yield err


class BatchingRaisingSolver(BatchingFaultySolver):
    """As :class:`BatchingFaultySolver`, but its ``solve_many`` raises a puzzle's library error
    (a batching backend that does not keep one puzzle's error to that puzzle)."""

    name = "batchraising"

    def solve_many(self, puzzles, limits=Limits()):
        group = list(puzzles)
        yield from (self.solve(puzzle, limits) for puzzle in group)


class ThreadsSpySolver:
    """Declares a ``threads`` option, as native does, and writes the value it was built with to
    the file named by ``NONOLAB_TEST_THREADS_LOG`` (one line a solve: the puzzle's name and the
    value), then answers as native."""

    name = "threadspy"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT})
    from nonolab.solvers.options import Option
    OPTIONS = (Option("threads", "int", None, "threads (none: every core)", minimum=1, optional=True),)
    del Option

    def __init__(self, **options):
        from nonolab.solvers.options import settle
        settle(self, options)

    def solve(self, puzzle, limits=Limits(), given=None):
        import os
        from nonolab.solvers.native import NativeSolver
        with open(os.environ["NONOLAB_TEST_THREADS_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{puzzle.name} {self.threads}\n")
        return NativeSolver().solve(puzzle, limits, given)
