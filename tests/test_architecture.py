"""The dependency directions of ../shared/docs/design.md, checked by walking the imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "nonolab"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {m for m in found if m == "nonolab" or m.startswith("nonolab.")}


MODULES = {_module_name(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}

NATIVE_ORDER = ["jit", "line", "line_rules", "line_enumerate", "strategies", "cache", "propagate", "probe", "search",
                "labels", "explain"]


def _allowed(module: str, target: str) -> bool:
    def under(name: str, prefix: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    if target == "nonolab.errors":
        return True
    if module == "nonolab.errors":
        return False
    if under(module, "nonolab.core"):
        return under(target, "nonolab.core")
    if under(module, "nonolab.formats"):
        return under(target, "nonolab.core") or under(target, "nonolab.formats")
    if module in ("nonolab.solvers.base", "nonolab.solvers.steps", "nonolab.solvers.options"):
        return under(target, "nonolab.core")
    if under(module, "nonolab.solvers.native"):
        if under(target, "nonolab.core") or target in ("nonolab.solvers.base", "nonolab.solvers.steps",
                                                       "nonolab.solvers.options"):
            return True
        if not under(target, "nonolab.solvers.native"):
            return False
        mine = module.rsplit(".", 1)[-1]
        theirs = target.rsplit(".", 1)[-1]
        if mine == "native":  # the package face may import its own parts
            return True
        return theirs in NATIVE_ORDER and NATIVE_ORDER.index(theirs) < NATIVE_ORDER.index(mine)
    if module == "nonolab.solvers":
        return target in ("nonolab.solvers.base", "nonolab.solvers.options")
    if under(module, "nonolab.solvers"):
        # Any other backend: the core, the shared solver modules, the registry (how
        # a strategy such as auto reaches other backends) and its own package only.
        own = ".".join(module.split(".")[:3])
        return (under(target, "nonolab.core") or under(target, own)
                or target in ("nonolab.solvers", "nonolab.solvers.base", "nonolab.solvers.options",
                              "nonolab.solvers.steps"))
    if under(module, "nonolab.harness"):
        return (under(target, "nonolab.core") or target in ("nonolab.solvers", "nonolab.solvers.base")
                or under(target, "nonolab.harness"))
    if under(module, "nonolab.generate"):
        # pictures in, proven puzzles out: the registry and harness judge them, formats write them
        return (under(target, "nonolab.core") or target in ("nonolab.solvers", "nonolab.solvers.base")
                or under(target, "nonolab.harness") or under(target, "nonolab.formats")
                or under(target, "nonolab.generate"))
    if module == "nonolab.render":
        return under(target, "nonolab.core")
    if under(module, "nonolab.batch"):
        # files in, records out: formats to read, the registry and harness to answer
        return (under(target, "nonolab.core") or under(target, "nonolab.formats")
                or target in ("nonolab.solvers", "nonolab.solvers.base") or under(target, "nonolab.harness")
                or under(target, "nonolab.batch"))
    if under(module, "nonolab.cli") or module == "nonolab.__main__":
        return True
    if module == "nonolab":
        return not under(target, "nonolab.cli") and not under(target, "nonolab.solvers.native")
    return not under(target, "nonolab.cli")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_design(module):
    bad = sorted(t for t in MODULES[module] if not _allowed(module, t))
    assert not bad, f"{module} must not import {bad}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


def test_cli_start_up_loads_no_solver():
    code = ("import sys, nonolab.cli.main; "
            "heavy = [m for m in sys.modules if m.startswith(('nonolab.solvers.native', 'ortools', "
            "'pysat', 'numpy', 'numba', 'nonolab.formats.', 'dask', 'distributed', 'rich'))]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
