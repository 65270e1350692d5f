"""Builds the compiled parts of nonolab (C++17, plain CPython API): the lcg engine and the
native engine, which share their line solvers and CPython binding pieces
(src/nonolab/solvers/_cext/), and the independent solution checker (src/nonolab/core/checker/),
which shares nothing with them.

Each extension is every ``.cpp`` of its folder, rebuilt when any header there (and, for the
engines, in ``_cext/``) changes (tests/test_architecture.py holds the includes to those folders).
Everything else is declared in pyproject.toml.  ``-O2`` and no ``-march=native``, so a
wheel built here runs on other machines of the same platform.
"""

from pathlib import Path

from setuptools import Extension, setup

SOLVERS = Path("src/nonolab/solvers")
SHARED = SOLVERS / "_cext"


def extension(name: str, folder: Path, shared: bool = True) -> Extension:
    """The extension ``name`` built from every C++ file under ``folder`` (with ``shared``,
    rebuilt when a header of ``_cext/`` changes too)."""
    sources = sorted(str(p) for p in folder.rglob("*.cpp"))
    headers = sorted(str(p) for p in [*folder.rglob("*.hpp"), *(SHARED.glob("*.hpp") if shared else ())])
    return Extension(name, sources=sources, depends=headers, language="c++",
                     extra_compile_args=["-std=c++17", "-O2"])


setup(ext_modules=[
    extension("nonolab.solvers.lcg._lcg", SOLVERS / "lcg"),
    extension("nonolab.solvers.native.compiled._native", SOLVERS / "native"),
    extension("nonolab.core._check", Path("src/nonolab/core/checker"), shared=False),
])
