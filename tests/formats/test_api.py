"""The public functions of nonolab.formats: registry, sniffing, files, atomic writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument, InvalidPuzzle, NonolabError, ParseError, UnknownFormat
from nonolab import formats
from nonolab.formats import (dump, dump_all, dumps, dumps_all, format_for_path, load, load_all,
                             loads, loads_all, names, sniff)

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
HEART_ROWS = ((1, 1), (5,), (5,), (3,), (1,), ())
HEART_COLUMNS = ((2,), (4,), (4,), (4,), (2,), ())
HEART = Solution.from_rows([".#.#..", "#####.", "#####.", ".###..", "..#...", "......"])


def heart(**kw) -> Puzzle:
    return Puzzle.from_solution(HEART, **kw)


def test_names_are_the_documented_ones():
    assert sorted(names()) == sorted(["non", "webpbn", "nin", "mk", "g", "cwd", "taai", "tatham",
                                      "json", "picture", "pbm", "dzn", "pynogram", "toml", "keen", "syro",
                                      "ish", "makhorin", "faase", "lp", "png", "emoji", "ctu"])


@pytest.mark.parametrize("path, fmt", [
    ("a.non", "non"), ("a.NON", "non"), ("b.nonpack", "non"), ("c.xml", "webpbn"),
    ("c.pbn", "webpbn"), ("d.nin", "nin"), ("e.mk", "mk"), ("f.g", "g"), ("g.cwd", "cwd"),
    ("h.taai", "taai"), ("i.tatham", "tatham"), ("i.pattern", "tatham"), ("j.json", "json"),
    ("k.grid", "picture"), ("l.pbm", "pbm"), ("m.txt", None), ("o.keen", "keen"),
    ("o.syro", "syro"), ("o.ish", "ish"), ("o.makhorin", "makhorin"), ("p.toml", "toml"),
    ("q.faase", "faase"), ("r.lp", "lp"), ("s.ss", "non"), ("n.png", "png"), ("n.ctu", "ctu"), ("n.emoji", "emoji"), ("noext", None),
])
def test_format_for_path(path, fmt):
    assert format_for_path(path) == fmt
    assert format_for_path(Path(path)) == fmt


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()))
def test_every_sample_gives_the_heart(name):
    puzzle = load(DATA / name)
    assert (puzzle.rows, puzzle.columns) == (HEART_ROWS, HEART_COLUMNS)
    if puzzle.goal is not None:
        assert puzzle.goal == HEART


@pytest.mark.parametrize("name, fmt", [
    ("heart.non", "non"), ("heart.xml", "webpbn"), ("heart.nin", "nin"), ("heart.mk", "mk"),
    ("heart.g", "g"), ("heart.cwd", "cwd"), ("heart.taai", "taai"), ("heart.tatham", "tatham"),
    ("heart.json", "json"), ("heart.grid", "picture"), ("heart01.txt", "picture"),
    ("heart.pbm", "pbm"), ("headerless.txt", "taai"), ("heart_pynogram.txt", "pynogram"),
    ("heart.keen", "keen"), ("heart.syro", "syro"), ("heart.ish", "ish"),
    ("heart.makhorin", "makhorin"), ("heart.toml", "toml"), ("heart.faase", "faase"),
    ("heart.lp", "lp"),
])
def test_sniff_recognises_the_samples(name, fmt):
    assert sniff((DATA / name).read_text(encoding="utf-8")) == fmt


def test_sniff_binary_pbm():
    assert sniff((DATA / "heart_p4.pbm").read_bytes().decode("latin-1")) == "pbm"


def test_sniff_refuses_unknown_content():
    with pytest.raises(UnknownFormat, match="cannot recognise"):
        sniff("hello, world\n")
    with pytest.raises(UnknownFormat):
        loads("hello, world\n")


def test_nin_is_the_last_resort_of_sniffing(tmp_path):
    text = (DATA / "heart.nin").read_text()
    assert sniff(text) == "nin"
    # With a '#' line the same header makes it .mk, which is tried first.
    assert sniff(text.replace("\n2\n", "\n#\n2\n", 1)) == "mk"
    (tmp_path / "heart.dat").write_text(text)
    assert load(tmp_path / "heart.dat").size == (6, 6)


def test_suffix_wins_over_weak_heuristics(tmp_path):
    # Broken .mk (no '#'): the .mk reader explains, even though it looks like .nin.
    path = tmp_path / "x.mk"
    path.write_text("2 2\n1\n1\n1\n1\n")
    with pytest.raises(ParseError, match="expected a '#' line"):
        load(path)


def test_strong_signature_wins_over_suffix(tmp_path):
    path = tmp_path / "really_json.non"
    path.write_text('{"rows": [[1]], "columns": [[1]]}')
    assert load(path).rows == ((1,),)


def test_explicit_format(tmp_path):
    path = tmp_path / "heart.dat"
    path.write_text((DATA / "heart.nin").read_text())
    assert load(path, "nin").rows == HEART_ROWS
    with pytest.raises(UnknownFormat, match="unknown format 'nope'"):
        load(path, "nope")
    with pytest.raises(UnknownFormat):
        loads("", "nope")


def test_loads_takes_text_never_a_path():
    with pytest.raises(ParseError):
        loads(str(DATA / "heart.non"), "non")
    with pytest.raises(TypeError, match="loads"):
        loads(b"width 1")   # type: ignore[arg-type]


def test_loads_gives_the_first_puzzle_and_loads_all_every_one():
    text = (DATA / "heart.taai").read_text()
    assert loads(text).name == "$1"
    assert [p.name for p in loads_all(text)] == ["$1", "$2"]
    assert [p.name for p in load_all(DATA / "heart.xml")] == ["Heart", "Corner"]


def test_missing_file_is_a_parse_error_naming_it(tmp_path):
    path = tmp_path / "missing.non"
    with pytest.raises(ParseError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: cannot read the file")
    with pytest.raises(ParseError):
        load(tmp_path)      # a directory


def test_non_utf8_file_names_its_line(tmp_path):
    path = tmp_path / "latin1.non"
    path.write_bytes(b"width 1\nheight 1\ntitle \"caf\xe9\"\n")
    with pytest.raises(ParseError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}:3: ")
    assert "utf-8" in str(info.value).lower()


def test_xml_in_a_declared_encoding(tmp_path):
    path = tmp_path / "latin1.xml"
    text = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<puzzleset><puzzle><title>caf\xe9</title>'
            '<solution><image>|X|</image></solution></puzzle></puzzleset>\n')
    path.write_bytes(text.encode("latin-1"))
    assert load(path).name == "caf\xe9"


def test_dumps_unknown_format():
    with pytest.raises(UnknownFormat):
        dumps(heart(), "bmp")


def test_dumps_all_for_single_puzzle_formats():
    assert dumps_all([heart()], "nin") == dumps(heart(), "nin")
    with pytest.raises(InvalidArgument, match="holds one puzzle"):   # typed: the CLI says it in one line
        dumps_all([heart(), heart()], "nin")
    with pytest.raises(InvalidArgument, match="no puzzles"):
        dumps_all([], "webpbn")


@pytest.mark.parametrize("fmt", ["webpbn", "taai", "json"])
def test_multi_puzzle_formats_round_trip(fmt, tmp_path):
    puzzles = [heart(name="a"), Puzzle.from_solution(Solution.from_rows(["#.", ".."]), name="b")]
    back = loads_all(dumps_all(puzzles, fmt), fmt)
    assert [(p.rows, p.columns) for p in back] == [(p.rows, p.columns) for p in puzzles]
    path = tmp_path / "set.out"
    dump_all(puzzles, path, fmt)
    assert len(load_all(path, fmt)) == 2


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_dump_replaces_an_existing_file(tmp_path):
    path = tmp_path / "heart.non"
    path.write_text("old content\n")
    dump(heart(name="Heart"), path)
    assert load(path) == heart(name="Heart")
    assert load(path).goal == HEART
    assert _leftovers(tmp_path) == []


def test_dump_by_suffix_and_explicit_format(tmp_path):
    dump(heart(), tmp_path / "h.tatham")
    assert (tmp_path / "h.tatham").read_text() == "6x6:2/4/4/4/2//1.1/5/5/3/1/\n"
    dump(heart(), tmp_path / "h.txt", "picture")
    assert load(tmp_path / "h.txt").goal == HEART
    with pytest.raises(UnknownFormat, match="suffix '.txt'"):
        dump(heart(), tmp_path / "other.txt")
    assert not (tmp_path / "other.txt").exists()


def test_a_failing_writer_leaves_the_old_file_alone(tmp_path):
    path = tmp_path / "picture.grid"
    path.write_text("old\n")
    no_goal = Puzzle(rows=HEART_ROWS, columns=HEART_COLUMNS)
    with pytest.raises(InvalidPuzzle, match="needs a goal"):
        dump(no_goal, path)
    assert path.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


def test_a_failing_write_leaves_the_old_file_alone(tmp_path, monkeypatch):
    path = tmp_path / "heart.non"
    path.write_text("old\n")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        dump(heart(), path)
    assert path.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


def test_error_hierarchy():
    for case in (ParseError, InvalidPuzzle, UnknownFormat):
        assert issubclass(case, NonolabError)
    assert formats.__all__


@pytest.mark.parametrize("name, fmt", [
    ("heart.non", "non"), ("heart.xml", "webpbn"), ("heart.nin", "nin"), ("heart_p4.pbm", "pbm"),
    ("heart01.txt", "picture"), ("headerless.txt", "taai"), ("heart.g", "g"),
])
def test_detect_format(name, fmt):
    from nonolab.formats import detect_format
    assert detect_format(DATA / name) == fmt


def test_detect_format_errors(tmp_path):
    from nonolab.formats import detect_format
    with pytest.raises(ParseError, match="cannot read"):
        detect_format(tmp_path / "missing.non")
    (tmp_path / "odd.dat").write_text("hello\n")
    with pytest.raises(UnknownFormat) as info:
        detect_format(tmp_path / "odd.dat")
    assert str(info.value).startswith(str(tmp_path / "odd.dat") + ": ")


@pytest.mark.parametrize("name", ["empty.dat", "blank.txt", "empty.xml"])
def test_empty_files_are_empty_whatever_the_suffix(tmp_path, name):
    (tmp_path / name).write_text(" \n\n")
    with pytest.raises(ParseError) as info:
        load(tmp_path / name)
    assert str(info.value) == f"{tmp_path / name}:1: the file is empty"
    with pytest.raises(ParseError, match="line 1: the file is empty"):
        loads("")


def test_dump_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    path = tmp_path / "private.non"
    path.write_text("old\n")
    path.chmod(0o600)
    dump(heart(), path)
    assert path.stat().st_mode & 0o777 == 0o600


def test_dump_errors_name_the_target(tmp_path):
    with pytest.raises(UnknownFormat) as info:
        dump(heart(), tmp_path / "x.non", "bmp")
    assert str(info.value).startswith(str(tmp_path / "x.non") + ": unknown format 'bmp'")
    with pytest.raises(InvalidPuzzle) as info:
        dump(Puzzle(rows=((1,),), columns=((1,),)), tmp_path / "x.pbm")
    assert str(info.value).startswith(str(tmp_path / "x.pbm") + ": ")


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()))
def test_bytes_with_a_name_read_as_the_file_of_that_name(name):
    # An upload is read as a file of its name: the same format chosen, the same puzzles.
    from nonolab.formats import load_bytes_all
    from_file = load_all(DATA / name)
    from_bytes = load_bytes_all((DATA / name).read_bytes(), name)
    assert [(p.rows, p.columns, p.goal) for p in from_bytes] == [(p.rows, p.columns, p.goal) for p in from_file]


@pytest.mark.parametrize("name, text", [("broken.mk", "2 2\n1\n1\n1\n1\n"), ("empty.non", ""),
                                        ("bad.non", "width 1\nheight 1\nrows\n2\ncolumns\n1\n"),
                                        ("latin.non", b"width 1\n\xff\n")])
def test_bytes_with_a_name_fail_as_the_file_of_that_name(tmp_path, monkeypatch, name, text):
    from nonolab.formats import load_bytes_all
    data = text if isinstance(text, bytes) else text.encode()
    (tmp_path / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NonolabError) as from_file:
        load_all(name)
    with pytest.raises(NonolabError) as from_bytes:
        load_bytes_all(data, name)
    assert str(from_bytes.value) == str(from_file.value) and str(from_file.value).startswith(name)


def test_bytes_beyond_the_input_limit_are_refused():
    from nonolab.errors import TooLarge
    from nonolab.formats import InputLimits, load_bytes_all
    with pytest.raises(TooLarge, match="beyond the input limit") as refused:
        load_bytes_all(b"1x1:1/1\n" * 10, "big.tatham", limits=InputLimits(max_bytes=16))
    assert str(refused.value).startswith("big.tatham: ")
