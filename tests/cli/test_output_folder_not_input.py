"""No command writes into an output folder a file that replaces (or removes) one of its
inputs, even with --force: the files each folder-writing command would write there are
checked against the command's inputs (nonolab.formats._input_guard), as an
output file is (test_output_not_input.py).  Each case lost its input before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nonolab.errors import InvalidArgument
from tests.one_line import one_line_error

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
CAR = PUZZLES / "hakank" / "car.non"
SWITCH = PUZZLES / "nonolab" / "switch.non"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("how", ["plain", "report", "link"])
def test_a_certificate_folder_holding_the_input_is_refused_and_kept_whole(run, tmp_path, monkeypatch, how):
    # Before, `check cert/mine.non --certify cert` replaced the certificate folder whole,
    # and mine.non went with it (exit 1, "certified").
    monkeypatch.chdir(tmp_path)
    assert run("check", SWITCH, "--certify", "cert").exit_code == 1   # multiple: certified
    shutil.copy(CAR, tmp_path / "cert" / "mine.non")
    before = _files(tmp_path / "cert")
    puzzle = "cert/mine.non"
    if how == "link":
        (tmp_path / "link.non").symlink_to("cert/mine.non")
        puzzle = "link.non"
    args = ("check", puzzle, "--certify", "cert") + (("--report",) if how == "report" else ())
    line = one_line_error(run(*args), "--certify cert", f"the input file {puzzle}", "write to another folder")
    assert ("links to" in line) == (how == "link")
    assert _files(tmp_path / "cert") == before
    # another puzzle certified there replaces the earlier certificate, as before
    assert run("check", CAR, "--certify", "elsewhere").exit_code == 0


def test_generate_force_never_removes_the_image_it_reads(run, tmp_path, monkeypatch):
    # Before, the image, a file of the earlier set in --out, was removed by --force (not in
    # the new set), exit 0.
    pytest.importorskip("PIL")
    monkeypatch.chdir(tmp_path)
    assert run("generate", "--size", "8x8", "-n", "2", "--seed", "1", "--format", "png", "--out", "g").exit_code == 0
    before = _files(tmp_path / "g")
    image = "g/" + sorted(before)[0]
    one_line_error(run("generate", "--size", "8x8", "--from-image", image, "--format", "png", "--out", "g",
                       "--force"), "--out g", f"the input file {image}")
    assert _files(tmp_path / "g") == before
    result = run("generate", "--size", "8x8", "--from-image", image, "--format", "png", "--out", "g2")
    assert result.exit_code == 0 and len(list((tmp_path / "g2").iterdir())) == 2


def test_set_writer_raises_a_typed_error_before_making_anything(tmp_path):
    from nonolab.generate import SetWriter
    (tmp_path / "index.csv").write_text("file\nx.png\n")
    (tmp_path / "x.png").write_bytes(b"an image")
    with pytest.raises(InvalidArgument, match=r"^--out .*: writing there would replace \(or remove\) the input"):
        SetWriter(tmp_path, "png", force=True, inputs=[tmp_path / "x.png"])
    with pytest.raises(InvalidArgument, match=r"x.png would be replaced .* input file .*y.png by another name"):
        (tmp_path / "y.png").hardlink_to(tmp_path / "x.png")
        SetWriter(tmp_path, "png", force=True, inputs=[tmp_path / "y.png"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.csv", "x.png", "y.png"]


@pytest.mark.parametrize("args", [
    ("bench", "d/summary.json", "--out", "d"),                       # a set saved as summary.json
    ("bench", "d", "--out", "d", "--force", "--charts", "png"),      # a puzzle saved as cactus.png
])
def test_bench_reports_never_replace_a_puzzle_it_reads(run, tmp_path, monkeypatch, args):
    # Before, summary.json was overwritten by the summary after the runs (and with --force,
    # cactus.png was removed before them), exit 0.
    from nonolab.formats import dump_bytes, load
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "summary.json").write_bytes(dump_bytes(load(SWITCH), "json"))
    if "png" in args:
        pytest.importorskip("PIL")
        from nonolab.core import Puzzle, Solution
        picture = Puzzle.from_solution(Solution.from_values([[1, 0, 1], [1, 1, 0], [0, 1, 1]]), "picture")
        (tmp_path / "d" / "cactus.png").write_bytes(dump_bytes(picture, "png"))
    before = _files(tmp_path / "d")
    one_line_error(run(*args, "-t", "5"), "--out d", "the input file d/")
    assert _files(tmp_path / "d") == before


def test_bench_reports_never_replace_an_external_declaration_it_reads(run, tmp_path, monkeypatch):
    # The --external NAME=FILE.toml declarations were not among the files checked: a summary
    # that is the declaration by another name (here a link to it) replaced it, exit 1.
    monkeypatch.chdir(tmp_path)
    shutil.copy(SWITCH, "a.non")
    (tmp_path / "mine.toml").write_text('program = "/bin/echo"\n[commands]\ncheck = "{program} multiple {file.non}"\n')
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "summary.md").symlink_to("../mine.toml")
    before = (tmp_path / "mine.toml").read_bytes()
    line = one_line_error(run("bench", "a.non", "--out", "d", "-b", "", "--external", "mine=mine.toml", "-t", "5"),
                          "--out d", "the input file mine.toml")
    assert "by another name" in line and (tmp_path / "mine.toml").read_bytes() == before
    assert not (tmp_path / "d" / "runs.csv").exists()   # refused before any run


def test_bench_reports_never_replace_a_file_of_the_base_version(run, tmp_path, monkeypatch):
    # --base DIR (another version of nonolab, run beside this one) was not checked either:
    # --out DIR replaced its summary.json after the runs, exit 0.
    monkeypatch.chdir(tmp_path)
    shutil.copy(SWITCH, "a.non")
    (tmp_path / "old" / "nonolab").mkdir(parents=True)   # a folder holding nonolab (a stand-in: never run here)
    (tmp_path / "old" / "nonolab" / "__init__.py").write_text("# the base version\n")
    (tmp_path / "old" / "summary.json").write_text('{"mine": "kept"}\n')
    line = one_line_error(run("bench", "a.non", "--base", "old", "--out", "old", "-b", "native", "-t", "5"),
                          "--out old", "old/summary.json", "a file of the --base tree old", "write to another folder")
    assert (tmp_path / "old" / "summary.json").read_text() == '{"mine": "kept"}\n' and "links to" not in line
    assert not (tmp_path / "old" / "runs.csv").exists()
    # a link in --out to a file of the tree is refused too, and so is one through a link in
    # the tree to a folder elsewhere (a venv's bin/python links out of it)
    (tmp_path / "d").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "engine.py").write_text("# a file the base version reads\n")
    (tmp_path / "old" / "lib").symlink_to("../elsewhere")
    for target in ("../old/nonolab/__init__.py", "../old/lib/engine.py"):
        (tmp_path / "d" / "summary.md").unlink(missing_ok=True)
        (tmp_path / "d" / "summary.md").symlink_to(target)
        one_line_error(run("bench", "a.non", "--base", "old", "--out", "d", "-b", "native", "-t", "5"),
                       "--out d", "d/summary.md", "--base tree old (where it links to)")
    assert (tmp_path / "old" / "nonolab" / "__init__.py").read_text() == "# the base version\n"
    assert (tmp_path / "elsewhere" / "engine.py").read_text() == "# a file the base version reads\n"


def test_crosscheck_refuses_a_report_on_an_input_before_any_work(run, tmp_path, monkeypatch):
    from nonolab.formats import dump_bytes, load
    monkeypatch.chdir(tmp_path)
    shutil.copy(SWITCH, "a.non")
    (tmp_path / "nonolab-disagreement-a.json").write_bytes(dump_bytes(load(SWITCH), "json"))
    before = _files(tmp_path)
    one_line_error(run("crosscheck", "a.non", "nonolab-disagreement-a.json", "--backends", "native,lcg",
                       "--report-dir", "."),
                   "--report-dir .", "the input file nonolab-disagreement-a.json")
    assert _files(tmp_path) == before
    assert run("crosscheck", "a.non", "nonolab-disagreement-a.json", "--backends", "native,lcg",
               "--report-dir", "reports").exit_code == 0


@pytest.mark.parametrize("args", [
    ("check", "a.non", "--certify", "a.non"),
    ("bench", "a.non", "--out", "a.non"),
    ("crosscheck", "a.non", "--report-dir", "a.non"),
    ("generate", "--size", "4x4", "--out", "a.non"),
])
def test_an_output_folder_that_is_an_input_file_is_refused_in_one_line(run, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    shutil.copy(CAR, "a.non")
    one_line_error(run(*args), "a.non")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.non"] and Path("a.non").read_bytes() == CAR.read_bytes()
