"""Every message speaks the command line's words: option and format names, never a Python parameter."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.cli.options import FORMAT_NAMES

SRC = Path(__file__).resolve().parents[2] / "src" / "nonolab"
CAT = str(Path(__file__).resolve().parents[2] / "puzzles" / "webpbn" / "webpbn-00006-cat.non")


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_convert_to_an_unknown_suffix_names_the_option(tmp_path):
    result = _run("convert", CAT, tmp_path / "cat.txt")
    assert result.exit_code == 2
    assert "--to" in result.stderr and "fmt" not in result.stderr
    assert "picture" in result.stderr                  # the format names to choose from
    assert not (tmp_path / "cat.txt").exists()


def test_generate_speaks_of_its_options():
    result = _run("generate", "--size", "5x5", "--seed", "-1")
    assert result.exit_code == 2 and "--seed must be a non-negative integer" in result.stderr


def test_convert_help_lists_the_format_names():
    text = _run("convert", "--help").output
    for name in FORMAT_NAMES:
        assert re.search(rf"\b{name}\b", text), name


def test_the_format_names_of_help_are_the_registry():
    from nonolab.formats import names
    assert sorted(FORMAT_NAMES) == sorted(names())


def _parameters(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = func.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self", "cls"}


def _literal_text(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal_text(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _literal_text(node.left) + _literal_text(node.right)
    return ""


# A Python caller's mistakes (a wrong type, a negative limit) stay ValueError/TypeError in
# Python's words: the command line checks its options before it calls.
_PROGRAMMING_ERRORS = {"TypeError", "ValueError", "AssertionError", "RuntimeError"}


def _backend_options() -> set[str]:
    # Backend options are spelt the same with -O KEY=VALUE: they are the command line's words.
    from nonolab.solvers import names, options_of
    return {option.name for name in names() for option in options_of(name)}


def _leaks():
    # A parameter name in the literal text of a message the library raises: one a front end
    # cannot translate. Names with an underscore or jargon ("fmt") are Python's, not English.
    spoken = _backend_options()
    for path in sorted(SRC.rglob("*.py")):
        if "cli" in path.relative_to(SRC).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            names = {n for n in _parameters(func) if "_" in n.strip("_") or n == "fmt"} - spoken
            for node in ast.walk(func):
                if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args
                        and getattr(node.exc.func, "id", None) not in _PROGRAMMING_ERRORS):
                    text = _literal_text(node.exc.args[0])
                    for name in names:
                        if re.search(rf"(?<![\w{{]){re.escape(name)}(?![\w}}])", text):
                            yield f"{path.relative_to(SRC)}:{node.lineno}: {name!r} in {text!r}"


def test_no_library_message_names_a_python_parameter():
    leaks = list(_leaks())
    assert not leaks, "say it with {arg} and argument=... (NonolabError.said_as):\n" + "\n".join(leaks)


@pytest.mark.parametrize("args, option", [
    (["generate", "--size", "5x5", "--density", "1.5"], "--density"),
    (["generate", "--size", "5x5", "--colours", "0"], "--colours"),
    (["render", CAT, "-o", "cat.txt"], "--to"),
])
def test_library_errors_are_said_with_the_option(args, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _run(*args)
    assert result.exit_code == 2 and option in result.stderr, result.stderr


T2 = str(Path(__file__).resolve().parents[2] / "puzzles" / "hakank" / "t2.non")


@pytest.mark.parametrize("args, words", [
    # Audit 7: each was dropped in silence: the grids --every picks are not printed at all with
    # --no-grid, and --report does not enumerate as --why does.
    (["explain", T2, "--every", "5", "--no-grid"], "--every picks the grids to print: not with --no-grid"),
    (["check", T2, "--report", "--why-enumerate", "5"], "--why-enumerate goes with --why, not --report"),
    # Audit 10: --json's record has no grids, so --every picked none there either.
    (["explain", T2, "--every", "5", "--json"], "--every picks the grids to print: not with --json"),
])
def test_an_option_the_command_would_not_use_is_refused(args, words):
    result = _run(*args)
    assert result.exit_code == 2 and words in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_why_enumerate_implies_why_as_why_image_does():
    # Audit 7: `check --why-enumerate 5` printed the plain check, the option unused.
    result = _run("check", T2, "--why-enumerate", "5")
    assert result.exit_code == 1 and "where solutions differ (exact)" in result.stdout, result.stdout


def test_nonolab_alone_prints_its_help_as_help_not_one_squashed_error_line():
    # Audit 7: `nonolab` with no command printed "nonolab: error: Usage: nonolab [OPTIONS] ...
    # Commands: backends List ..." : the whole help folded into one "error" line.
    result = _run()   # the help, as click before 8.2 gave it (exit 0), and as --help does
    assert result.exit_code == 0 and "nonolab: error" not in result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Usage: ") and "Commands:" in lines and len(lines) > 20, result.output
    assert result.stdout == _run("--help").stdout
