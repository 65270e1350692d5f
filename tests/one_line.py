"""The shape every refused command line has: exit 2 and one line on standard error,
``nonolab: error: ...``, that says what was refused."""

from __future__ import annotations


def one_line_error(result, *words: str) -> str:
    """The one error line of a ``CliRunner`` result, each of ``words`` in it."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nonolab: error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]
