"""``explain``: the steps that solve a puzzle, with the verdict beside them.

One answer for every surface that shows steps (``nonolab explain``, ``render --steps``,
the workbench): :func:`explain` runs a backend that records its steps with a count to
2, so the same run gives the step log and the verdict in the one vocabulary
(:class:`~nonolab.harness.uniqueness.Verdict`).  Its default backend is the registry's
default (``auto``: native's deductions, then one ``cdcl`` step when they stall), the one
every surface asks unless told otherwise: a stepper of native's search alone could run
out of time on a puzzle (Knotty) whose verdict ``explain`` gave in a fraction of a second.  Auto
records them on a path decided by work, not by the clock (:mod:`nonolab.solvers.auto.recorded`), so
a puzzle has one step log on any machine, however loaded.  The steps lead to the first solution
found; a step of search (a ``guess``, or what ``cdcl`` decided after auto's hand-off) is
marked as such, and a puzzle with two solutions is never said to be solved as if it
were unique.

>>> from nonolab.core import Puzzle
>>> e = explain(Puzzle(rows=((1,), ()), columns=((1,), ())), "native")
>>> e.verdict.value, len(e.steps), e.search_steps, e.summary()
('unique', 3, 0, 'unique: 3 steps of deduction solve it: 3 line')
>>> switch = explain(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), "native")
>>> switch.verdict.value, switch.search_steps > 0
('multiple', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nonolab.core.grid import Solution
from nonolab.core.puzzle import Puzzle, require_puzzle
from nonolab.core.words import counted
from nonolab.errors import InvalidArgument
from nonolab.harness.uniqueness import Verdict, said, verdict_of
from nonolab.solvers import DEFAULT, capabilities_of, build, names, parse_spec, solver_for
from nonolab.solvers.base import Capability, Limits, SolveResult, Solver

__all__ = ["Explanation", "explain", "RECORD_BYTES_PER_CELL"]

#: What ``explain --json``'s record costs a cell beyond the engine's step log: its steps
#: are written a block of cells at a time (``Step.json_chunks``), so what remains a cell
#: is the two solutions' rows and their text.  Measured (benchmarks/log/2026-11-26-limits-4.md,
#: ``/usr/bin/time -v``): 34 bytes a cell in all at 25 M and 100 M cells of a blank grid, 68 at
#: 25 M of a smooth one, the same as ``explain --no-grid`` to within 2 MB; before the stream,
#: 540 bytes a cell (2.2 GB at 4 M cells).  The command holds the engine's figure plus this
#: to the memory budget before it searches.
RECORD_BYTES_PER_CELL = 8


@dataclass(frozen=True)
class Explanation:
    """What :func:`explain` found.

    Attributes:
        puzzle: the puzzle.
        verdict: unique, multiple, contradiction, timeout or interrupted (an exact count
            to 2 in the same run as the steps).
        steps: the step log (:class:`~nonolab.solvers.steps.Step`), in order, up to the
            first solution found (or the contradiction, or the limit).
        solution: the first solution found, the one the steps lead to (``None`` without one).
        result: the backend's whole answer (counters, both solutions of ``multiple``).
    """

    puzzle: Puzzle
    verdict: Verdict
    steps: tuple[Any, ...]
    solution: Solution | None
    result: SolveResult

    def __repr__(self) -> str:
        return f"Explanation({said(self)}, {counted(len(self.steps), 'step')}, {self.search_steps} of them search)"

    @property
    def search_steps(self) -> int:
        """How many steps are search (guesses, or what clause learning decided), not deduction."""
        return sum(step.technique.is_search for step in self.steps)

    def techniques(self) -> dict[str, int]:
        """Steps of each technique, in order of first use."""
        counts: dict[str, int] = {}
        for step in self.steps:
            counts[step.technique.value] = counts.get(step.technique.value, 0) + 1
        return counts

    def summary(self) -> str:
        """One line, the verdict first: what the steps reach and whether search was needed.

        ``multiple: 34 steps reach one of at least 2 solutions (1 of them search): ...``;
        ``unique: 8 steps of deduction solve it: ...``; ``contradiction: ...``.
        """
        n = len(self.steps)
        kinds = ", ".join(f"{count} {kind}" + (" (search)" if kind in ("guess", "cdcl") else "")
                          for kind, count in self.techniques().items()) or "no steps"
        steps = counted(n, "step")
        s = "s" * (n == 1)   # the verb agrees: "1 step reaches", "2 steps reach"
        searched = f" ({self.search_steps} of them search)" if self.search_steps else ""
        verdict = self.verdict
        if verdict is Verdict.UNIQUE:
            how = f"of deduction solve{s} it" if not self.search_steps else f"solve{s} it{searched}"
            return f"unique: {steps} {how}: {kinds}"
        if verdict is Verdict.MULTIPLE:
            known = self.result.count if self.result.complete else f"at least {self.result.count}"
            return f"multiple: {steps} reach{'e' * bool(s)}{s} one of {known} solutions{searched}: {kinds}"
        if verdict is Verdict.CONTRADICTION:
            if not n:   # (givens that break a line's clue at once: nothing to show, and no "0 steps: no steps")
                return "contradiction: no solution, found before any step"
            return f"contradiction: {steps} before no solution was left: {kinds}"
        return f"{verdict.value}: {steps} before the search stopped{searched}: {kinds}"

    def as_dict(self, steps: bool = True) -> dict[str, Any]:
        """JSON-ready data: the backend's record (solutions, counters), the verdict, the
        number of search steps and every step (the shape is ``nonolab/schemas/explain.json``);
        without ``steps``, all but the steps (a front end that writes them a piece at a
        time: :meth:`~nonolab.solvers.steps.Step.json_chunks`)."""
        data = {**self.result.as_dict(), "verdict": self.verdict.value, "search_steps": self.search_steps}
        return {**data, "steps": [step.as_dict() for step in self.steps]} if steps else data


def explain(puzzle: Puzzle, backend: str | Solver = DEFAULT, time_limit: float | None = None, *,
            cancel: Any = None) -> Explanation:
    """The steps that solve ``puzzle``, and its verdict from the same run.

    Args:
        puzzle: the puzzle.
        backend: a spec of a backend that records steps
            (:attr:`~nonolab.solvers.base.Capability.STEPS`: native, or auto, whose
            native deductions end in one ``cdcl`` step when they stall: the default), built
            here with ``record_steps=True``; or a solver already built to record them.
        time_limit: wall seconds.
        cancel: a ``threading.Event`` that stops the search (verdict ``interrupted``).

    Raises:
        InvalidArgument: the backend does not record steps.
    """
    puzzle = require_puzzle(puzzle, "explain")
    if isinstance(backend, str):
        name = parse_spec(backend)[0]
        if Capability.STEPS not in capabilities_of(name):
            able = ", ".join(n for n in names() if Capability.STEPS in capabilities_of(n))
            raise InvalidArgument(f"backend {backend!r} cannot record its steps; explain needs one that can ({able})")
        solver = build(backend, record_steps=True)
    else:
        solver = solver_for(backend, "explain")
    # A count to 2: the steps are those of the way to the first solution, and the
    # second one (or the exhausted search) is the verdict.
    result = solver.solve(puzzle, Limits(2, time_limit, cancel))
    return Explanation(puzzle, verdict_of(result), tuple(result.steps), result.solution, result)
