"""The command line against issue 24's attacks: every limit of the one input budget holds,
before the work it bounds, with a one-line error (exit 2); the command's clock holds for
sets and replays; ``-`` means standard output consistently; no traceback anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from nonolab.errors import TooLarge
from nonolab.formats import InputLimits, load, loads, loads_all

from one_line import one_line_error

SMALL = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n"


def nonolab(*args: str, stdin=subprocess.DEVNULL, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    """The real command in its own process (standard input, environment and descriptors as given)."""
    return subprocess.run([sys.executable, "-m", "nonolab", *map(str, args)], stdin=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(env or {})})


# ---- the budget: sizes refused before the work -------------------------------------------


@pytest.mark.parametrize("size, words", [("100000x100000", "100000x100000 = 10,000,000,000 cells"),
                                         ("10001x10000", "10001x10000 = 100,010,000 cells")])
def test_generate_beyond_the_cell_limit_is_refused_before_a_cell_is_drawn(run, size, words):
    one_line_error(run("generate", "--size", size), words, "beyond the limit of 100,000,000 cells")


def test_a_picture_is_refused_from_its_first_row_and_line_count():
    with pytest.raises(TooLarge, match=r"line 1: the puzzle is 30x20 = 600 cells, beyond the limit of 500"):
        loads(("#." * 15 + "\n") * 20, "picture", limits=InputLimits(max_cells=500))


def test_a_png_is_refused_from_its_header(tmp_path):
    from PIL import Image
    Image.new("L", (30, 20), 255).save(tmp_path / "big.png")
    with pytest.raises(TooLarge, match="the PNG is 30x20 = 600 pixels, beyond the limit of 100 pixels"):
        load(tmp_path / "big.png", limits=InputLimits(max_pixels=100))


def test_a_png_reads_into_the_same_puzzle_through_numpy(tmp_path):
    from PIL import Image
    image = Image.new("RGBA", (5, 3), (255, 255, 255, 255))
    for x, y, colour in ((0, 0, (200, 0, 0, 255)), (1, 0, (200, 0, 0, 255)), (3, 1, (0, 0, 200, 255)),
                         (4, 2, (0, 0, 0, 0)), (2, 2, (200, 0, 0, 255))):
        image.putpixel((x, y), colour)
    image.save(tmp_path / "c.png")
    p = load(tmp_path / "c.png")
    assert [c.rgb for c in p.palette] == [(255, 255, 255), (200, 0, 0), (0, 0, 200)]   # reading order
    assert p.goal.to_text().splitlines() == ["11...", "...2.", "..1.."]


def test_generate_refuses_an_image_beyond_the_pixel_limit_from_its_header(run, tmp_path, monkeypatch):
    from PIL import Image
    Image.new("L", (40, 40), 255).save(tmp_path / "big.png")
    monkeypatch.setenv("NONOLAB_MAX_PIXELS", "1000")
    one_line_error(run("generate", "--size", "10x10", "--from-image", tmp_path / "big.png"),
                   "big.png: the image is 40x40 = 1,600 pixels, beyond the limit of 1,000 pixels")


def test_export_refuses_the_model_the_cnf_backend_refuses(run, tmp_path):
    (tmp_path / "empty.tatham").write_text("5000x5000:" + "/" * 9999 + "\n")
    one_line_error(run("export", tmp_path / "empty.tatham", "--to", "dimacs"),
                   "CNF model has 25,000,000 cells and line states, beyond the limit of 2,000,000")


def test_xml_nesting_and_puzzle_count_are_refused_as_the_file_streams_in(monkeypatch):
    with pytest.raises(TooLarge, match="line 1: the document is nested more than 100 levels deep"):
        loads_all("<puzzleset>" + "<a>" * 10_000 + "</a>" * 10_000 + "</puzzleset>", "webpbn")
    one = "<puzzle><clues type='rows'><line><count>1</count></line></clues>" \
          "<clues type='columns'><line><count>1</count></line></clues></puzzle>\n"
    assert len(loads_all("<puzzleset>\n" + one * 5 + "</puzzleset>", "webpbn", InputLimits(max_puzzles=5))) == 5
    with pytest.raises(TooLarge, match="line 7: the file holds more than 5 puzzles"):
        loads_all("<puzzleset>\n" + one * 6 + "</puzzleset>", "webpbn", InputLimits(max_puzzles=5))


def test_a_set_of_too_many_puzzles_is_refused_in_every_format_that_holds_several():
    taai = "".join(f"${i}\n1\n1\n" for i in range(1, 5))
    with pytest.raises(TooLarge, match="more than 3 puzzles"):
        loads_all(taai, "taai", InputLimits(max_puzzles=3))
    with pytest.raises(TooLarge, match="more than 3 puzzles"):
        loads_all(json.dumps([{"rows": [[1]], "columns": [[1]]}] * 4), "json", InputLimits(max_puzzles=3))


# ---- the budget: bad values --------------------------------------------------------------


@pytest.mark.parametrize("value, words", [("1e11", "is not a whole number"),
                                          (str(2 ** 63 - 1), "must be at most 1,099,511,627,776"),
                                          ("0", "must be from 1 to 1,099,511,627,776")])
def test_a_bad_limit_in_the_environment_is_one_line(tmp_path, value, words):
    (tmp_path / "a.non").write_text(SMALL)
    done = nonolab("info", tmp_path / "a.non", env={"NONOLAB_MAX_INPUT_BYTES": value})
    assert done.returncode == 2 and done.stdout == ""   # said before anything is printed
    assert done.stderr.strip() == f"nonolab: error: NONOLAB_MAX_INPUT_BYTES={value!r} {words}"


def test_a_large_limit_is_not_allocated(tmp_path):
    (tmp_path / "a.non").write_text(SMALL)
    done = nonolab("check", tmp_path / "a.non", env={"NONOLAB_MAX_INPUT_BYTES": str(10 ** 11)})
    assert done.returncode == 0 and done.stdout.strip() == "unique"
    piped = nonolab("check", "-", stdin=open(tmp_path / "a.non"), env={"NONOLAB_MAX_INPUT_BYTES": str(10 ** 11)})
    assert piped.returncode == 0 and piped.stdout.strip() == "unique"


def test_bytes_over_the_limit_are_told_apart_from_it():
    from nonolab.formats.limits import check_bytes
    with pytest.raises(TooLarge) as caught:
        check_bytes(64 * 2 ** 20 + 243, 64 * 2 ** 20)
    assert str(caught.value).startswith("the file is 64.0 MiB (67,109,107 bytes), beyond the input limit of "
                                        "64.0 MiB (67,108,864 bytes)")


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0"])
def test_a_time_limit_that_is_no_limit_is_refused(run, tmp_path, value):
    (tmp_path / "a.non").write_text(SMALL)
    one_line_error(run("check", "--time-limit", value, tmp_path / "a.non"),
                   f"check: Invalid value for '--time-limit': {value!r} is not a positive, finite number",
                   "(see nonolab check --help)")


def test_usage_errors_are_one_line(run):
    one_line_error(run("check", "--nope", "x.non"), "check: No such option '--nope'", "(see nonolab check --help)")
    one_line_error(run("nope"), "No such command 'nope'", "(see nonolab --help)")
    one_line_error(run("check"), "check: Missing argument 'FILE'")


# ---- tracebacks that were ----------------------------------------------------------------


def test_check_with_standard_input_closed(tmp_path):
    done = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", sys.executable, "-m", "nonolab", "check", "-"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2
    assert done.stderr.strip() == "nonolab: error: -: cannot read standard input: it is closed"


def test_a_colour_g_clue_of_thousands_of_digits_is_a_parse_error():
    text = "#d\n 0:. white\n 1:# black\n r:r red\n: rows\n" + "1" * 4301 + "r\n: columns\n1r\n:\n"
    with pytest.raises(Exception) as caught:
        loads(text, "g")
    assert type(caught.value).__name__ == "ParseError" and "is too large" in str(caught.value)


def test_an_error_never_echoes_a_whole_clue():
    text = "width 3\nheight 1\nrows\n" + ",".join(["1"] * 100_000) + "\ncolumns\n1\n1\n1\n"
    with pytest.raises(Exception) as caught:
        loads(text, "non")
    message = str(caught.value)
    assert len(message) < 200 and "... (100,000 blocks) needs 199999 cells but the row has 3" in message


# ---- the command's clock -----------------------------------------------------------------


def test_a_set_stops_at_the_commands_clock(run, tmp_path):
    (tmp_path / "ones.taai").write_text("".join(f"${i}\n1\n1\n" for i in range(1, 2001)))
    result = run("check", "--time-limit", "0.001", tmp_path / "ones.taai")
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert lines[-2].endswith("more puzzles not answered: --time-limit ran out (timeout)")
    assert lines[-1].startswith("2000 puzzles:") and "timeout" in lines[-1]
    assert len(lines) < 2000   # not one line (and one search) per puzzle


def test_render_steps_refuses_an_undrawable_board_before_solving(run, tmp_path):
    (tmp_path / "big.tatham").write_text("600x600:" + "/" * 1199 + "\n")
    one_line_error(run("render", "--steps", tmp_path / "big.tatham", "-o", tmp_path / "s.html"),
                   "600x600 is too large to draw (360,000 cells")
    assert not (tmp_path / "s.html").exists()


def test_generate_stops_when_cancelled():
    from nonolab.generate import Recipe, make_puzzles
    cancel = threading.Event()
    cancel.set()
    report = make_puzzles(1, Recipe(width=10, height=10, unique=True), cancel=cancel)
    assert report.stopped == "cancelled" and report.candidates == 0
    later = threading.Event()
    report = make_puzzles(3, Recipe(width=10, height=10, unique=True), on_candidate=lambda r: later.set(),
                          cancel=later)
    assert report.stopped == "cancelled" and report.candidates == 1


# ---- files: FIFOs, "-", links, folders ---------------------------------------------------


def test_batch_records_a_fifo_as_an_error_without_opening_it(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "a.non").write_text(SMALL)
    os.mkfifo(folder / "pipe.non")   # nobody writes to it: an open() would wait for ever
    done = nonolab("batch", folder, "--time-limit", "5", "--out", tmp_path / "out.jsonl")
    assert done.returncode == 1, done.stderr
    records = {Path(r["file"]).name: r for r in map(json.loads, (tmp_path / "out.jsonl").read_text().splitlines())}
    assert records["a.non"]["verdict"] == "unique"
    assert records["pipe.non"]["status"] == "error"
    assert records["pipe.non"]["error"].endswith("not a regular file (a FIFO): a batch reads regular files only")


def test_batch_and_generate_refuse_standard_output_for_their_files(run, tmp_path):
    (tmp_path / "a.non").write_text(SMALL)
    one_line_error(run("batch", tmp_path / "a.non", "--out", "-"), "not to standard output (-)")
    assert not Path("-").exists()
    one_line_error(run("generate", "--size", "5x5", "--out", "-"), "--out names the folder")
    assert not Path("-").exists()


def test_repair_to_standard_output_keeps_the_answers_on_stderr(run, tmp_path):
    (tmp_path / "two.non").write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    result = run("repair", tmp_path / "two.non", "-o", "-")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("width 2\nheight 2\n") and "repaired" not in result.stdout   # the input's format
    assert result.stderr.startswith("repaired:")
    written = loads(result.stdout, "non")
    assert written.rows != ((1,), (1,))


@pytest.mark.parametrize("command", [("repair",), ("solve", "--to", "non")])
def test_json_and_a_file_never_share_standard_output(run, tmp_path, command):
    (tmp_path / "a.non").write_text(SMALL)
    one_line_error(run(*command, tmp_path / "a.non", "--json", "-o", "-"),
                   "--json and -o - would both write to standard output")


def test_solve_dash_o_dash_writes_the_input_format(run, tmp_path):
    (tmp_path / "a.non").write_text(SMALL)
    result = run("solve", tmp_path / "a.non", "-o", "-")
    assert result.exit_code == 0 and loads(result.stdout, "non").goal is not None


def test_a_path_ending_in_a_slash_names_a_folder(run, tmp_path):
    (tmp_path / "a.non").write_text(SMALL)
    one_line_error(run("solve", tmp_path / "a.non", "--to", "non", "-o", f"{tmp_path}/newdir/"),
                   "newdir/: names a folder")
    assert not (tmp_path / "newdir").exists()


@pytest.mark.parametrize("command", [("solve", "--to", "non"), ("repair",)])
def test_an_output_in_a_missing_folder_is_refused_before_any_work(run, tmp_path, command):
    # It was found only at the write, after the whole search (repair of a hard puzzle:
    # minutes, then "No such file or directory"); solve printed its answer, then the error.
    (tmp_path / "a.non").write_text(SMALL)
    one_line_error(run(command[0], tmp_path / "a.non", *command[1:], "-o", tmp_path / "missing" / "b.non"),
                   "missing/b.non", "the folder", "does not exist")
    assert not (tmp_path / "missing").exists()


def test_a_hard_link_broken_by_an_atomic_write_is_said_in_one_line(run, tmp_path):
    (tmp_path / "a.non").write_text(SMALL)
    (tmp_path / "puzzle.non").write_text(SMALL)   # (not a.non itself: no command writes onto its input)
    os.link(tmp_path / "a.non", tmp_path / "b.non")
    result = run("solve", tmp_path / "puzzle.non", "--to", "non", "-o", tmp_path / "a.non")
    assert result.exit_code == 0
    assert (f"nonolab: warning: {tmp_path / 'a.non'}: it had 2 hard links; it was replaced whole, so its other "
            "name keeps the old content") in result.stderr
    assert (tmp_path / "b.non").read_text() == SMALL and "goal" in (tmp_path / "a.non").read_text()


def test_a_scheduler_address_that_answers_something_else_is_one_line(run, tmp_path):
    pytest.importorskip("distributed", reason="the dask extra")
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(30)

    def web_server() -> None:   # answers every connection as a web server would, then closes it
        for _ in range(3):
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
    thread = threading.Thread(target=web_server, daemon=True)
    thread.start()
    (tmp_path / "a.non").write_text(SMALL)
    port = listener.getsockname()[1]
    try:
        one_line_error(run("batch", tmp_path / "a.non", "--scheduler", f"tcp://127.0.0.1:{port}",
                           "--out", tmp_path / "out.jsonl"),
                       f"the server at tcp://127.0.0.1:{port} does not answer as a Dask scheduler "
                       "(its first bytes: 'HTTP/1.1')")
    finally:
        listener.close()
    assert not (tmp_path / "out.jsonl").exists()


def test_a_full_disk_names_the_results_file(tmp_path, monkeypatch):
    import errno

    from nonolab.batch import ResultsFile

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    with ResultsFile(tmp_path / "out.jsonl", resume=False, force=False) as results:
        monkeypatch.setattr(os, "write", full)
        with pytest.raises(OSError) as caught:
            results.append({"file": "a.non"})
        monkeypatch.undo()
    assert caught.value.filename == str(tmp_path / "out.jsonl") and caught.value.errno == errno.ENOSPC


@pytest.mark.parametrize("command", [("render", "--steps", "{a}", "-o"), ("render", "--solution", "{a}", "-o"),
                                     ("check", "{a}", "--why-image"), ("export", "{a}", "--to", "dimacs", "-o"),
                                     ("convert", "{a}"), ("census", "--size", "2x2", "-o")])
def test_every_output_file_in_a_missing_folder_is_refused_before_any_work(run, tmp_path, command):
    # Audit 7: render --steps of Knotty worked 4 s, then "No such file or directory"; check
    # --why-image said nothing of the folder at all ("no solution, so no picture written").
    (tmp_path / "a.non").write_text(SMALL)
    args = [str(tmp_path / "a.non") if a == "{a}" else a for a in command]
    one_line_error(run(*args, tmp_path / "missing" / "b.svg"), "missing/b.svg", "the folder", "does not exist")
    assert not (tmp_path / "missing").exists()
    os.mkdir(tmp_path / "keep")
    (tmp_path / "keep" / "b.svg").write_text("keep me")
    os.chmod(tmp_path / "keep" / "b.svg", 0o444)
    one_line_error(run(*args, tmp_path / "keep" / "b.svg"), "b.svg", "read-only")
    assert (tmp_path / "keep" / "b.svg").read_text() == "keep me"
