"""The dependency directions of docs/architecture.md, read from its table and checked by walking the imports."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "nonolab"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# Jupyter's display hooks (``_repr_svg_`` on puzzles, solutions and reports) may import
# the renderer's display module, inside the hook only: the model stays free of drawing
# code until a notebook asks for a picture, and the picture code lives in one place.
DISPLAY_HOOK, DISPLAY_MODULE = "_repr_", "nonolab.render.display"


def _display_imports(tree: ast.AST) -> set[int]:
    """The ids of the import nodes of DISPLAY_MODULE inside a display hook."""
    hooks = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith(DISPLAY_HOOK)]
    return {id(node) for hook in hooks for node in ast.walk(hook)
            if isinstance(node, ast.ImportFrom) and node.module == DISPLAY_MODULE and node.level == 0}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    allowed = _display_imports(tree)
    for node in ast.walk(tree):
        if id(node) in allowed:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {m for m in found if m == "nonolab" or m.startswith("nonolab.")}


MODULES = {_module_name(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}

DOCS = PACKAGE.parents[1] / "docs" / "architecture.md"


def _between(text: str, first: str, last: str) -> str:
    return text[text.index(first) + len(first):text.index(last)]


def _names(cell: str) -> list[str]:
    """The backticked names of a table cell: `nonolab.core*` -> 'nonolab.core*'."""
    return [part.split("`")[1] for part in cell.split(",") if "`" in part]


def _rules() -> list[tuple[list[str], str]]:
    """docs/architecture.md's dependency table, row by row: (module patterns, what they may import)."""
    table = _between(DOCS.read_text(encoding="utf-8"), "<!-- dependency-table", "<!-- end dependency-table")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return [(_names(line.split("|")[1]), line.split("|")[2].strip()) for line in rows]


RULES = _rules()
NATIVE_ORDER = _names(_between(DOCS.read_text(encoding="utf-8"), "<!-- native-order -->", "<!-- end native-order"))


def _matches(name: str, pattern: str) -> bool:
    if pattern.endswith("*"):
        base = pattern[:-1]
        return name == base or name.startswith(base + ".")
    return name == pattern


def _rule_of(module: str) -> str | None:
    for patterns, allowed in RULES:
        if any(_matches(module, p) for p in patterns):
            return allowed
    return None


def _allowed(module: str, target: str) -> bool:
    if target == "nonolab.errors":
        return True
    allowed = _rule_of(module)
    assert allowed is not None, f"{module} has no row in docs/architecture.md's dependency table"
    if allowed == "nothing of nonolab":
        return False
    if allowed == "anything":
        return True
    if allowed.startswith("anything but"):
        return not any(_matches(target, p) for p in _names(allowed))
    if any(_matches(target, p) for p in _names(allowed)):
        return True
    if "its own package" in allowed:
        return _matches(target, ".".join(module.split(".")[:3]) + "*")
    if "earlier parts of" in allowed and _matches(target, "nonolab.solvers.native*"):
        mine, theirs = module.rsplit(".", 1)[-1], target.rsplit(".", 1)[-1]
        if mine == "native":  # the package face may import its own parts
            return True
        return theirs in NATIVE_ORDER and mine in NATIVE_ORDER and NATIVE_ORDER.index(theirs) < NATIVE_ORDER.index(mine)
    return False


def test_the_documented_rules_are_read():
    # A table the parser no longer understands would allow nothing or everything: pin its shape.
    assert len(RULES) >= 12 and NATIVE_ORDER[:3] == ["modes", "_native", "compiled"]
    assert _rule_of("nonolab.errors") == "nothing of nonolab"
    assert not _allowed("nonolab.formats.non", "nonolab.solvers")
    assert _allowed("nonolab.solvers.auto", "nonolab.solvers")
    assert not _allowed("nonolab.solvers.auto", "nonolab.solvers.cpsat")
    assert _allowed("nonolab.solvers.native.search", "nonolab.solvers.native.compiled")
    assert not _allowed("nonolab.solvers.native.compiled", "nonolab.solvers.native.search")
    assert not _allowed("nonolab", "nonolab.cli.main")
    assert not _allowed("nonolab.cli.commands", "nonolab.solvers.native")
    assert not _allowed("nonolab.cli.commands", "nonolab.solvers.base")
    assert _allowed("nonolab.cli.commands", "nonolab.solvers")
    assert _allowed("nonolab.cli.commands", "nonolab.harness.ambiguity")
    # The workbench is a front end on the library, not on the CLI or the engine's insides.
    assert _allowed("nonolab.web.work", "nonolab.harness.ambiguity")
    assert not _allowed("nonolab.web.api", "nonolab.cli.main")
    assert not _allowed("nonolab.web.work", "nonolab.solvers.native")
    assert not _allowed("nonolab.render.svg", "nonolab.web.work")
    assert _allowed("nonolab.cli.serve_commands", "nonolab.web.server")
    assert not _allowed("nonolab.cli.serve_commands", "nonolab.web.work")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_design(module):
    bad = sorted(t for t in MODULES[module] if not _allowed(module, t))
    assert not bad, f"{module} must not import {bad}"


CPP = sorted([*PACKAGE.rglob("*.cpp"), *PACKAGE.rglob("*.hpp")])
SHARED_CPP = PACKAGE / "solvers" / "_cext"
# The independent solution checker's compiled part: it may include nothing of the solvers.
CHECKER_CPP = PACKAGE / "core" / "checker"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")) + CPP, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path):
    # C++ too: a .cpp or .hpp over ~500 lines is split by concern, as a Python module is.
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


def _home(path: Path) -> Path:
    """The folder a C++ file may include from: its compiled backend's (``solvers/lcg``,
    ``solvers/native``, any room of it), ``solvers/_cext`` for the shared pieces, or the
    checker's ``core/checker``."""
    if path.is_relative_to(CHECKER_CPP):
        return CHECKER_CPP
    return PACKAGE / "solvers" / path.relative_to(PACKAGE / "solvers").parts[0]


def _includes(path: Path) -> list[Path]:
    """The files a C++ file includes with quotes, resolved from its folder."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith('#include "'):
            found.append((path.parent / line.split('"')[1]).resolve())
    return found


def _foreign(path: Path, targets: list[Path]) -> list[Path]:
    """The include targets of C++ file ``path`` outside what it may include: its own
    backend's folder and solvers/_cext (what lcg and native share); _cext and the checker
    only themselves (the checker trusts no solver's code)."""
    home = _home(path)
    allowed = (home,) if home in (SHARED_CPP, CHECKER_CPP) else (home, SHARED_CPP)
    return [t for t in targets if not any(t.is_relative_to(folder) for folder in allowed)]


@pytest.mark.parametrize("path", CPP, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_cpp_includes_stay_in_their_backend_or_the_shared_folder(path):
    # The C++ rule of the dependency table; every include must exist too (setup.py
    # builds each extension from its folder and rebuilds on its headers and _cext's).
    targets = _includes(path)
    assert all(t.is_file() for t in targets), targets
    assert _foreign(path, targets) == []


def test_the_cpp_include_check_reads_both_kinds_of_file_and_catches_a_crossing():
    assert any(p.suffix == ".cpp" for p in CPP) and any(p.suffix == ".hpp" for p in CPP)
    assert {_home(p).name for p in CPP} == {"_cext", "lcg", "native", "checker"}
    solvers = PACKAGE / "solvers"
    engine = solvers / "native" / "search" / "engine.hpp"
    assert solvers / "native" / "lines" / "strategy.hpp" in _includes(engine)
    lcg_header, line = solvers / "lcg" / "engine.hpp", solvers / "_cext" / "line.hpp"
    assert _foreign(engine, [lcg_header, line]) == [lcg_header]
    assert _foreign(line, [engine]) == [engine]
    check = CHECKER_CPP / "check.cpp"
    assert _foreign(check, [line, lcg_header, CHECKER_CPP / "any.hpp"]) == [line, lcg_header]


def _cycles(modules: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles among ``modules`` (strongly connected groups of two or more), a
    package's modules importing their package face left out (the face may import them)."""
    graph = {m: {t for t in targets if t in modules and t != m and not m.startswith(t + ".")}
             for m, targets in modules.items()}
    order, low, stack, found = {}, {}, [], []

    def visit(m: str) -> None:
        order[m] = low[m] = len(order)
        stack.append(m)
        for t in graph[m]:
            if t not in order:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], order[t])
        if low[m] == order[m]:
            group = []
            while not group or group[-1] != m:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for m in sorted(graph):
        if m not in order:
            visit(m)
    return found


def test_the_solvers_import_one_another_without_cycles():
    # Lazy imports included: a cycle (cnf's solver and its one-shot worker once named
    # each other) means neither module can be read, tested or changed alone.
    solvers = {m: t for m, t in MODULES.items() if m.startswith("nonolab.solvers")}
    assert _cycles(solvers) == []
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_plain_check_imports_only_what_it_needs():
    # `nonolab check cat.non` on a black-and-white puzzle: the non reader alone of the
    # formats, no pictures, no JSON, no pathlib, and none of the heavy libraries (issue 27:
    # whole-process start-up is what a user waits for on a small puzzle).
    cat = PACKAGE.parents[1] / "puzzles" / "webpbn" / "webpbn-00006-cat.non"
    code = ("import sys; sys.argv = ['nonolab', 'check', " + repr(str(cat)) + "]\n"
            "from nonolab.cli.main import cli\n"
            "try:\n    cli(prog_name='nonolab')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba', 'ortools', 'pysat', 'rich', "
            "'json', 'pathlib', 'html', 'xml') or m.startswith(('nonolab.formats.', 'nonolab.render'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    answer, imported = out.stdout.splitlines()
    assert answer == "unique"
    assert imported == str(["nonolab.formats._common", "nonolab.formats._files", "nonolab.formats.limits",
                            "nonolab.formats.non", "nonolab.formats.registry"])


def _backend_names() -> set[str]:
    from nonolab.solvers import names
    return set(names())


def _detections(path: Path) -> list[str]:
    """Capability detection by signature or by name: ``inspect`` at all, or a literal
    tuple, list or set that holds a backend's name (a hard-coded group of backends)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    backends = _backend_names()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "inspect" for a in node.names):
            found.append(f"line {node.lineno}: import inspect")
        elif isinstance(node, ast.ImportFrom) and node.module == "inspect":
            found.append(f"line {node.lineno}: from inspect import ...")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            named = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in backends]
            if named:
                found.append(f"line {node.lineno}: a group of backends by name {named}")
    return found


@pytest.mark.parametrize("path", sorted([*(PACKAGE / "cli").rglob("*.py"), *(PACKAGE / "harness").rglob("*.py")]),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_cli_and_harness_ask_capabilities_not_names(path):
    # What a backend can do is declared (solvers.base.Capability); the CLI and the harness
    # ask for it, never guess it from a signature or a list of names.
    assert _detections(path) == []


def test_the_detection_check_catches_both_kinds(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import inspect\nPROGRESS = ('native', 'auto')\n")
    assert len(_detections(bad)) == 2


def test_every_command_module_is_added_to_the_group():
    # A command module missing from the group's table would only appear once another
    # command imported it: every `COMMANDS` tuple and alias under cli/ must be named in
    # the table a fresh process builds, with the module that defines it, and nothing else.
    code = ("import importlib, json, pkgutil, nonolab.cli as c; from nonolab.cli.main import COMMAND_MODULES; "
            "mods = {m.name: importlib.import_module('nonolab.cli.' + m.name) for m in pkgutil.iter_modules(c.__path__)}; "
            "found = {x.name: n for n, m in mods.items() for x in getattr(m, 'COMMANDS', ())}; "
            "found.update({a: n for n, m in mods.items() for a in getattr(m, 'ALIASES', {})}); "
            "print(json.dumps([found, COMMAND_MODULES]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found, table = json.loads(out.stdout)
    assert table == found


def test_check_does_not_import_the_other_command_modules():
    code = ("import sys; from nonolab.cli.main import cli; cli.get_command(None, 'check'); "
            "print(sorted(m for m in sys.modules if m.startswith('nonolab.cli.') and m.endswith('_commands')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_command_of_the_table_is_found_by_name():
    from click import Context

    from nonolab.cli.main import COMMAND_MODULES, cli

    ctx = Context(cli)
    assert set(COMMAND_MODULES) <= set(cli.list_commands(ctx))
    for name in COMMAND_MODULES:
        assert cli.get_command(ctx, name) is not None, name
