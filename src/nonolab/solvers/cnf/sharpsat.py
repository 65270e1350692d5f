"""The sharpsat backend: an exact model counter (Ganak, through ``pyganak``) on the regular CNF.

Enumeration pays for every solution; a #SAT counter splits the formula into independent
components and counts each once, so it gives exact counts where enumeration is hopeless
(a puzzle of 40 independent switches: 2**40 solutions in under a second).  Ganak was
chosen by measurement over d4 (``d4solver``): 10x faster on the one corpus puzzle both
counted (benchmarks/log/2026-11-26-certify.md).

The counter runs only when the total is asked for (``max_solutions=None``).  A count to a
limit (``check``'s count to 2) is answered by CaDiCaL enumerating on the same CNF, each
solution blocked once found, up to one past the limit: more than the limit is then known
without counting (an exact count of a sparse puzzle's billions of solutions took minutes,
for a question one more solution answers), and fewer is an exhausted search, so exact.

The count is projected on the cell variables (the automaton variables are functionally
determined by the cells, ``models/cnf.md``, so the projection changes no count; it lets
Ganak skip them).  Ganak cannot be interrupted: it runs in a child process, killed at the
deadline or on a cancel.  The pictures it counts are not listed by it: two of them are
enumerated by CaDiCaL on the same CNF, verified as every backend's are, and their number
must agree with the count (else :class:`~nonolab.errors.WrongAnswer`: two independent
engines disagree); ``SolveResult.total`` holds the count.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from nonolab.core.puzzle import Puzzle
from nonolab.core.words import counted
from nonolab.errors import BackendUnavailable, LimitReached, WrongAnswer
from nonolab.solvers.base import Capability, Given, Limits, SolveResult, Budget, accept, finish
from nonolab.solvers.options import settle

__all__ = ["SharpSatSolver"]

# Pictures listed when everything is counted: enough to show a puzzle is not unique.
WITNESSES = 2


class SharpSatSolver:
    """Exact model counting with Ganak over the regular CNF.

    >>> from nonolab.core import Puzzle
    >>> result = SharpSatSolver().solve(Puzzle(rows=((1,), (1,)), columns=((1,), (1,))), Limits(max_solutions=None))
    >>> result.count, result.complete, len(result.solutions)
    (2, True, 2)
    """

    name = "sharpsat"
    CAPABILITIES = frozenset({Capability.EXACT_COUNT, Capability.GIVEN_CELLS, Capability.MODEL_COUNT})
    OPTIONS = ()

    def __init__(self, **options: Any) -> None:
        settle(self, options)  # none declared: refuses any, as every backend does
        try:
            import pyganak  # noqa: F401 -- only whether it loads
        except ImportError as exc:
            raise BackendUnavailable(f"backend 'sharpsat' needs pyganak ({exc}); install it with: "
                                     f"pip install 'nonolab[sharpsat]'") from exc

    def solve(self, puzzle: Puzzle, limits: Limits = Limits(), given: Given | None = None) -> SolveResult:
        """Count the solutions (extending ``given``'s cells) exactly, and list some of them.

        Returns:
            with ``limits.max_solutions`` None: SOLVED or UNSAT, ``complete``, the count
            in ``total`` (Ganak's) and two of the solutions; with a limit, as an
            enumeration to it: all the solutions, ``complete``, when there are at most that
            many, else SOLVED with that many, not complete (the counter is not run);
            TIMEOUT or INTERRUPTED when the deadline or the cancel came first.
        """
        from nonolab.solvers.cnf.encode import cells_as_assumptions, encode

        watch = Budget.of(limits)
        given = accept(self, puzzle, given)
        try:
            enc = encode(puzzle, watch.expired)
        except LimitReached:
            return finish(self.name, puzzle, limits, watch, (), False, {})
        clauses = enc.clauses + [[lit] for lit in cells_as_assumptions(given.cells, puzzle.width, puzzle.height)]
        if limits.max_solutions is not None:   # one past the limit says "more" without a count
            found, exhausted, _ = _witnesses(clauses, enc.num_cells, puzzle.width, limits.max_solutions + 1, watch)
            counters: dict[str, Any] = {"enumerated": len(found)}
            return finish(self.name, puzzle, limits, watch, found[:limits.max_solutions], exhausted, counters)
        rest, free = _simplified(clauses, enc.num_vars, enc.num_cells)
        total = 0 if rest is None else _count(rest, enc.num_vars, free, watch)
        counters = {"count_time": round(watch.elapsed(), 6)}
        if total is None:
            return finish(self.name, puzzle, limits, watch, (), False, counters)
        wanted = min(total, WITNESSES)
        found, _, timed_out = _witnesses(clauses, enc.num_cells, puzzle.width, wanted, watch)
        if not timed_out and len(found) != wanted:
            raise WrongAnswer(f"backend 'sharpsat': Ganak counted {counted(total, 'solution')} but CaDiCaL found "
                              f"{len(found)} of the {wanted} asked for")
        counters["model_count"] = total
        result = finish(self.name, puzzle, limits, watch, found, not timed_out, counters)
        return dataclasses.replace(result, total=total) if not timed_out else result


def _simplified(clauses: list[list[int]], variables: int,
                cells: int) -> tuple[list[list[int]] | None, list[int]]:
    """The clauses once unit propagation (the complete line solver, ``models/cnf.md``) has
    fixed what it can, and the cells it left open; ``None`` when it finds a contradiction.
    A line-solvable puzzle leaves nothing to count, and Ganak's preprocessing of a large
    formula (60x35 castle: over 20 s) is skipped."""
    from nonolab.solvers.cnf.solver import _pysat_solvers

    guard = variables + 1  # python-sat's propagate() hides what is implied at level 0
    with _pysat_solvers().Solver(name="minisat22", bootstrap_with=[c + [-guard] for c in clauses]) as sat:
        ok, implied = sat.propagate(assumptions=[guard])
    if not ok:
        return None, []
    fixed = set(implied) - {guard}
    rest = []
    for clause in clauses:
        if not any(lit in fixed for lit in clause):
            rest.append([lit for lit in clause if -lit not in fixed])
    return rest, [v for v in range(1, cells + 1) if v not in fixed and -v not in fixed]


def _witnesses(clauses: list[list[int]], cells: int, width: int, wanted: int,
               watch: Budget) -> tuple[list[Any], bool, bool]:
    """Up to ``wanted`` pictures, enumerated by CaDiCaL: ``(found, exhausted, timed out)``,
    exhausted when the solver proved there were no more (so fewer than ``wanted``: it stops
    at ``wanted`` without asking)."""
    from nonolab.solvers.cnf.calls import Limited, load_clauses
    from nonolab.solvers.cnf.solver import _black_and_white, _enumerate, _pysat_solvers, time_limit_mode

    if wanted == 0:
        return [], False, False
    with _pysat_solvers().Solver(name="cadical195") as sat:
        if not load_clauses(sat, clauses, watch):
            return [], False, True
        run = Limited(sat, time_limit_mode("cadical195"), watch)
        try:
            found, exhausted, timed_out = _enumerate(sat, run, [], _black_and_white(cells, width), wanted)
        finally:
            run.close()
    return found, exhausted, timed_out


def _count(clauses: list[list[int]], variables: int, cells: list[int], watch: Budget) -> int | None:
    """Ganak's count of the models projected on the variables ``cells``, in a child process
    killed at the deadline or on the cancel; ``None`` when it was stopped.  The formula and
    the answer pass through files (no pipe to fill while the parent watches the clock)."""
    import tempfile

    package_root = str(Path(__file__).resolve().parents[3])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
    if not cells:
        return 1  # every cell fixed, and no contradiction: one picture
    with tempfile.TemporaryDirectory(prefix="nonolab-sharpsat-") as work:
        formula, answer = Path(work) / "formula.cnf", Path(work) / "count.txt"
        with open(formula, "w", encoding="ascii") as out:
            out.write(f"c cells {' '.join(map(str, cells))}\n")
            out.write(f"p cnf {variables} {len(clauses)}\n")
            out.writelines(" ".join(map(str, c)) + " 0\n" for c in clauses)
        with open(Path(work) / "log.txt", "w") as log:
            child = subprocess.Popen([sys.executable, "-m", "nonolab.solvers.cnf.sharpsat", str(formula), str(answer)], stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                                     start_new_session=True)
            try:
                while child.poll() is None:
                    if watch.expired():
                        return None
                    time.sleep(0.01)
            finally:
                if child.poll() is None:
                    child.kill()
                child.wait()
        if child.returncode == 0 and answer.is_file():
            return int(answer.read_text(encoding="ascii"))
        lines = (Path(work) / "log.txt").read_text(errors="replace").strip().splitlines()
    raise BackendUnavailable(f"backend 'sharpsat': the counter failed (exit code {child.returncode}): "
                             f"{lines[-1] if lines else 'no output'}")


def _child(formula: str, answer: str) -> None:
    """The child process: count the DIMACS ``formula`` projected on the variables of its
    first line (``c cells ...``) and write the count into ``answer``."""
    import pyganak

    counter = pyganak.Counter()
    with open(formula, encoding="ascii") as lines:
        cells = [int(x) for x in next(lines).split()[2:]]
        counter.new_vars(int(next(lines).split()[2]))
        counter.add_clauses([[int(x) for x in line.split()[:-1]] for line in lines if line.strip()])
    counter.set_sampling_set(cells)
    count = counter.count()
    Path(answer).write_text(str(count), encoding="ascii")


if __name__ == "__main__":
    _child(*sys.argv[1:3])
