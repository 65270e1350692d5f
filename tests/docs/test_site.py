"""The documentation site builds in strict mode, and the README is CI's contract."""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _mkdocs():
    if importlib.util.find_spec("mkdocs") is None:
        if os.environ.get("CI"):
            pytest.fail("mkdocs is missing: the test extra installs it")
        pytest.skip("mkdocs is not installed (pip install '.[docs]')")


def test_the_site_builds_in_strict_mode(tmp_path):
    _mkdocs()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    cli = (tmp_path / "site" / "cli" / "index.html").read_text(encoding="utf-8")
    from nonolab.cli.main import cli as group
    import click
    ctx = click.Context(group)
    for name in group.list_commands(ctx):        # a command added later appears by itself
        assert f"nonolab {group.get_command(ctx, name).name}" in cli, name
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="nonolab.core.cell.Cell"' in api and "&gt;&gt;&gt;" in api


def test_every_page_under_docs_is_in_the_navigation():
    import yaml
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        import nav
    finally:
        sys.path.pop(0)
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    extra = nav.unlisted(ROOT / "docs", config["nav"])
    added = nav.on_config({"docs_dir": str(ROOT / "docs"), "nav": config["nav"]})
    assert nav._named(added["nav"]) >= {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")
                                        if "hooks" not in p.parts}
    assert isinstance(extra, list)


def test_the_docstring_extension_stays_true():
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        pytest.importorskip("griffe")
        import docstrings
    finally:
        sys.path.pop(0)
    assert doctest.testmod(docstrings).failed == 0


def _readme_test_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return next(line for block in blocks for line in block.splitlines() if "pytest" in line)


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = ci[ci.index("# README test command:") + 1]
    assert command == _readme_test_command()


def test_the_readme_set_up_is_venv_first_then_install_and_the_main_job():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)```", text, re.S).group(1).splitlines()
    assert first[0].startswith("python3 -m venv .venv")
    assert first[1].startswith("python -m pip install .") and "nonolab check" in first[1]
    assert text.index("## Set-up") < 1500            # on the first screen
