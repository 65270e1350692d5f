"""The auto/native seam: auto's strategies work with a public ``Parts``, a strategy's
answer is a part's answer relabelled (``SolveResult.relabelled``), and native is followed
through one observer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.solvers import get
from nonolab.solvers.auto.parts import Parts
from nonolab.solvers.base import Limits, SolveResult, Stats, Status

AUTO = Path(__file__).resolve().parents[2] / "src" / "nonolab" / "solvers" / "auto"
# 120 solutions: native's search finds two long before it has exhausted the space.
PERMUTATIONS = Puzzle.from_solution(Solution.from_rows(["#....", ".#...", "..#..", "...#.", "....#"]))


def test_relabelled_keeps_the_answer_and_passes_the_remainder_on_unbuilt():
    built = []
    solution = Solution.from_rows(["#"])
    part = SolveResult(Status.TIMEOUT, (solution,), False, Stats("native", 0.5, {"nodes": 7}), ("step",),
                       lambda: built.append(1) or "the grid", 3)
    mine = part.relabelled("auto", 0.75, {"phase": "native"})
    assert built == []  # not built by relabelling
    assert (mine.status, mine.solutions, mine.complete, mine.steps, mine.total) == (
        Status.TIMEOUT, (solution,), False, ("step",), 3)
    assert mine.stats == Stats("auto", 0.75, {"phase": "native"})
    assert mine.remainder == "the grid" and built == [1]


@pytest.mark.parametrize("options", [{"early": False}, {"race": False}, {"rival": "native"}],
                         ids=["duel", "one engine", "rival=native"])
def test_native_s_answer_as_auto_s_keeps_its_remainder(options):
    # Native reaches max_solutions within its budget: its answer is auto's, and so is its
    # remainder (every solution it did not return agrees with it), on every strategy.
    result = get("auto", solo_side=0, **options).solve(PERMUTATIONS, Limits(max_solutions=2))
    assert result.stats.counters["phase"] == "native" and result.stats.backend == "auto"
    assert result.status is Status.SOLVED and not result.complete and result.count == 2
    assert result.remainder is not None
    everything = get("native").solve(PERMUTATIONS, Limits(max_solutions=None)).solutions
    for solution in set(everything) - set(result.solutions):
        flat = solution.flat()
        assert all(state in (3, 1 + flat[i]) for i, state in enumerate(result.remainder.cells))


def test_the_parts_are_read_once_from_the_solver_s_options():
    auto = get("auto", native_budget=0.25, handoff_by=2.0, rival_nice=3, fix_cells=False, solo_side=0)
    parts = auto.parts()
    assert parts is auto.parts() and isinstance(parts, Parts)
    assert (parts.name, parts.first, parts.fix_cells) == ("auto", auto.cdcl, False)
    assert (parts.schedule.native_budget, parts.schedule.rival_nice, parts.schedule.solo_side) == (0.25, 3, 0)
    # Native hands over once its root is over and the budget spent, or at handoff_by.
    assert parts.hand_off_times() == {"hand_off_after": 0.25, "hand_off_by": 2.0}
    assert get("auto", native_budget=9.0).parts().hand_off_times()["hand_off_by"] == 9.0


@pytest.mark.parametrize("module", sorted(path.name for path in AUTO.glob("*.py") if path.name != "__init__.py"))
def test_no_strategy_reaches_into_another_object_s_privates(module):
    text = (AUTO / module).read_text(encoding="utf-8")
    # No module imports the solver (a doctest may build one, as a user would).
    assert re.findall(r"^(?:from nonolab\.solvers\.auto import|if TYPE_CHECKING)", text, re.M) == []
    assert re.findall(r"\b(?!self\b)[A-Za-z_]\w*\._[a-z]\w*", text) == []
