"""The input-size limits: absurd inputs refused before any work on them, and the limits can be raised."""

from __future__ import annotations

import tracemalloc

import pytest
from click.testing import CliRunner

from nonolab.cli.main import cli
from nonolab.errors import TooLarge
from nonolab.formats import InputLimits, load, loads
from nonolab.formats import limits as input_limits


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from nonolab.formats import _files

    big = tmp_path / "big.nin"
    with open(big, "wb") as f:
        f.truncate(200 * 2 ** 20)  # sparse: 200 MB of zeros that take no disk
    asked: list[int | None] = []

    class Counted:                  # the opened file, counting what is asked of it
        def __init__(self, stream):
            self.stream = stream

        def read(self, size=None):
            asked.append(size)
            return self.stream.read(size)

        def __getattr__(self, name):
            return getattr(self.stream, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.stream.close()

    monkeypatch.setattr(_files, "open", lambda *a, **k: Counted(open(*a, **k)), raising=False)
    with pytest.raises(TooLarge) as err:
        load(big)
    assert asked == []                              # not one byte read: the size said enough
    assert str(err.value).startswith(f"{big}: the file is 200.0 MiB, beyond the input limit of 64.0 MiB")
    assert "NONOLAB_MAX_INPUT_BYTES" in str(err.value)


def test_the_cli_refuses_it_with_one_line_and_exit_2(tmp_path):
    big = tmp_path / "big.nin"
    with open(big, "wb") as f:
        f.truncate(65 * 2 ** 20)
    result = CliRunner().invoke(cli, ["check", str(big)])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "beyond the input limit" in result.stderr


def test_standard_input_is_read_no_further_than_the_limit(monkeypatch):
    monkeypatch.setenv(input_limits.BYTES_VARIABLE, "1000")
    result = CliRunner().invoke(cli, ["info", "-"], input="1 1\n" + " " * 5000)
    assert result.exit_code == 2
    assert "-: the file is more than 1,000 bytes, beyond the input limit of 1,000 bytes" in result.stderr


def test_a_tatham_id_with_a_huge_size_is_refused_before_its_clues_are_read():
    loads("1x1:1/1")   # the readers' modules imported first: the peak below is the parse's alone
    tracemalloc.start()
    try:
        with pytest.raises(TooLarge) as err:
            loads("99999999x99999999:" + "/" * 10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 ** 20                           # nothing of the size's grid was built
    assert "99999999x99999999 = 9,999,999,800,000,001 cells, beyond the limit of 100,000,000 cells" in str(err.value)


def test_the_cell_limit_counts_clue_lines_of_formats_without_a_size(tmp_path):
    # 11,000 rows and 10,000 columns of empty clues: 110,000,000 cells in 42 KB.
    text = "width 10000\nheight 11000\nrows\n" + "0\n" * 11000 + "columns\n" + "0\n" * 10000
    with pytest.raises(TooLarge, match="10000x11000 = 110,000,000 cells"):
        loads(text, "non")


def test_limits_can_be_raised_by_argument_environment_or_default(tmp_path, monkeypatch):
    path = tmp_path / "small.tatham"
    path.write_text("3x2:1/1/1/3/\n")
    with pytest.raises(TooLarge):
        load(path, limits=InputLimits(max_cells=5))
    assert load(path, limits=InputLimits(max_cells=6)).width == 3
    with pytest.raises(TooLarge):
        load(path, limits=InputLimits(max_bytes=5))
    monkeypatch.setenv(input_limits.CELLS_VARIABLE, "5")
    with pytest.raises(TooLarge):
        load(path)
    assert load(path, limits=InputLimits(max_cells=6)).width == 3  # the argument wins
    result = CliRunner().invoke(cli, ["info", str(path)])
    assert result.exit_code == 2 and "NONOLAB_MAX_CELLS" in result.stderr
    monkeypatch.setenv(input_limits.CELLS_VARIABLE, "6")
    assert CliRunner().invoke(cli, ["info", str(path)]).exit_code == 0
    monkeypatch.delenv(input_limits.CELLS_VARIABLE)
    monkeypatch.setattr(input_limits, "DEFAULT", InputLimits(max_bytes=2 ** 20, max_cells=5))
    with pytest.raises(TooLarge):
        load(path)


def test_a_bad_limit_in_the_environment_is_named(monkeypatch):
    monkeypatch.setenv(input_limits.CELLS_VARIABLE, "lots")
    result = CliRunner().invoke(cli, ["info", "x.non"])
    assert result.exit_code == 2 and "NONOLAB_MAX_CELLS='lots' is not a whole number" in result.stderr


def test_a_pbm_header_with_a_huge_size_is_refused_before_its_raster():
    with pytest.raises(TooLarge, match="100000x100000"):
        loads("P4\n100000 100000\n" + "\x00" * 10, "pbm")
