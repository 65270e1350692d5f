"""Builds the compiled parts of nonolab (C++17, plain CPython API): the lcg engine and
the native engine's core, which share the line DP (src/nonolab/solvers/lcg/line.hpp) and
their CPython binding pieces (src/nonolab/solvers/_cext/binding.hpp).

Everything else is declared in pyproject.toml.  ``-O2`` and no ``-march=native``, so
a wheel built here runs on other machines of the same platform.
"""

from setuptools import Extension, setup

LCG = "src/nonolab/solvers/lcg/"
NATIVE = "src/nonolab/solvers/native/compiled/"
# The CPython binding both modules share, included by a relative path like the line DP.
BINDING = "src/nonolab/solvers/_cext/binding.hpp"

setup(ext_modules=[
    Extension(
        "nonolab.solvers.lcg._lcg",
        sources=[LCG + "module.cpp", LCG + "engine.cpp", LCG + "lines.cpp", LCG + "analysis.cpp", LCG + "colour.cpp",
                 LCG + "hints.cpp"],
        depends=[LCG + "engine.hpp", LCG + "hints.hpp", LCG + "arena.hpp", LCG + "line.hpp", LCG + "bitline.hpp", LCG + "colour_line.hpp", LCG + "drop.hpp",
                 BINDING],
        language="c++",
        extra_compile_args=["-std=c++17", "-O2"],
    ),
    Extension(
        "nonolab.solvers.native.compiled._native",
        sources=[NATIVE + "module.cpp", NATIVE + "engine.cpp"],
        depends=[NATIVE + "engine.hpp", LCG + "line.hpp", LCG + "bitline.hpp", BINDING],
        language="c++",
        extra_compile_args=["-std=c++17", "-O2"],
    ),
])
