"""The README's tour, run as a user who followed its Set-up only (``pip install .``, no
extras): a command that then asks for an extra (``pip install "nonolab[X]"``) must say so on
its own line of the tour, as ``serve`` and ``certify-check`` do.

The extras' modules are found from pyproject.toml and the installed distributions (never
listed here), and hidden from the commands by a ``sitecustomize`` on their PYTHONPATH.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .test_examples import _blocks, _commands

ROOT = Path(__file__).resolve().parents[2]
NOT_RUN = ("nonolab serve",)          # a server: tests/web drives it
NOT_EXTRAS = ("test", "docs")         # for developers, not for a command

BLOCKER = '''
import importlib.abc, sys
HIDDEN = {hidden!r}
class _Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Hidden())
'''


def _extras() -> dict[str, list[str]]:
    try:
        import tomllib
    except ImportError:   # Python 3.10
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]


def test_the_install_page_lists_exactly_the_extras_there_are():
    # pip install ".[bench]" of an extra that is not there installs nothing, with a warning only.
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8").split("## Extras", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"^\| `([\w-]+)` \|", page, re.M)) == set(_extras())


def _extras_modules() -> set[str]:
    """The top-level modules the user extras bring (those installed here)."""
    extras = _extras()
    wanted = {re.split(r"[\[<>=~!; ]", req, maxsplit=1)[0].lower().replace("_", "-")
              for name, reqs in extras.items() if name not in NOT_EXTRAS for req in reqs}
    modules = {module for module, dists in importlib.metadata.packages_distributions().items()
               if any(d.lower().replace("_", "-") in wanted for d in dists)}
    return {m for m in modules if not m.startswith("_")}


def test_every_tour_command_that_needs_an_extra_says_so(tmp_path):
    hidden = _extras_modules()
    assert "cairosvg" in hidden and "starlette" in hidden, hidden   # the test extra installs them
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER.format(hidden=sorted(hidden)), encoding="utf-8")
    folder = tmp_path / "tour"
    folder.mkdir()
    (folder / "puzzles").symlink_to(ROOT / "puzzles")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(site), COLUMNS="200", NO_COLOR="1")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = _blocks(readme.split("## A tour", 1)[1], "console")[0]
    unsaid = []
    for line, _ in _commands(tour):
        command = line.split("  #", 1)[0].strip()
        if command.startswith(NOT_RUN):
            continue
        done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=900)
        assert "Traceback" not in done.stdout, f"$ {command}\n{done.stdout}"
        for extra in re.findall(r"nonolab\[(\w+)\]", done.stdout) if done.returncode == 2 else ():
            if f'.[{extra}]' not in line and f"nonolab[{extra}]" not in line:
                unsaid.append(f"$ {command}\n  needs the {extra} extra: {done.stdout.strip()}")
        assert done.returncode in (0, 1, 2), f"$ {command}\n{done.stdout}"
    assert not unsaid, "\n".join(unsaid)
