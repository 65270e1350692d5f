"""Shared fixtures of the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.formats import dumps_all, load

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@pytest.fixture
def run():
    """``run(*args)``: the command line with these arguments (any of them may be a Path).

    A test module of one subcommand overrides it as ``functools.partial(run, "name")``.
    """
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return invoke


@pytest.fixture(scope="module")
def two(tmp_path_factory) -> str:
    """A set file of two puzzles, one unique (heart) and one multiple (permutations-5)."""
    path = tmp_path_factory.mktemp("set") / "two.json"
    path.write_text(dumps_all([load(PUZZLES / "nonolab" / "heart.non"),
                               load(PUZZLES / "nonolab" / "permutations-5.non")], "json"), encoding="utf-8")
    return str(path)
