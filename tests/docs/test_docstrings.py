"""Every ``>>>`` example in the package's docstrings runs: the API reference on the site is
generated from them (mkdocstrings), so they cannot drift from the code."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import nonolab

MODULES = sorted(m.name for m in pkgutil.walk_packages(nonolab.__path__, "nonolab.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", ["nonolab", *MODULES])
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as err:                 # an optional library (the web's, dask's) is absent
        pytest.skip(f"{name}: {err}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
