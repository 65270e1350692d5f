"""Several puzzles into ``.non`` are refused on every path that writes them, in one line, before any
work: ``convert``, ``repair``, ``solve -o`` and ``generate`` to standard output (audit 10's leftover:
``convert easy.pbn e.non`` was refused while ``generate -n 2`` printed two ``.non`` files as one).
``.non`` holds one puzzle a file (tests/formats/test_non_sets.py says why); one puzzle is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nonolab.formats import dumps, dumps_all, load, loads_all

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
HEART, MANY = load(PUZZLES / "nonolab" / "heart.non"), load(PUZZLES / "nonolab" / "permutations-5.non")


def _refused(result, where: str) -> None:
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith(f"nonolab: error: {where}: the 'non' format holds one puzzle, and there are 2 "
                                    "to write (formats holding several: webpbn, json, taai)"), result.stderr
    assert result.stderr.count("\n") == 1


@pytest.fixture
def pbn(tmp_path) -> Path:
    """The audit's reproduction: a webpbn <puzzleset> of two puzzles."""
    path = tmp_path / "easy.pbn"
    path.write_text(dumps_all([HEART, MANY], "webpbn"), encoding="utf-8")
    return path


@pytest.fixture
def stream(tmp_path) -> Path:
    """Two .non files one after another (`cat`): read as a set of two."""
    path = tmp_path / "two.non"
    path.write_text(dumps(HEART, "non") + dumps(MANY, "non"), encoding="utf-8")
    return path


def test_convert_of_a_set_to_non_is_refused(run, pbn, tmp_path):
    out = tmp_path / "e.non"
    _refused(run("convert", pbn, out), str(out))
    assert not out.exists()
    _refused(run("convert", pbn, tmp_path / "e.xml", "--to", "non"), str(tmp_path / "e.xml"))
    assert run("convert", pbn, tmp_path / "e.json").exit_code == 0   # a format that holds several


def test_repair_and_solve_of_a_set_to_non_are_refused(run, stream, pbn, tmp_path):
    _refused(run("repair", stream), str(stream))                       # standard output, the input's format
    _refused(run("repair", pbn, "-o", tmp_path / "r.non"), str(tmp_path / "r.non"))
    _refused(run("solve", pbn, "-o", tmp_path / "s.non"), str(tmp_path / "s.non"))
    assert not (tmp_path / "r.non").exists() and not (tmp_path / "s.non").exists()
    one = run("repair", stream, "--index", "2", "-o", tmp_path / "r.non")   # one puzzle of the set fits
    assert one.exit_code == 0 and len(loads_all((tmp_path / "r.non").read_text(), "non")) == 1


def test_generate_of_several_to_standard_output_in_non_is_refused(run, tmp_path):
    result = run("generate", "--size", "6x6", "--count", 2, "--format", "non")
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("nonolab: error: --format non holds one puzzle a file, and --count 2 asks for 2: "
                                    "give --out DIR (a file each), or a format holding several: webpbn, json, taai")
    one = run("generate", "--size", "6x6", "--count", 1, "--format", "non")
    assert one.exit_code == 0 and len(loads_all(one.stdout, "non")) == 1
    files = run("generate", "--size", "6x6", "--count", 2, "--format", "non", "--out", tmp_path / "gen")
    assert files.exit_code == 0 and len(list((tmp_path / "gen").glob("*.non"))) == 2


def test_a_stream_of_non_files_is_still_read_as_a_set(run, stream):
    result = run("check", stream)
    assert result.exit_code == 1 and result.stdout.splitlines()[:2] == ['#1 "heart": unique',
                                                                        '#2 "permutations-5": multiple']
