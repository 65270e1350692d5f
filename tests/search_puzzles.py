"""Puzzles whose verdict needs a search that native's alone does not finish, for the tests
that hold every surface to the one answer of ``harness.explain`` (its default backend,
auto: native's deductions, then one ``cdcl`` step).

Knotty (``../shared/hard/knotty.non``, 40x40, two solutions) showed the bug: the stepper
and the workbench ran native's search alone, which did not finish it in minutes, and said
timeout where ``nonolab explain`` said multiple.  It is kept beside the repository, not
in it (``../shared/hard/README.md``), so a machine without ``../shared`` skips it.
:func:`dominoes_and_a_switch` has the same property on any machine, made here from
nonolab's own N-Dom generator: nothing to download, nothing to license.
"""

from __future__ import annotations

from pathlib import Path

from nonolab.bench.suites import n_dom
from nonolab.core.puzzle import Puzzle
from nonolab.formats import dumps

KNOTTY = Path(__file__).resolve().parents[2] / "shared" / "hard" / "knotty.non"
#: Search nodes native's search alone is given in :func:`native_alone_stalls`: the
#: dominoes took it over 800,000 without an answer (benchmarks/log/2026-11-27-tidy-10.md).
NATIVE_NODES = 100_000


def dominoes_and_a_switch(n: int = 9) -> Puzzle:
    """N-Dom (9-Dom is webpbn #8098: unique, and its proof defeats search without learning)
    beside a 2x2 switch (two solutions): (2N+3) x (2N+3), exactly two solutions (lcg and
    cpsat count them, nonosolve says multiple).  Line logic and probing stall on the
    dominoes, so its verdict needs search, and native's alone does not end in
    :data:`NATIVE_NODES` nodes; auto's one ``cdcl`` step answers at once."""
    dom = n_dom(n)
    return Puzzle(rows=(*dom.rows, (1,), (1,)), columns=(*dom.columns, (1,), (1,)),
                  name=f"{n}-dom and a switch")


def write_dominoes(folder: Path) -> Path:
    """:func:`dominoes_and_a_switch` as a ``.non`` file in ``folder``."""
    path = folder / "dominoes-and-a-switch.non"
    path.write_text(dumps(dominoes_and_a_switch(), "non"), encoding="utf-8")
    return path


def native_alone_stalls(path: Path) -> bool:
    """Native's search alone, recording its steps as the stepper once did, ends without a
    verdict within :data:`NATIVE_NODES` nodes (bounded work, not time)."""
    from nonolab.formats import load
    from nonolab.harness.explanation import explain

    found = explain(load(path), f"native:node_limit={NATIVE_NODES}")
    return found.verdict.value == "timeout"
