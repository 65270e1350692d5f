"""Shared fixtures of the command-line tests."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, list(args), catch_exceptions=False)
    return invoke
