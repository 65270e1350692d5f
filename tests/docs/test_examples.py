"""Every example in the README and on the documentation site is run, so the docs cannot drift.

```console blocks: each ``$ command`` runs in bash, in a fresh folder holding the repository's
``puzzles/`` (the commands of one page share it, in order), and its output must match the lines
under it (``...`` matches anything, as in doctest); a command must not fail with a traceback,
nor with a usage error unless the lines under it show that error.  ```pycon blocks run as doctests in the same folder.
```sh blocks are set-up instructions (installs, servers) and are not run here: CI runs the
README's (``.ci/run``), and the workbench has its own tests.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOT_RUN = ("nonolab serve",)         # a server: tests/web drives it
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _blocks(text: str, kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", text, re.S)


def _commands(block: str) -> list[tuple[str, str]]:
    found: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
    return [(command, "\n".join(lines)) for command, lines in found]


def _pages_with(kind: str) -> list[Path]:
    return [p for p in PAGES if _blocks(p.read_text(encoding="utf-8"), kind)]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    return tmp_path


@pytest.mark.parametrize("page", _pages_with("console"), ids=lambda p: str(p.relative_to(ROOT)))
def test_console_examples(page, folder):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="200", NO_COLOR="1")
    for block in _blocks(page.read_text(encoding="utf-8"), "console"):
        for command, expected in _commands(block):
            if command.startswith(NOT_RUN):
                continue
            done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=900)
            got = done.stdout
            # An example may show a usage error (exit 2) when it says so: its expected output has it.
            allowed = (0, 1, 2) if "nonolab: error:" in expected else (0, 1)
            assert "Traceback" not in got and done.returncode in allowed, f"$ {command}\n{got}"
            if expected.strip():
                assert CHECKER.check_output(expected.strip() + "\n", got, FLAGS), \
                    f"{page.name}: $ {command}\nexpected:\n{expected}\ngot:\n{got}"


@pytest.mark.parametrize("page", _pages_with("pycon"), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples(page, folder, monkeypatch):
    monkeypatch.chdir(folder)
    text = "\n".join(_blocks(page.read_text(encoding="utf-8"), "pycon"))
    test = doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0, f"{page.name}: see the doctest report above"
