"""Every ``verdict`` in every JSON a command writes is one of the words (audit 9, left for the lead).

docs/trust.md: the verdicts are unique, multiple, contradiction and timeout (``interrupted``
when a cancel came first), or ``null`` where a command leaves uniqueness open or the
puzzle could not be checked.  Until schema_version 4, ``verify --json`` and batch's
crosscheck records put ``agree``/``disagree``/``inconclusive`` in ``verdict`` (the word sat
in ``consensus``), and the batch test of the words allowed them, so nothing caught it.
This walks the whole output, nested answers and summaries included, for every producer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verdict_words import assert_words, verdicts

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
SHIPPED = [PUZZLES / "hakank" / "simple2.non", PUZZLES / "nonolab" / "heart.non",
           PUZZLES / "nonolab" / "contradiction.non"]

COMMANDS = [["solve"], ["solve", "--check"], ["check"], ["check", "--why"], ["check", "--report"], ["count"],
            ["explain"], ["info"], ["grade"], ["verify", "--backends", "native,cnf"],
            ["crosscheck", "--backends", "native,cnf"]]


def test_the_walker_finds_a_nested_verdict_and_a_summary_s_words():
    found = dict(verdicts({"verdict": "agree", "answers": [{"verdict": None}],
                           "summary": {"verdicts": {"disagree": 1}}}))
    assert found == {".verdict": "agree", ".answers[0].verdict": None, ".summary.verdicts['disagree']": "disagree"}
    with pytest.raises(AssertionError):
        assert_words({"puzzles": [{"verdict": "agree"}]})


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_s_json_says_only_the_words(run, command, two):
    for puzzle in [*SHIPPED, two]:
        result = run(*command, puzzle, "--json")
        assert_words(json.loads(result.stdout))
    if command[0] in ("verify", "crosscheck"):   # several files: one set document, file null
        assert_words(json.loads(run(*command, *SHIPPED, "--json").stdout))


@pytest.mark.parametrize("task", ["check", "solve", "count", "grade", "verify", "crosscheck"])
def test_every_batch_record_says_only_the_words(run, tmp_path, two, task):
    out = tmp_path / "out.jsonl"
    (tmp_path / "broken.non").write_text("width 3\n")
    backend = "native,cnf" if task in ("verify", "crosscheck") else "native"
    run("batch", two, *SHIPPED, tmp_path / "broken.non", "--do", task, "-b", backend, "--out", out,
        "--no-progress")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6   # the set's two, the three shipped, the broken one
    for record in records:
        assert_words(record)


def test_label_records_say_only_the_words(run, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for puzzle in SHIPPED:
        (folder / puzzle.name).write_bytes(puzzle.read_bytes())
    lines = run("label", folder).stdout.splitlines()
    assert len(lines) == len(SHIPPED)
    for line in lines:
        assert_words(json.loads(line))


@pytest.mark.parametrize("backends", ["native,undercount", "native,wrongpicture", "timingout"])
def test_a_disagreement_and_its_bug_report_say_only_the_words(run, monkeypatch, tmp_path, backends):
    from nonolab.solvers import _REGISTRY

    for name, cls in (("undercount", "UndercountingSolver"), ("wrongpicture", "WrongPictureSolver"),
                      ("timingout", "TimingOutSolver")):
        monkeypatch.setitem(_REGISTRY, name, ("fake_backends", cls, None, "solver"))
    nonunique = PUZZLES / "hakank" / "nonunique.non"
    result = run("verify", nonunique, SHIPPED[0], "--backends", backends, "--report-dir", tmp_path, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert assert_words(data) >= 4
    assert data["summary"]["agreements"] == ({"inconclusive": 2} if backends == "timingout" else {"disagree": 2})
    for report in tmp_path.glob("nonolab-disagreement-*.json"):
        assert assert_words(json.loads(report.read_text())) >= 3
    assert len(list(tmp_path.glob("*.json"))) == (0 if backends == "timingout" else 2)
