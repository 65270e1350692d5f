"""Shared fixtures of the command-line tests."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli


@pytest.fixture
def run():
    """``run(*args)``: the command line with these arguments (any of them may be a Path).

    A test module of one subcommand overrides it as ``functools.partial(run, "name")``.
    """
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return invoke
