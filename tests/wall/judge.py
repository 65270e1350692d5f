"""One backend variant on one wall puzzle, held to the oracle.

What is asked depends only on what the backend declares:

* ``COLOUR``: colour puzzles at all (the others are not asked them);
* ``GIVEN_CELLS`` / ``IMPLICATIONS`` / ``HINT``: on some puzzles (chosen by the
  puzzle's seed) the search runs under the puzzle's random givens, its random
  implication, or a hint (a picture of the right size), and the oracle's answer is
  filtered the same way (a hint changes nothing);
* ``EXACT_COUNT``: the solutions, counted up to ``cap``, must be exactly the oracle's
  (all of them and ``complete`` when there are fewer than ``cap``; ``cap`` distinct
  ones of them otherwise, and never ``complete`` when there are more than ``cap``: a
  search stopped at its cap has proved nothing of the rest, so "unique" from a count to 1
  of a puzzle with two is wrong); without it, every solution must be one of the oracle's and
  "no solution" may only be said of a puzzle that has none;
* the cap varies with the puzzle (:func:`cap_of`): a first solution (1), a uniqueness
  check (2), 3, or a count (64), so that every path a backend takes by its cap (``auto``'s
  first-solution rival and its count relay) is asked;
* ``REMAINDER``: a search stopped by a bounded variant's limit has a remainder that every
  solution it does not list agrees with (:func:`remainder_problem`);
* a step log (``result.steps``, the backends that declare ``STEPS`` with
  ``record_steps``): replaying it never sets a cell twice; every cell decided before
  the first guess or hand-off to a solver agrees with every solution; every cell it
  decides agrees with the first solution found.

A variant marked ``bounded`` may stop (timeout) or refuse; any other stop is wrong
(after a second try).
A typed refusal (:class:`~nonolab.errors.InvalidArgument`, ``TooLarge``,
``BackendUnavailable``) is counted, never wrong: the wall's report lists them.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from tests.wall import brute
from tests.wall.puzzles import Case
from tests.wall.variants import Variant

AGREE, STOPPED, REFUSED, WRONG = "agree", "stopped", "refused", "wrong"
TIME_LIMIT = 120.0      # a safety stop only (each puzzle is at most 8x8): a hang ends as a wrong answer
# The caps a puzzle is counted to (chosen by its seed): a first solution, a uniqueness check
# (count to 2), 3, and a count; half the puzzles the count.
CAPS = (1, 2, 2, 3, 64, 64, 64, 64)


def cap_of(case: Case) -> int:
    """The number of solutions ``case`` is counted to (:data:`CAPS`, by its seed).

    >>> from tests.wall.puzzles import case
    >>> cap_of(case("doc-1", 1)) in CAPS, cap_of(case("doc-1", 1)) == cap_of(case("doc-1", 1))
    (True, True)
    """
    return random.Random(f"cap-{case.seed}").choice(CAPS)


@dataclass(frozen=True)
class Question:
    """What a variant is asked about a case (the puzzle's own terms)."""

    givens: dict
    implications: tuple
    hint: tuple | None


@dataclass(frozen=True)
class Verdict:
    outcome: str
    detail: str = ""
    steps: int = 0          # the steps of the log it replayed


def question(case: Case, capabilities: frozenset) -> Question:
    """The givens, implications and hint ``case`` carries for a backend declaring ``capabilities``."""
    from nonolab.solvers import Capability

    rnd = random.Random(f"question-{case.seed}")
    givens = case.givens if Capability.GIVEN_CELLS in capabilities and rnd.random() < 0.5 else {}
    implications = ((case.implication,) if Capability.IMPLICATIONS in capabilities and rnd.random() < 0.4
                    and case.implication else ())
    hint = None
    if Capability.HINT in capabilities and rnd.random() < 0.5:
        hint = tuple(tuple(rnd.randint(0, case.colours) for _ in range(case.width)) for _ in range(case.height))
    return Question(givens, implications, hint)


def truth(case: Case, q: Question, cap: int) -> frozenset:
    """The oracle's solutions under ``q``, at most ``cap`` + 1 (enough to tell "cap or
    more"; a solution beyond them is judged by :func:`~tests.wall.brute.fits`).  Kept
    for the next variant asked the same question."""
    return _truth(case.rows, case.columns, case.values, tuple(sorted(q.givens.items())), q.implications, cap)


@lru_cache(maxsize=20000)
def _truth(rows, columns, values: int, givens: tuple, implications: tuple, cap: int) -> frozenset:
    if not implications:
        return frozenset(brute.solutions(rows, columns, values, dict(givens), limit=cap + 1))
    found = sorted(p for p in brute.solutions(rows, columns, values, dict(givens))
                   if all(p[r1][c1] != v1 or p[r2][c2] == v2 for (r1, c1, v1), (r2, c2, v2) in implications))
    return frozenset(found[:cap + 1])


def _given(q: Question, colour: bool):
    from nonolab.core import Solution
    from nonolab.solvers import Given

    hint = None
    if q.hint is not None:
        hint = Solution.from_values(q.hint) if colour else Solution(q.hint)
    return Given.of(q.givens, q.implications, hint) if (q.givens or q.implications or hint) else None


def _solve(solver, case: Case, q: Question, cap: int, time_limit: float | None):
    from nonolab.solvers import Limits

    return solver.solve(case.puzzle(), Limits(max_solutions=cap, time_limit=time_limit), _given(q, case.colours > 1))


def ask(variant: Variant, solver, case: Case, cap: int | None = None, second_try: bool = False) -> Verdict:
    """Run ``solver`` (built from ``variant``) on ``case``, counting to ``cap`` (by default
    :func:`cap_of` the case), and judge its answer.

    :data:`TIME_LIMIT` is a safety stop, not a measure: a variant that refuses it (a SAT
    solver that cannot be interrupted) is asked again without one, and an unbounded
    variant that stops is asked once more before its stop counts as wrong (a loaded
    machine can starve one run past the safety stop; a wrong stop stops twice).
    """
    from nonolab.errors import BackendUnavailable, InvalidArgument, TooLarge
    from nonolab.solvers import Capability, Status

    cap = cap_of(case) if cap is None else cap
    q = question(case, variant.capabilities)
    expected = truth(case, q, cap)
    refusals = (InvalidArgument, TooLarge, BackendUnavailable)
    try:
        try:
            result = _solve(solver, case, q, cap, TIME_LIMIT)
        except refusals:
            result = _solve(solver, case, q, cap, None)
    except refusals as err:
        return Verdict(REFUSED, f"{type(err).__name__}: {err}")
    except Exception as err:  # noqa: BLE001 - a wrong solution (WrongAnswer) or a crash: both are findings
        return Verdict(WRONG, f"raised {type(err).__name__}: {err}")
    got = [s.cells for s in result.solutions]
    if any(not _allowed(case, q, g) for g in got):
        return Verdict(WRONG, "a solution that breaks the clues, the givens or the implications")
    if result.status in (Status.TIMEOUT, Status.INTERRUPTED):
        if variant.bounded:
            wrong = remainder_problem(result, got, expected, cap, variant.capabilities)
            return Verdict(WRONG, wrong) if wrong else Verdict(STOPPED, result.status.value)
        if not second_try:
            return ask(variant, solver, case, cap, second_try=True)
        return Verdict(WRONG, f"stopped ({result.status.value}) twice with no limit set, {len(got)} solutions found")
    if Capability.EXACT_COUNT in variant.capabilities:
        wrong = _count_problem(result, got, expected, cap)
    else:
        wrong = "said no solution to a puzzle that has some" if result.status is Status.UNSAT and expected else ""
    if not wrong and result.steps:
        wrong = steps_problem(case, result.steps, expected, got)
    return Verdict(WRONG, wrong, len(result.steps)) if wrong else Verdict(AGREE, "", len(result.steps))


def _allowed(case: Case, q: Question, picture) -> bool:
    return (brute.fits(picture, case.rows, case.columns, q.givens)
            and all(picture[r1][c1] != v1 or picture[r2][c2] == v2 for (r1, c1, v1), (r2, c2, v2) in q.implications))


def remainder_problem(result, got: list, expected: frozenset, cap: int, capabilities: frozenset) -> str:
    """What is wrong with a stopped search's remainder (``REMAINDER``), or '': every solution it
    does not list must have each cell the remainder decided (1 empty, 2 filled, as
    ``Given.from_grid`` reads it), else a solver searching the remainder for the rest, as
    ``auto`` does, loses it (audit 14: native's left out the solutions the deadline left unchecked)."""
    from nonolab.solvers import Capability

    if Capability.REMAINDER not in capabilities or len(expected) >= cap or result.remainder is None:
        return ""
    cells = result.remainder.cells
    for picture in expected - set(got):
        values = [v for row in picture for v in row]
        for i, (state, value) in enumerate(zip(cells, values)):
            if state in (1, 2) and state != {0: 1, 1: 2}.get(value):
                return f"the remainder sets cell {divmod(i, len(picture[0]))} to {state - 1}, a solution not listed has {value}"
    return ""


def _count_problem(result, got: list, expected: frozenset, cap: int) -> str:
    from nonolab.solvers import Status

    if len(expected) < cap:
        if set(got) != expected or not result.complete:
            return (f"found {len(set(got))} solutions (complete: {result.complete}, {result.status.value}), "
                    f"brute force {len(expected)}")
        if (result.status is Status.UNSAT) != (not expected):
            return f"status {result.status.value} with {len(expected)} solutions"
        return ""
    if len(set(got)) != cap:
        return f"found {len(set(got))} solutions, brute force {cap} or more"
    if result.complete and len(expected) > cap:
        return f"complete with {cap} solutions of a puzzle that has more (counted to {cap})"
    return ""


def steps_problem(case: Case, steps, expected: frozenset, got: list) -> str:
    """What is wrong with a step log (see the module notes), or ''."""
    from nonolab.solvers import Technique, replay

    try:
        list(replay(case.puzzle(), steps))
    except ValueError as err:
        return f"step log: {err}"
    searching = False
    for i, step in enumerate(steps):
        searching = searching or step.technique in (Technique.GUESS, Technique.CDCL) or step.depth > 0
        for r, c, value in step.cells:
            if not searching and any(p[r][c] != value for p in expected):
                return f"step {i + 1} ({step.describe()}) sets ({r}, {c}) to {value} before any search, " \
                       "against a solution"
            if got and got[0][r][c] != value:
                return f"step {i + 1} ({step.describe()}) sets ({r}, {c}) to {value}, not the first solution's"
    return ""


def save(case: Case, variant: Variant, verdict: Verdict, folder: Path) -> Path:
    """Write a disagreement to ``folder``: the puzzle (nonolab's JSON, which
    ``nonolab count`` reads) and beside it what was asked and answered."""
    from nonolab.formats import dump

    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{case.seed}--{variant.spec.replace(':', '_').replace(',', '_').replace('=', '-')}"
    dump(case.puzzle(), folder / f"{stem}.json", "json")
    q = question(case, variant.capabilities)
    record = {"spec": variant.spec, "seed": case.seed, "kind": case.kind, "verdict": verdict.outcome,
              "detail": verdict.detail, "givens": [[r, c, v] for (r, c), v in sorted(q.givens.items())],
              "implications": [list(map(list, pair)) for pair in q.implications], "hint": q.hint}
    (folder / f"{stem}.answer.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return folder / f"{stem}.json"
