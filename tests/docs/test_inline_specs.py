"""Every backend spec the docs show inline (`-b native:threads=2`, `lcg:phases=saved`) is one
the command line takes.

docs/index.md, the site's front page, offered `-b native:engine=numba` ("runs numba for
everything") long after the numba kernels were removed: `nonolab: error: backend 'native':
unknown option 'engine'`.  The examples test runs the code blocks; this reads the inline code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nonolab.errors import BackendUnavailable
from nonolab.solvers import build, names

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
BACKENDS = "|".join(names())
# `-b SPEC` or a bare `NAME:key=value[,key=value]`; a placeholder (`native:line=NAME`, `cnf:max_states=N`) is
# no spec to build.
SPEC = re.compile(rf"`(?:-b )?((?:{BACKENDS})(?::[a-z_0-9]+=[^`\s,]+(?:,[a-z_0-9]+=[^`\s,]+)*)?)`")


def _specs() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for spec in SPEC.findall(page.read_text(encoding="utf-8")):
            if ":" in spec and not re.search(r"=[A-Z]+(?:,|$)", spec):
                found.append((page.relative_to(ROOT).as_posix(), spec))
    return found


def test_the_docs_show_specs_to_check():
    assert len(_specs()) >= 8


@pytest.mark.parametrize("page, spec", _specs(), ids=lambda x: x)
def test_an_inline_spec_builds(page, spec):
    try:
        build(spec)
    except BackendUnavailable:
        pytest.skip(f"{spec}: its backend is not installed here")
