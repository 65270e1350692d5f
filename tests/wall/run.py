"""Run the wall: variants x puzzles, tallied, disagreements kept.

Shared by the test suite (:mod:`tests.wall.test_wall`, a few puzzles per variant) and
the long run (``python -m benchmarks.differential``, thousands).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from tests.wall.judge import REFUSED, WRONG, Verdict, ask, save
from tests.wall.puzzles import Case
from tests.wall.variants import Variant

UNAVAILABLE = "unavailable"


@dataclass
class Tally:
    """What the wall tried: outcomes per variant spec and puzzle kind (``bw``/``colour``),
    the answers whose step log it replayed, and every disagreement."""

    outcomes: dict[str, Counter] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    wrong: list[tuple[Case, Variant, Verdict, Path | None]] = field(default_factory=list)
    step_logs: Counter = field(default_factory=Counter)   # (spec, kind): answers whose step log was replayed

    def add(self, variant: Variant, case: Case, verdict: Verdict) -> None:
        kind = "colour" if case.colours > 1 else "bw"
        self.outcomes.setdefault(variant.spec, Counter())[(kind, verdict.outcome)] += 1
        if verdict.steps:
            self.step_logs[(variant.spec, kind)] += 1

    def tried(self, spec: str, kind: str | None = None) -> int:
        return sum(n for (k, _), n in self.outcomes.get(spec, Counter()).items() if kind in (None, k))

    def answered(self, spec: str) -> int:
        """Puzzles the variant answered (not refused)."""
        return sum(n for (_, outcome), n in self.outcomes.get(spec, Counter()).items() if outcome != REFUSED)


def run(variants: Iterable[Variant], cases_for: Callable[[int, Variant], list[Case]], folder: Path | None = None,
        progress: Callable[[int, Variant], None] | None = None) -> Tally:
    """Ask every variant about ``cases_for(i, variant)`` (``i`` its place in the list);
    a variant that cannot be built (its library missing) is listed as unavailable.
    What is asked follows what the built backend declares (an option may narrow it:
    cnf with a one-shot SAT solver does not take colour).  Disagreements are saved into
    ``folder`` when one is given."""
    from nonolab.errors import BackendUnavailable
    from nonolab.solvers import Capability, capabilities

    tally = Tally()
    for i, variant in enumerate(variants):
        if progress is not None:
            progress(i, variant)
        try:
            solver = variant.build()
        except BackendUnavailable as err:
            tally.unavailable[variant.spec] = str(err)
            continue
        variant = dataclasses.replace(variant, capabilities=capabilities(solver))
        for case in cases_for(i, variant):
            if case.colours > 1 and Capability.COLOUR not in variant.capabilities:
                continue
            verdict = ask(variant, solver, case)
            tally.add(variant, case, verdict)
            if verdict.outcome == WRONG:
                path = save(case, variant, verdict, folder) if folder is not None else None
                tally.wrong.append((case, variant, verdict, path))
    return tally


def table(tally: Tally) -> str:
    """A markdown table: per variant, the puzzles tried and their outcomes, by kind."""
    lines = ["| variant | bw tried | bw agree | bw stopped | bw refused | colour tried | colour agree | "
             "colour stopped | colour refused | step logs | wrong |", "|---|" + "---:|" * 10]
    for spec, counts in tally.outcomes.items():
        cells = []
        for kind in ("bw", "colour"):
            cells += [str(tally.tried(spec, kind))] + [str(counts[(kind, o)]) for o in ("agree", "stopped", "refused")]
        wrong = counts[("bw", WRONG)] + counts[("colour", WRONG)]
        lines.append(f"| `{spec}` | " + " | ".join(cells) + f" | {tally.step_logs[(spec, 'bw')] + tally.step_logs[(spec, 'colour')]} | {wrong} |")
    for spec, why in tally.unavailable.items():
        lines.append(f"| `{spec}` | unavailable: {why} |" + " |" * 9)
    return "\n".join(lines)
