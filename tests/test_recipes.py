"""The recipes of docs/architecture.md ("How to add ...") stay true: every path they name
exists, and every registered backend, format, line strategy and picture is in each place
its recipe says it is.  A recipe that drifts from the code fails here, not in the hands of
the next contributor."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "nonolab"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
# Paths from the repository's root; every other path a recipe names is from src/nonolab/.
ROOTED = ("tests/", "docs/", "models/", "benchmarks/", "setup.py", "pyproject.toml")


def _recipes() -> dict[str, str]:
    """Each recipe's text by what it adds (``backend``, ``format``, ``line strategy`` ...)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## How to add ...", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^- \*\*an? ([a-z ]+)\*\*", section, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


RECIPES = _recipes()


def _docs(name: str) -> str:
    return (ROOT / "docs" / name).read_text(encoding="utf-8")


def test_there_is_a_recipe_for_each_kind_of_addition():
    assert {"backend", "format", "line strategy", "picture"} <= set(RECIPES)


def _named_paths(recipe: str) -> list[str]:
    tokens = re.findall(r"`([^`\s]+)`", recipe)
    return [t for t in tokens if ("/" in t or re.search(r"\.(py|hpp|cpp|md|toml)$", t)) and "..." not in t
            and not t.startswith("nonolab.")]


@pytest.mark.parametrize("kind", sorted(RECIPES))
def test_every_path_a_recipe_names_exists(kind):
    paths = _named_paths(RECIPES[kind])
    assert paths or kind == "batch task", f"the {kind} recipe names no file"
    for path in paths:
        base = ROOT if path.startswith(ROOTED) else PACKAGE
        assert (base / path).exists(), f"the {kind} recipe names {path}, which is not there"


# -- backends -------------------------------------------------------------------------------

def test_every_backend_is_registered_as_the_recipe_says():
    from nonolab.solvers import ROLES, _REGISTRY

    recipe = RECIPES["backend"]
    algorithms = _docs("algorithms.md")
    for role in ROLES:
        assert f"`{role}`" in recipe, f"the backend recipe does not name the role {role}"
    for name, (module, cls, package, role) in _REGISTRY.items():
        assert role in ROLES, name
        path = PACKAGE.joinpath(*module.split(".")[1:])
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), (name, module)
        described = f"`{name}`" in algorithms or re.search(rf"^#+ .*\b{name}\b", algorithms, re.M)
        assert described, f"docs/algorithms.md does not describe the backend {name}"
        if package is not None:
            assert package in (ROOT / "pyproject.toml").read_text(encoding="utf-8"), (name, package)


def test_every_compiled_backend_has_its_extension_line():
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    solvers = PACKAGE / "solvers"
    for folder in sorted(p for p in solvers.iterdir() if p.is_dir() and p.name != "_cext"):
        if any(folder.rglob("*.cpp")):
            assert f'SOLVERS / "{folder.name}"' in setup, f"setup.py builds no extension from solvers/{folder.name}"


def test_the_method_capabilities_have_their_types():
    # The recipe says a capability that adds a method has a type callers narrow to.
    from nonolab.solvers import as_batching, as_prover, get

    assert "`Proving`" in RECIPES["backend"] and "`Batching`" in RECIPES["backend"]
    assert as_prover(get("lcg")) is not None and as_prover(get("dlx")) is None
    assert as_batching(get("native")) is not None and as_batching(get("dlx")) is None


# -- formats --------------------------------------------------------------------------------

def test_every_format_is_where_the_recipe_says():
    from nonolab.cli.options import FORMAT_NAMES
    from nonolab.formats.registry import _REGISTRY

    table = _docs("formats.md")
    api_test = (ROOT / "tests" / "formats" / "test_api.py").read_text(encoding="utf-8")
    for fmt in _REGISTRY:
        assert fmt.module in (fmt.name, f"{fmt.name}_"), f"format {fmt.name} is read by a module of another name"
        code = importlib.import_module(f"nonolab.formats.{fmt.module}")
        for function in ("parse", "write", "sniff"):
            assert callable(getattr(code, function, None)), f"formats/{fmt.module}.py has no {function}"
        assert hasattr(code, "write_all") == fmt.several, f"{fmt.name}: several={fmt.several} but write_all?"
        assert f"| `{fmt.name}` |" in table, f"docs/formats.md has no row for {fmt.name}"
        assert fmt.name in FORMAT_NAMES and f'"{fmt.name}"' in api_test, fmt.name


# -- line strategies ------------------------------------------------------------------------

def _strategy_header() -> str:
    return (PACKAGE / "solvers" / "native" / "lines" / "strategy.hpp").read_text(encoding="utf-8")


def test_every_line_strategy_is_where_the_recipe_says():
    from nonolab.solvers.native.modes import N_STRATEGIES, STRATEGIES

    header = _strategy_header()
    enum = re.search(r"enum Strategy \{([^}]*)\}", header)
    assert enum, "strategy.hpp has no enum Strategy"
    numbers = {k.strip(): int(v) for k, v in re.findall(r"(\w+)\s*=\s*(\d+)", enum.group(1))}
    assert numbers.pop("N_STRATEGIES") == N_STRATEGIES == len(STRATEGIES)
    labelled = re.search(r"bool labelled\(\) const \{([^}]*)\}", header)
    assert labelled, "strategy.hpp has no LineSolver::labelled()"
    algorithms, usage = _docs("algorithms.md"), _docs("usage.md")
    line_option = re.search(r"`--line ([a-z0-9|-]+)`", usage)
    assert line_option, "docs/usage.md does not list --line's choices"
    for name, strategy in STRATEGIES.items():
        constant = name.upper().replace("-", "_")
        assert numbers.get(constant) == strategy.code, f"strategy.hpp numbers {name} otherwise than modes.py"
        if strategy.code != 0:  # the DP is the default branch of LineSolver::fix
            assert f"case {constant}:" in header, f"LineSolver::fix has no case for {name}"
        assert (f"strategy_ == {constant}" in labelled.group(1)) == strategy.labelled, name
        assert f"`{name}`" in algorithms, f"docs/algorithms.md does not describe the line strategy {name}"
        assert name in line_option.group(1).split("|"), f"docs/usage.md's --line list lacks {name}"
    assert sorted(numbers) == sorted(n.upper().replace("-", "_") for n in STRATEGIES)


# -- pictures -------------------------------------------------------------------------------

def test_every_picture_is_where_the_recipe_says():
    import nonolab.render as render
    from nonolab.cli.render_commands import render as command

    pictures = [name for name in render.__all__ if name.endswith("_svg")]
    assert pictures
    for name in pictures:
        function = getattr(render, name)
        assert function.__module__ in ("nonolab.render.pictures", "nonolab.render.steps"), name
        assert ">>>" in (function.__doc__ or ""), f"{name} has no docstring example"
    modes = [p.name.removeprefix("mode_") for p in command.params if (p.name or "").startswith("mode_")]
    assert modes, "render has no mode option"
    page = _docs("pictures.md")
    for mode in modes:
        assert f"--{mode}" in page, f"docs/pictures.md shows no `render --{mode}`"
