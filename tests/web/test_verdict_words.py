"""The workbench's JSON says only the verdict words (docs/trust.md), as the CLI's does
(tests/cli/test_verdict_words.py): every ``verdict`` of an analysis and an explanation."""

from __future__ import annotations

from pathlib import Path

import pytest

from verdict_words import assert_words

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@pytest.mark.parametrize("name", ["hakank/simple2.non", "nonolab/heart.non", "nonolab/contradiction.non"])
def test_analyse_and_explain_say_only_the_words(client, name):
    puzzle = client.load(PUZZLES / name)
    assert assert_words(client.run(f"/api/puzzles/{puzzle['id']}/analyse")) >= 1
    assert assert_words(client.run(f"/api/puzzles/{puzzle['id']}/explain")) >= 1
