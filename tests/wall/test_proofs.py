"""The wall's proofs: every backend that declares ``PROOF``, as it comes and with random
combinations of its options (:mod:`tests.wall.combinations`), proves its complete counts.

On black-and-white wall puzzles and sparse 8x8 ones, each counted to :data:`CAP`: a
complete answer must list exactly the brute force's solutions, and its DRAT proof must
refute the puzzle's CNF plus one clause excluding each of them (checked by dratify, a
checker that shares no code with the engines).  A combination that does not prove (an
option that narrows the capability) is left out; one that refuses the puzzle is counted.
"""

from __future__ import annotations

import dataclasses

import pytest

from nonolab.errors import BackendUnavailable, InvalidArgument, TooLarge
from nonolab.solvers import Capability, capabilities, capabilities_of, names
from nonolab.solvers.base import Limits
from tests.wall import brute, puzzles
from tests.wall.combinations import combinations
from tests.wall.variants import Variant

SEED = 46
CAP = 64
COMBINATIONS = 6
WALL, BUSY = 6, 6


def _refutes(puzzle, excluded, proof_text: str) -> bool:
    """dratify's verdict on ``proof_text`` against the puzzle's CNF plus a clause per excluded picture."""
    import dratify

    from nonolab.harness import dimacs

    cnf = dimacs(puzzle)
    extra = ["".join(f"{-(i + 1) if v else i + 1} " for i, v in enumerate(s.to_bytes())) + "0" for s in excluded]
    body = cnf.partition("p cnf ")[2]
    variables, clauses = body.split("\n", 1)[0].split()[:2]
    text = f"p cnf {variables} {int(clauses) + len(extra)}\n{body.split(chr(10), 1)[1]}" + "\n".join(extra) + "\n"
    return dratify.check_proof(dratify.parse_dimacs(text), proof_text).ok


@pytest.mark.parametrize("backend", [n for n in names() if Capability.PROOF in capabilities_of(n)])
def test_complete_counts_come_with_proofs_the_checker_accepts(backend, tmp_path):
    pytest.importorskip("dratify")
    plain = Variant(backend, (), capabilities_of(backend))
    wrong, proved = [], 0
    for i, variant in enumerate([plain] + combinations(backend, COMBINATIONS, SEED)):
        try:
            solver = variant.build()
        except (BackendUnavailable, InvalidArgument):
            continue
        if Capability.PROOF not in capabilities(solver):
            continue
        cases = (puzzles.cases(SEED, WALL, False, 7, i * WALL) + puzzles.busy_cases(SEED, BUSY, False, 8, i * BUSY))
        for case in cases:
            path = tmp_path / f"{i}-{case.seed}.drat"
            try:
                result = solver.prove(case.puzzle(), Limits(max_solutions=CAP), path)
            except (InvalidArgument, TooLarge, BackendUnavailable):
                continue
            truth = set(brute.solutions(case.rows, case.columns, case.values, {}, limit=CAP + 1))
            got = {s.cells for s in result.solutions}
            fits = all(brute.fits(cells, case.rows, case.columns, {}) for cells in got)
            if not fits or (result.complete and got != truth) or (len(truth) > CAP and result.complete):
                wrong.append(f"{variant.spec} on {case.seed}: {len(got)} solutions (complete: {result.complete}), "
                             f"brute force {len(truth)}")
            elif result.complete:
                proved += 1
                if not _refutes(case.puzzle(), result.solutions, path.read_text()):
                    wrong.append(f"{variant.spec} on {case.seed}: the proof of its {len(got)} solutions is refused")
    assert not wrong, "\n".join(wrong)
    assert proved > 0
