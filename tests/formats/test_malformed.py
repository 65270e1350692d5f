"""Every malformed file raises one NonolabError naming ``path:line:`` and the problem, when read whole
(``load_all``: ``load`` reads a set's first puzzle, whatever the others are)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nonolab.errors import InvalidPuzzle, NonolabError, ParseError
from nonolab.formats import load_all, loads_all

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from malformed_cases import CASES, write_case  # noqa: E402

IDS = [c[0] for c in CASES]


def test_the_table_is_broad():
    assert len(CASES) >= 24
    assert len({c[0] for c in CASES}) == len(CASES)
    suffixes = {Path(c[1]).suffix for c in CASES}
    assert {".non", ".xml", ".nin", ".mk", ".g", ".cwd", ".taai", ".tatham", ".json", ".grid",
            ".pbm"} <= suffixes


@pytest.mark.parametrize("case_id, filename, text, line, fragment", CASES, ids=IDS)
def test_load_names_file_line_and_problem(tmp_path, case_id, filename, text, line, fragment):
    path = write_case(tmp_path, filename, text)
    with pytest.raises(NonolabError) as info:
        load_all(path)
    err = info.value
    assert isinstance(err, (ParseError, InvalidPuzzle))
    message = str(err)
    assert "\n" not in message
    assert message.startswith(f"{path}:{line}: "), message
    assert err.path == str(path) and err.line == line
    assert fragment in message.lower(), message


@pytest.mark.parametrize("case_id, filename, text, line, fragment", CASES, ids=IDS)
def test_loads_gives_the_line_without_a_path(case_id, filename, text, line, fragment):
    from nonolab.formats import format_for_path
    with pytest.raises(NonolabError) as info:
        loads_all(text, format_for_path(filename))
    assert info.value.line == line
    assert info.value.path is None
    assert str(info.value).startswith(f"line {line}: ")
