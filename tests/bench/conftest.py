"""Fake external solvers for the bench tests: tiny Python scripts that print what they are told."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"


@pytest.fixture
def fake(tmp_path):
    """``fake(name, body)`` -> an ``--external`` value running a Python script with ``body``.

    The script gets the puzzle's .non file as ``sys.argv[1]``.
    """
    def make(name: str, body: str) -> str:
        script = tmp_path / f"{name}.py"
        script.write_text("import sys, os, time, subprocess\npath = sys.argv[1]\n" + body + "\n", encoding="utf-8")
        return f"{name}={sys.executable} {script} {{file.non}}"
    return make


@pytest.fixture
def two_puzzles(tmp_path) -> list[str]:
    """A unique puzzle and one with two solutions (from the shipped ones)."""
    return [str(PUZZLES / "hakank" / "car.non"), str(PUZZLES / "nonolab" / "switch.non")]
