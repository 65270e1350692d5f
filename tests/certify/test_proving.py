"""Engines that prove (Capability.PROOF) and the exact model counter (issue 29)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.core import Puzzle
from nonolab.errors import BackendUnavailable, InvalidArgument
from nonolab.formats import load
from nonolab.harness import dimacs
from nonolab.harness.uniqueness import count
from nonolab.solvers import Capability, capabilities_of, get
from nonolab.solvers.base import Limits, capabilities

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def _refutes(puzzle: Puzzle, excluded, proof: Path) -> bool:
    """dratify's verdict on ``proof`` against the puzzle's CNF plus one clause per excluded picture."""
    dratify = pytest.importorskip("dratify")
    cnf = dimacs(puzzle)
    extra = ["".join(f"{-(i + 1) if v else i + 1} " for i, v in enumerate(s.to_bytes())) + "0" for s in excluded]
    head, _, body = cnf.partition("p cnf ")
    variables, clauses, rest = body.split(" ", 2)[0], body.split(" ", 2)[1].split("\n")[0], body.split("\n", 1)[1]
    text = f"p cnf {variables} {int(clauses) + len(extra)}\n{rest}" + "\n".join(extra) + "\n"
    return dratify.check_proof(dratify.parse_dimacs(text), proof.read_text()).ok


@pytest.mark.parametrize("backend", ["lcg", "cnf", "cnf:solver=glucose4"])
def test_a_complete_count_comes_with_a_proof_over_every_solution_excluded(backend, tmp_path):
    from nonolab.solvers import build
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    result = build(backend).prove(puzzle, Limits(max_solutions=None), tmp_path / "proof.drat")
    assert result.complete and result.count == 43
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")
    assert not _refutes(puzzle, result.solutions[:-1], tmp_path / "proof.drat")  # one solution left: no proof


def test_lcg_proofs_stay_valid_with_probe_binaries(tmp_path):
    from nonolab.solvers import build
    puzzle = load(PUZZLES / "hakank" / "nonunique.non")  # 43 solutions
    result = build("lcg:probe_binaries=on").prove(puzzle, Limits(max_solutions=None), tmp_path / "proof.drat")
    assert result.complete and result.count == 43 and result.stats.counters["probe_binaries"] > 0
    assert _refutes(puzzle, result.solutions, tmp_path / "proof.drat")


def test_which_engines_declare_proofs():
    assert Capability.PROOF in capabilities_of("lcg") and Capability.PROOF in capabilities_of("cnf")
    assert Capability.PROOF not in capabilities_of("native") and Capability.PROOF not in capabilities_of("auto")
    assert Capability.PROOF not in capabilities(get("cnf", solver="minisat22"))
    assert Capability.PROOF not in capabilities(get("cnf", solver="kissat404"))
    with pytest.raises(BackendUnavailable, match="writes no proofs"):
        get("cnf", solver="minisat22").prove(load(PUZZLES / "nonolab" / "heart.non"), Limits(), "unused.drat")


def test_proofs_are_black_and_white(tmp_path):
    from nonolab.core.palette import Palette
    colour = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), row_colours=((1,), (2,)),
                    column_colours=((1,), (2,)), palette=Palette.default_for(2))
    for backend in ("lcg", "cnf"):
        with pytest.raises(InvalidArgument, match="black-and-white"):
            get(backend).prove(colour, Limits(), tmp_path / "p.drat")


def test_lcg_writes_no_proof_unless_asked(tmp_path):
    result = get("lcg").solve(load(PUZZLES / "webpbn" / "webpbn-00023-edge.non"))
    assert "proof_lines" not in result.stats.counters


def _switches(k: int) -> Puzzle:
    """k independent 2x2 switches side by side, one empty column between two: 2**k solutions."""
    columns = []
    for i in range(k):
        columns += [(1,), (1,)] + ([()] if i < k - 1 else [])
    return Puzzle(rows=((1,) * k, (1,) * k), columns=tuple(columns))


def test_the_model_counter_counts_beyond_a_million_where_enumeration_stops():
    pytest.importorskip("pyganak")
    puzzle = _switches(21)
    exact = count(puzzle, get("sharpsat"))
    assert exact.exact and exact.count == 2 ** 21 and exact.describe() == "2097152"
    enumerated = count(puzzle, get("lcg"), limit=1000)  # enumeration pays per solution
    assert not enumerated.exact and enumerated.count == 1000
