"""Bad input: one line on stderr naming the file and line, exit code 2, never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from malformed_cases import CASES
from nonolab.cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def _assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0].lower() if fragment.islower() else fragment in lines[0]


def test_there_are_at_least_20_distinct_malformed_inputs():
    assert len({case[0] for case in CASES}) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("command", ["check", "info"])
def test_malformed_input_is_a_one_line_error(tmp_path, case, command):
    case_id, filename, text, line, fragment = case
    path = tmp_path / filename
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    result = _run(command, str(path))
    if _a_set_with_good_puzzles(path):
        # The bad puzzle's one-line error is its answer in its place; the others are answered, exit 2.
        assert result.exit_code == 2 and "Traceback" not in result.output
        errors = [x for x in result.stdout.splitlines() if ": error: " in x]
        assert len(errors) == 1 and f"{path}:{line}:" in errors[0] and fragment in errors[0].lower(), result.output
        return
    _assert_one_line_error(result, str(path), f":{line}:", fragment)


def _a_set_with_good_puzzles(path) -> bool:
    from nonolab.errors import NonolabError
    from nonolab.formats import load_each

    try:
        return any(not isinstance(p, NonolabError) for p in load_each(path))
    except NonolabError:
        return False


def test_missing_file(tmp_path):
    missing = str(tmp_path / "nope.non")
    _assert_one_line_error(_run("check", missing), missing)


def test_unknown_backend(tmp_path):
    path = tmp_path / "p.non"
    path.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    _assert_one_line_error(_run("check", str(path), "--backend", "nosuch"), "unknown backend")


def test_unknown_output_format(tmp_path):
    path = tmp_path / "p.non"
    path.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    _assert_one_line_error(_run("convert", str(path), str(tmp_path / "out.unknownsuffix")), "format")


def test_usage_error_exits_2():
    assert _run("check").exit_code == 2
    assert _run("count", "x.non", "--limit", "0").exit_code == 2
