"""``check --certify DIR`` and ``certify-check DIR`` on the command line (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonolab.formats import dumps_all, load

pytest.importorskip("dratify")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
EDGE = PUZZLES / "webpbn" / "webpbn-00023-edge.non"


def test_one_puzzle_one_certificate(run, tmp_path):
    out = run("check", "--certify", tmp_path / "edge", EDGE, "-b", "lcg")
    assert out.exit_code == 0
    assert out.stdout.splitlines()[0] == "unique"
    assert f"certified: {tmp_path / 'edge'}; proof by lcg:" in out.stdout
    checked = run("certify-check", tmp_path / "edge", "--checker", "dratify")
    assert checked.exit_code == 0
    assert checked.stdout.startswith(f"{tmp_path / 'edge'}: accepted (unique; proof checked by dratify")


def test_a_set_gets_one_sub_folder_per_puzzle(run, tmp_path):
    both = tmp_path / "both.json"
    both.write_text(dumps_all([load(EDGE), load(PUZZLES / "hakank" / "t2.non")], "json"), encoding="utf-8")
    out = run("check", "--certify", tmp_path / "certs", both)
    assert out.exit_code == 1  # t2 is not unique
    assert sorted(p.name for p in (tmp_path / "certs").iterdir()) == ["001-edge-pattern", "002-t2"]
    assert "2 puzzles: 1 unique, 1 multiple" in out.stdout
    checked = run("certify-check", tmp_path / "certs")
    assert checked.exit_code == 0 and "2 certificates: 2 accepted, 0 rejected" in checked.stdout


def test_a_rejected_certificate_says_why_in_one_line(run, tmp_path):
    run("check", "--certify", tmp_path / "edge", EDGE, "-b", "lcg")
    proof = tmp_path / "edge" / "proof.drat"
    proof.write_text("0\n")
    out = run("certify-check", tmp_path / "edge")
    assert out.exit_code == 1
    assert out.stdout == f"{tmp_path / 'edge'}: rejected: proof.drat does not match its SHA-256 in manifest.json " \
                         "(changed after certifying)\n"


def test_json_of_both_commands_is_valid(run, tmp_path):
    from test_json_schema import _validator  # the shipped schemas, with their references resolved
    data = json.loads(run("check", "--certify", tmp_path / "c", EDGE, "--json").stdout)
    _validator("check-certify").validate(data)
    certificate = data["certificate"]
    assert certificate["certified"] and certificate["path"] == str(tmp_path / "c")
    assert set(certificate["files"]) >= {"proof.drat", "refute.cnf", "manifest.json"}
    checked = json.loads(run("certify-check", tmp_path / "c", "--json").stdout)
    _validator("certify-check").validate(checked)
    assert checked["accepted"] == 1 and checked["certificates"][0]["checks"][-1] == "proof"


def test_bad_uses_are_one_line_errors(run, tmp_path):
    out = run("certify-check", tmp_path)
    assert out.exit_code == 2 and "no certificate here" in out.stderr
    out = run("check", "--certify", tmp_path / "x", EDGE, "--why")
    assert out.exit_code == 2 and "--certify certifies the plain check" in out.stderr
    out = run("certify-check", tmp_path, "--checker", "nothing")
    assert out.exit_code == 2


def test_the_report_says_certified_and_its_json_carries_the_certificate(run, tmp_path):
    from test_json_schema import _validator
    heart = PUZZLES / "nonolab" / "heart.non"
    text = run("check", "--report", "--certify", tmp_path / "r", heart).stdout.splitlines()
    assert text[0].startswith("unique") and text[1].startswith(f"certified: {tmp_path / 'r'}")
    data = json.loads(run("check", "--report", "--certify", tmp_path / "j", heart, "--json").stdout)
    _validator("check-report").validate(data)
    assert data["certificate"]["certified"] and data["certificate"]["files"]["refute.cnf"]


def _a_checker_that_never_ends(tmp_path, monkeypatch):
    """dratify's child process replaced by one that never ends by itself: only the
    limit or the cancel can stop it (no clock races it)."""
    from nonolab.certcheck import checkers

    (tmp_path / "never_ends.py").write_text("import time\nwhile True:\n    time.sleep(1)\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setattr(checkers, "DRATIFY_CHILD", "never_ends")


@pytest.mark.parametrize("checker", ["dratify", "dratify-python"])
def test_certify_check_s_time_limit_stops_the_proof_s_check_and_says_timeout(run, tmp_path, monkeypatch, checker):
    # Audit 8: `certify-check --time-limit 1 --checker dratify-python` of a 2,530-line
    # proof ran 14.8 s, then said "accepted": dratify took no limit (drat-trim got -t).
    # The proof's check runs in a child process the limit kills; the answer is timeout,
    # neither accepted nor rejected.
    from test_json_schema import _validator

    run("check", "--certify", tmp_path / "edge", EDGE, "-b", "lcg")
    _a_checker_that_never_ends(tmp_path, monkeypatch)
    out = run("certify-check", tmp_path / "edge", "--checker", checker, "--time-limit", "1")
    assert out.exit_code == 1
    assert out.stdout.startswith(f"{tmp_path / 'edge'}: timeout: proof.drat: dratify"), out.stdout
    assert "did not end within the time limit" in out.stdout
    data = json.loads(run("certify-check", tmp_path / "edge", "--checker", checker, "--time-limit", "1",
                          "--json").stdout)
    _validator("certify-check").validate(data)
    assert (data["accepted"], data["rejected"], data["timeout"]) == (0, 0, 1)
    assert data["certificates"][0]["outcome"] == "timeout" and data["certificates"][0]["checks"][-1] == "cnf"


def test_a_cancel_stops_the_proof_s_check_and_its_child(tmp_path, monkeypatch):
    import threading

    from nonolab.certcheck.checkers import check_proof

    _a_checker_that_never_ends(tmp_path, monkeypatch)
    cancel = threading.Event()
    cancel.set()
    verdict = check_proof(tmp_path / "f.cnf", tmp_path / "p.drat", "dratify", cancel=cancel)
    assert (verdict.ok, verdict.stopped) == (False, "interrupted")
