"""drat-trim's output as nonolab reads it, without the program: its own words, captured
(data/drat-trim/README.md), and a stand-in program that prints them, so the path from
``certify-check --checker drat-trim`` to its answer runs on any machine.

Found by running the real drat-trim (tidy 10): its own time limit (``s TIMEOUT``, by default
after 40,000 s when nonolab set none) was read as a rejection of the proof.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from nonolab.certcheck.checkers import UNLIMITED, check_proof, read_drat_trim

DATA = Path(__file__).resolve().parent / "data" / "drat-trim"


def _said(name: str) -> str:
    return (DATA / name).read_bytes().decode("ascii")


@pytest.mark.parametrize("name, ok, stopped, detail", [
    ("verified.txt", True, None, "VERIFIED"),
    ("trivial-unsat.txt", True, None, "VERIFIED"),
    ("not-verified.txt", False, None, "NOT VERIFIED"),
    ("timeout.txt", False, "timeout", "its own time limit ended the check (s TIMEOUT)"),
])
def test_each_of_its_verdicts_is_read_as_it_means(name, ok, stopped, detail):
    text = _said(name)
    assert "\r" in text   # its lines begin with a carriage return: the reading must not depend on them
    verdict = read_drat_trim(text)
    assert (verdict.ok, verdict.stopped, verdict.detail, verdict.checker) == (ok, stopped, detail, "drat-trim")


def test_no_verdict_line_rejects_with_its_last_words():
    verdict = read_drat_trim("\rc parsing input formula with 3 variables and 2 clauses\n"
                             "\rc ERROR: did not find p cnf line in input file\n")
    assert not verdict.ok and verdict.stopped is None
    assert verdict.detail == "the checker gave no verdict: c ERROR: did not find p cnf line in input file"
    assert read_drat_trim("", "Segmentation fault\n", -11).detail == "the checker gave no verdict: Segmentation fault"
    assert read_drat_trim("", "", 1).detail == "the checker gave no verdict: exit code 1"


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    """A program in drat-trim's place (NONOLAB_DRAT_TRIM) that prints a captured output and
    records its arguments; returns a function choosing the output and reading the arguments."""
    program, said, args = tmp_path / "drat-trim", tmp_path / "said.txt", tmp_path / "args.json"
    program.write_text(f"#!{sys.executable}\nimport json, sys\n"
                       f"open({str(args)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
                       f"sys.stdout.write(open({str(said)!r}, encoding='ascii', newline='').read())\n",
                       encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("NONOLAB_DRAT_TRIM", str(program))

    def use(name: str):
        said.write_text(_said(name), encoding="ascii", newline="")
        return lambda: json.loads(args.read_text())
    return use


def test_its_own_limit_is_never_before_ours_and_absent_without_one(stand_in, tmp_path):
    arguments = stand_in("verified.txt")
    formula, proof = tmp_path / "f.cnf", tmp_path / "p.drat"
    assert check_proof(formula, proof, "drat-trim", time_limit=30.5).ok
    assert arguments() == [str(formula), str(proof), "-t", "31"]
    assert check_proof(formula, proof, "drat-trim").ok
    assert arguments() == [str(formula), str(proof), "-t", str(UNLIMITED)]   # not its 40,000 s default


def test_certify_check_says_timeout_not_rejected_when_drat_trim_stops_itself(stand_in, tmp_path):
    from nonolab.certcheck import check_certificate
    from nonolab.certify import certify
    from nonolab.formats import load
    from nonolab.solvers import get

    edge = Path(__file__).resolve().parents[2] / "puzzles" / "webpbn" / "webpbn-00023-edge.non"
    made = certify(load(edge), tmp_path / "edge", get("lcg"))
    assert made.certified
    stand_in("timeout.txt")
    outcome = check_certificate(made.path, "drat-trim")
    assert (outcome.ok, outcome.outcome) == (False, "timeout"), outcome.reason   # neither accepted nor rejected
    stand_in("not-verified.txt")
    outcome = check_certificate(made.path, "drat-trim")
    assert outcome.outcome == "rejected" and "NOT VERIFIED" in outcome.reason
    stand_in("verified.txt")
    assert check_certificate(made.path, "drat-trim").ok
