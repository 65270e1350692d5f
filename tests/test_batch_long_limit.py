"""A time limit longer than a wait can last is no kill at all (audit 18b: ``nonolab batch
--time-limit 1e10`` ended in an OverflowError traceback from the wait for the worker's
answer, ``threading.TIMEOUT_MAX`` being 292 years; ``check --time-limit 1e10`` answered)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from nonolab.batch import run_batch
from nonolab.batch.tasks import Job

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


@pytest.mark.parametrize("limit", [1e10, 1e308, threading.TIMEOUT_MAX])
def test_a_budget_no_wait_can_take_is_none(limit):
    assert Job("x.non", "check", "native", limit).budget(2.0) is None
    assert Job("x.non", "check", "native", 5.0).budget(2.0) == 7.0


@pytest.mark.parametrize("limit", [1e10, 1e308])
def test_a_batch_with_a_limit_of_centuries_answers(tmp_path, limit):
    out = tmp_path / "r.jsonl"
    summary = run_batch([PUZZLES / "nonolab" / "heart.non", PUZZLES / "nonolab" / "switch.non"], "check", out,
                        time_limit=limit, backend="native")
    assert sorted(r["verdict"] for r in summary.records) == ["multiple", "unique"]
