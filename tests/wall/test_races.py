"""auto's races for real, held to the brute force: the rival joins at once and wins.

The wall's ``auto`` variants run the race paths with their own budgets, where on small
puzzles the first engine (lcg) answers before any rival joins: the rival's answer, and
the merge of the two, are never judged there.  Here the rival joins after the first
engine's first slice (a zero budget), and the first engine is held to a few conflicts
(``cdcl_options``' ``conflict_limit``, which a first-solution rival, the first engine
again with ``find_seed``, inherits), so that it stops and the rival's answer is the one
returned: counts and first solutions from real engines (no stand-in), judged as the
wall judges (``tests.wall.judge``).  Conflicts are deterministic, so who answers mostly is
too (up to a slice cut by the clock, and when a rival that is a child process has started).

Every race here is ``bounded``: the first engine's work limit bounds the race (the
first-solution rival and the count relay's seeded draw inherit it; the solo path stops its
rival with the engine; the duel and colour give the others a short grace), so a ``timeout``
may be honest.  Every answer is judged.

Each race runs with the first engine as it comes and with random combinations of its
options (:mod:`tests.wall.combinations`), which the seeded rival inherits.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from nonolab.solvers import capabilities_of, get, parse_spec
from tests.wall import puzzles
from tests.wall.combinations import combinations
from tests.wall.judge import REFUSED, WRONG, ask
from tests.wall.variants import Variant

SEED = 46
CASES = 12


@dataclasses.dataclass(frozen=True)
class Race:
    """One race path: auto's options, the first engine's conflict limit, the caps asked
    (``None``: the wall's, by the puzzle's seed: 1, 2, 3 or 64) and colour or not."""

    name: str
    options: dict
    conflicts: int
    caps: tuple
    colour: bool = False


RACES = [
    # A count: the seeded draw (the limit inherited), then Kissat once it stops (auto.relay).
    # (Kissat counts by one solve per solution, in a child: to 2 or 3 here, the uniqueness check.)
    Race("count relay", {"solo_budget": 0}, 4, (2, 3)),
    # A count: Kissat, CP-SAT or cnf's incremental solver from the join.
    Race("count, Kissat", {"solo_budget": 0, "count_relay": False}, 1, (2, 3)),
    Race("count, cpsat", {"solo_budget": 0, "count_relay": False, "rival": "cpsat"}, 1, (None, 64)),
    Race("count, cnf", {"solo_budget": 0, "count_relay": False, "rival": "cnf"}, 1, (None, 64)),
    # One solution: the first engine again with find_seed, held to the same limit.
    Race("first solution", {"solo_find_budget": 0}, 4, (1,)),
    # Larger grids: native first, then lcg (held) and Kissat on native's remainder.
    Race("duel", {"solo_side": 0, "native_budget": 0}, 1, (2, 3)),
    # Colour: lcg (held) and CP-SAT from the start.
    Race("colour", {"colour_rival_after": 0}, 1, (None, 64), colour=True),
]


class _Recording:
    """A solver that keeps the counters of its last answer."""

    def __init__(self, inner):
        self.inner, self.name, self.counters = inner, inner.name, {}

    def solve(self, puzzle, limits, given=None):
        result = self.inner.solve(puzzle, limits, given)
        self.counters = result.stats.counters
        return result


def _engine_options() -> list[dict]:
    """The first engine as it comes, and two random combinations of its options."""
    return [{}] + [dict(v.options) for v in combinations("lcg", 2, SEED)]


@pytest.mark.parametrize("race", RACES, ids=[r.name for r in RACES])
def test_the_rival_answers_and_agrees_with_brute_force(race):
    wrong, outcomes, winners = [], Counter(), Counter()
    for k, engine_options in enumerate(_engine_options()):
        options = {**engine_options, "conflict_limit": race.conflicts}
        auto = _Recording(get("auto", cdcl_options=options, **race.options))
        variant = Variant("auto", tuple(race.options.items()), capabilities_of("auto"), bounded=True)
        for i, case in enumerate(puzzles.busy_cases(SEED, CASES, race.colour, 8, k * CASES)):
            cap = race.caps[i % len(race.caps)]
            verdict = ask(variant, auto, case, cap)
            outcomes[verdict.outcome] += 1
            if verdict.outcome == WRONG:
                said = {key: auto.counters.get(key) for key in ("phase", "winner", "relay_stage")}
                wrong.append(f"cdcl_options {options}, {case.seed} (cap {cap}): {verdict.detail} {said}")
            elif verdict.outcome != REFUSED:
                winners[str(auto.counters.get("winner", auto.counters.get("phase")))] += 1
    assert not wrong, f"auto {race.options}:\n" + "\n".join(wrong)
    # The race was run: a rival (any part but the first engine) answered some puzzles (the
    # fewest, the first-solution rival and the duel's: 5 and 8 of 36 here).
    first = parse_spec(get("auto").engines[0])[0]
    assert sum(n for name, n in winners.items() if name not in (first, "None")) > 0, (winners, outcomes)
