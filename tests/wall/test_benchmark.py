"""``python -m benchmarks.differential``: a small run writes its table and CSV and exits
0; a disagreement is saved as a puzzle nonolab reads and makes it exit 1."""

from __future__ import annotations

import csv
import json

from benchmarks import differential
from nonolab.formats import load
from tests.wall import run as wall_run
from tests.wall.judge import Verdict


def _csv(path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_a_small_run_agrees_and_writes_its_counts(tmp_path, capsys):
    code = differential.main(["--bw", "6", "--colour", "6", "--per-variant", "2", "--seed", "4",
                              "--backends", "cpsat,dlx", "--out", str(tmp_path)])
    assert code == 0
    rows = _csv(tmp_path / "differential-4.csv")
    by = {(r["variant"], r["kind"]): r for r in rows}
    assert by[("cpsat", "bw")]["tried"] == "6" and by[("cpsat", "colour")]["tried"] == "6"
    assert by[("cpsat:presolve=false", "bw")]["tried"] == "2"
    assert ("dlx", "colour") not in by              # dlx does not declare colour
    assert all(r["wrong"] == "0" for r in rows)
    assert "0 wrong" in capsys.readouterr().out


def test_a_disagreement_is_saved_and_fails_the_run(tmp_path, monkeypatch, capsys):
    def disagree(variant, solver, case, cap=64, second_try=False):
        return Verdict("wrong", "made up by the test")

    monkeypatch.setattr(wall_run, "ask", disagree)
    code = differential.main(["--bw", "2", "--colour", "1", "--per-variant", "1", "--seed", "5",
                              "--backends", "dlx", "--out", str(tmp_path)])
    assert code == 1
    saved = sorted((tmp_path / "differential-5").glob("*.json"))
    puzzles = [p for p in saved if not p.name.endswith(".answer.json")]
    assert len(puzzles) == 3                          # dlx and dlx:max_states=1 on bw-5-0; dlx on bw-5-1
    load(puzzles[0])
    record = json.loads(puzzles[0].with_name(puzzles[0].stem + ".answer.json").read_text(encoding="utf-8"))
    assert record["detail"] == "made up by the test" and record["spec"].startswith("dlx")
    assert "WRONG dlx" in capsys.readouterr().out
