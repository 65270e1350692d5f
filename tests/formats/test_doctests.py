"""The ``>>>`` examples in the formats package stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import nonolab.formats

MODULES = ["nonolab.formats"] + [f"nonolab.formats.{m.name}"
                                 for m in pkgutil.iter_modules(nonolab.formats.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
