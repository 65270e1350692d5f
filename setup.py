"""Builds the one compiled part of nonolab: the lcg engine (C++17, plain CPython API).

Everything else is declared in pyproject.toml.  ``-O2`` and no ``-march=native``, so
a wheel built here runs on other machines of the same platform.
"""

from setuptools import Extension, setup

LCG = "src/nonolab/solvers/lcg/"

setup(ext_modules=[Extension(
    "nonolab.solvers.lcg._lcg",
    sources=[LCG + "module.cpp", LCG + "engine.cpp", LCG + "analysis.cpp"],
    depends=[LCG + "engine.hpp", LCG + "line.hpp"],
    language="c++",
    extra_compile_args=["-std=c++17", "-O2"],
)])
