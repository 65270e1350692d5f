"""explain --json writes its steps a block of cells at a time (records.Streamed): the JSON
parses to the record built whole (Explanation.as_dict), and is valid against its schema."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from nonolab.cli import records
from nonolab.formats import load
from nonolab.harness.explanation import explain
from nonolab.solvers.steps import CellRun, Step, Technique

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = [ROOT / "puzzles" / "hakank" / "lambda.non", ROOT / "puzzles" / "nonolab" / "switch.non",
           ROOT / "puzzles" / "nonolab" / "contradiction.non", ROOT / "puzzles" / "nonolab" / "probe-merge.non",
           ROOT / "tests" / "data" / "colour" / "probe-six.xml"]


def _emitted(data) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        records.emit(data)
    return out.getvalue()


@pytest.mark.parametrize("backend", ["native", "auto"])
@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_the_streamed_record_parses_to_the_record_built_whole(path, backend):
    found = explain(load(str(path)), backend)
    whole = json.loads(json.dumps(found.as_dict(), indent=2))     # what explain --json printed before
    streamed = json.loads(_emitted(records.explain_fields(found)))
    assert streamed == whole
    assert streamed["steps"] or found.verdict.value == "contradiction"


def test_a_step_of_many_cells_is_written_in_blocks_that_join_to_its_cells():
    cells = CellRun.of(range(0, 1000, 3), [i % 2 for i in range(334)], width=37)
    step = Step(Technique.LINE, ("row", 4), cells, depth=2, note="a note")
    pieces = list(step.json_chunks(cells_per_chunk=50))
    assert len(pieces) == 2 + 7                      # head, 334 cells in blocks of 50, tail
    assert json.loads("".join(pieces)) == json.loads(json.dumps(step.as_dict()))


def test_the_command_s_streamed_json_is_valid_against_its_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("referencing")
    from click.testing import CliRunner

    from nonolab.cli.main import cli
    from tests.cli.test_json_schema import _validator

    del jsonschema
    for path in PUZZLES:
        done = CliRunner().invoke(cli, ["explain", "--json", str(path)])
        _validator("explain").validate(json.loads(done.output))
    from nonolab.formats import dump_all

    two = tmp_path / "two.json"                      # a set: one document, a streamed record each
    dump_all([load(str(PUZZLES[0])), load(str(PUZZLES[1]))], str(two))
    data = json.loads(CliRunner().invoke(cli, ["explain", "--json", str(two)]).output)
    _validator("explain").validate(data)
    assert [len(r["steps"]) > 0 for r in data["puzzles"]] == [True, True]


def test_the_steps_written_stop_within_the_time_limit_and_the_document_stays_valid(monkeypatch, clock):
    # Writing a step costs a second of the test's clock a cell (the clock stands still
    # otherwise): the steps of lambda.non take far longer than the limit, so some must be
    # left out, whole, and counted; the command ends within the limit with its verdict.
    from click.testing import CliRunner

    from nonolab.cli.main import cli

    real = Step.json_chunks

    def slow(self, *args, **kwargs):
        clock.spend(float(len(self.cells)))
        yield from real(self, *args, **kwargs)

    monkeypatch.setattr(Step, "json_chunks", slow)
    path = PUZZLES[0]
    everything = sum(len(s.cells) for s in explain(load(str(path)), "native").steps)
    limit = everything / 3
    start = clock.now
    done = CliRunner().invoke(cli, ["explain", "--json", "--time-limit", str(limit), str(path)])
    assert clock.now - start <= limit                 # before: every step written, 3x the limit
    data = json.loads(done.output)
    assert done.exit_code == 0 and data["verdict"] == "unique"
    assert data["steps"] and data["steps_cut"] >= 1
    whole = explain(load(str(path)), "native").as_dict()["steps"]
    assert data["steps"] == whole[:len(data["steps"])]
    assert len(data["steps"]) + data["steps_cut"] == len(whole)
    try:
        from tests.cli.test_json_schema import _validator
    except ImportError:                               # jsonschema absent: the checks above stand
        return
    _validator("explain").validate(data)


def test_a_pace_starts_no_item_that_would_end_past_its_deadline(clock):
    # Items written at 1 s a unit of the test's clock: two of one unit, then one of five
    # with three seconds left is not started, nor the one after it.
    def item(text: str, units: int):
        clock.spend(float(units))
        yield text

    sizes = [1, 1, 5, 1]
    pace = records.Pace(clock.now + 5.0, sizes, 0.5, "cut")
    stream = records.Streamed(lambda: (item(str(k), n) for k, n in enumerate(sizes)), pace)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        records.emit({"items": stream, "after": 0})
    assert json.loads(out.getvalue()) == {"items": [0, 1], "cut": 2, "after": 0}
    assert clock.now == 1002.0
