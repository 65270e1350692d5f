"""Shared fixtures of the picture tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))   # svg_reading, the helpers that read pictures back

from nonolab.cli.main import cli  # noqa: E402


@pytest.fixture
def run():
    """``run(*args)``: the command line with these arguments; binary output kept as bytes."""
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return invoke
