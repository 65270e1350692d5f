"""The examples in the bench modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["nonolab.bench.suites", "nonolab.bench.externals", "nonolab.bench.runner",
                                  "nonolab.bench.summary", "nonolab.bench.spawn", "nonolab.render.charts"])
def test_doctests(name):
    assert doctest.testmod(importlib.import_module(name)).failed == 0
