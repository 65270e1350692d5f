"""docs/bench.md cannot drift: its worked example runs, and its table's answers are the ones it gives."""

from __future__ import annotations

import doctest
import json
import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from nonolab.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "bench.md").read_text(encoding="utf-8")


def _documented_command() -> list[str]:
    block = DOC[DOC.index("<!-- bench-example"):]
    return shlex.split(re.search(r"```sh\n(.+?)\n```", block, re.S).group(1))


def _documented_table() -> list[tuple[str, ...]]:
    table = DOC[DOC.index("<!-- bench-table -->"):DOC.index("<!-- end bench-table -->")]
    rows = [line.strip("|").split("|") for line in table.splitlines() if line.startswith("| ")][1:]
    return [tuple(cell.strip() for cell in row[:5]) for row in rows if not row[0].strip().startswith("*")]


def test_the_worked_example_gives_the_documented_answers(tmp_path, monkeypatch):
    command = _documented_command()
    assert command[:3] == ["nonolab", "bench", "puzzles/"] and command[command.index("--out") + 1] == "b/"
    monkeypatch.chdir(REPO)
    out = tmp_path / "b"
    args = [str(out) if a == "b/" else a for a in command[1:]]
    # One repetition in long-lived workers: the answers are the same, the test much shorter.
    outcome = CliRunner().invoke(cli, [*args, "--repeat", "1", "--isolate", "worker"])
    assert outcome.exit_code == 0, outcome.output
    results = json.loads((out / "summary.json").read_text(encoding="utf-8"))["results"]
    found = [(s["solver"], f"{s['solved']}/{s['puzzles']}", str(s["wrong"]), str(s["timeouts"]), str(s["errors"]))
             for s in results["solvers"]]
    assert found == _documented_table()


def test_the_python_example_runs(monkeypatch):
    monkeypatch.chdir(REPO)
    block = re.search(r"```python\n(.+?)```", DOC, re.S).group(1)
    test = doctest.DocTestParser().get_doctest(block, {}, "docs/bench.md", "docs/bench.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3
