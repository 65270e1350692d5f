"""batch --force replaces the results file with this run's records: not before it has one.

The file was emptied when it was opened, before the backend was built: a typo in ``-b``
(exit 2, "unknown backend") left the earlier results file empty, every record lost.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonolab.batch import run_batch
from nonolab.errors import NonolabError

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
FILES = [PUZZLES / "hakank" / "car.non", PUZZLES / "hakank" / "t2.non"]


def test_a_batch_that_fails_before_its_first_record_leaves_the_forced_file_as_it_was(tmp_path):
    out = tmp_path / "r.jsonl"
    run_batch(FILES, "check", out, backend="native")
    before = out.read_bytes()
    with pytest.raises(NonolabError):
        run_batch(FILES, "check", out, backend="nosuch", force=True)
    assert out.read_bytes() == before


def test_force_still_replaces_the_file_with_the_new_records(tmp_path):
    out = tmp_path / "r.jsonl"
    run_batch(FILES, "check", out, backend="native")
    run_batch(FILES[:1], "count", out, backend="native", force=True)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["task"], Path(r["file"]).name) for r in records] == [("count", "car.non")]
