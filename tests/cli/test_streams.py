"""Files and streams: ``-``, devices, FIFOs, symlinks, write errors, big grids, closed pipes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from nonolab.cli import streams
from nonolab.cli.main import cli
from nonolab.core import Puzzle
from nonolab.formats import dump, dumps, load, write_atomically

import nonolab  # noqa: E402

# Subprocesses import the very package this process imported (site-packages after
# `pip install .`, src/ in an editable install), with its compiled engine caches and extensions.
INSTALLED = Path(nonolab.__file__).resolve().parents[1]

REPO = Path(__file__).resolve().parents[2]
CAT = REPO / "puzzles" / "webpbn" / "webpbn-00006-cat.non"
NONUNIQUE = REPO / "puzzles" / "hakank" / "nonunique.non"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(INSTALLED), os.environ.get("PYTHONPATH"))
                                                        if p)}


def _switch(size: int) -> Puzzle:
    """A size x size grid, empty but for a 2x2 switch in its corner: two solutions, 4 differing cells."""
    rows = ((1,), (1,)) + ((),) * (size - 2)
    return Puzzle(rows=rows, columns=rows)


def test_check_reads_standard_input():
    result = CliRunner().invoke(cli, ["check", "-b", "native", "-"], input=CAT.read_text())
    assert (result.exit_code, result.stdout) == (0, "unique\n")


def test_convert_reads_standard_input_and_writes_standard_output():
    result = CliRunner().invoke(cli, ["convert", "-", "-", "--to", "tatham"], input=CAT.read_text())
    assert result.exit_code == 0, result.output
    assert result.stdout == dumps(load(CAT), "tatham")


def test_convert_to_a_symlink_replaces_its_target_and_keeps_the_link(run, tmp_path):
    target = tmp_path / "real.non"
    target.write_text("old")
    link = tmp_path / "link.non"
    link.symlink_to(target.name)
    assert run("convert", CAT, link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert load(target).rows == load(CAT).rows
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.non", "real.non"]  # no temporary file


def test_convert_to_a_fifo_writes_through_it_and_leaves_it_a_fifo(run, tmp_path):
    fifo = tmp_path / "pipe.non"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run("convert", CAT, fifo, "--to", "non")
    reader.join(10)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received == [dumps(load(CAT), "non").encode()]


def test_convert_to_dev_null_leaves_it_a_device(run):
    assert run("convert", CAT, "/dev/null", "--to", "non").exit_code == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_failed_write_names_the_target_and_leaves_nothing(run, tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a directory")
    target = blocker / "out.non"
    result = run("convert", CAT, target, "--to", "non")
    assert result.exit_code == 2
    assert result.stderr == (f"nonolab: error: {target}: the folder {blocker} does not exist (or is not a "
                             "folder)\n")   # found before the work (audit 7), not at the write
    full = run("convert", CAT, "/dev/full", "--to", "non")  # a device that is always full
    assert (full.exit_code, full.stderr) == (2, "nonolab: error: /dev/full: No space left on device\n")


def test_a_write_failing_midway_keeps_the_old_file_and_names_it(tmp_path, monkeypatch):
    target = tmp_path / "keep.non"
    target.write_text("old")

    def disk_full(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError) as err:
        write_atomically(target, "new")
    assert err.value.filename == str(target)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.non"]


def test_a_read_only_file_is_kept_not_replaced(run, tmp_path):
    # Replacing needs only the folder's permission (and root passes every check): the mode bits decide.
    target = tmp_path / "keep.non"
    target.write_text("old")
    target.chmod(0o444)
    with pytest.raises(OSError) as err:
        write_atomically(target, "new")
    assert err.value.filename == str(target) and "read-only" in str(err.value)
    for command in (("convert", CAT, target), ("solve", CAT, "-o", target)):
        result = run(*command)
        assert (result.exit_code, result.stderr) == (2, f"nonolab: error: {target}: is read-only: make it writable "
                                                        "(chmod u+w) to replace it\n")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.non"]


def test_solve_with_an_output_file_prints_the_summary_only(run, tmp_path):
    out = tmp_path / "solved.non"
    result = run("solve", CAT, "-b", "native", "-o", out, "--check")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("unique")
    assert load(out).goal is not None


def test_big_grids_are_summarised_unless_full(run, tmp_path):
    path = tmp_path / "switch.non"
    dump(_switch(200), path)
    short = run("check", "-b", "native", path)
    assert short.exit_code == 1
    assert short.stdout.splitlines()[:2] == ["multiple", "4 cells differ (row, column, 1-based): (1,1) (1,2) (2,1) (2,2)"]
    assert len(short.stdout.splitlines()) == 3 and "--full" in short.stdout
    full = run("check", "-b", "native", "--full", path)
    assert len(full.stdout.splitlines()) == 3 + 200
    why = run("check", "--why", "-b", "native", path)
    assert why.exit_code == 1 and len(why.stdout.splitlines()) < 20 and "--full" in why.stdout
    assert len(run("check", "--why", "-b", "native", "--full", path).stdout.splitlines()) > 200
    solved = run("solve", "-b", "native", path)
    assert len(solved.stdout.splitlines()) == 1 and "--full" in solved.stdout
    assert len(run("solve", "-b", "native", "--full", path).stdout.splitlines()) == 200


def test_a_long_cell_list_is_cut_with_a_count():
    cells = [(0, c) for c in range(streams.MAX_CELLS_LISTED + 7)]
    assert streams.cell_list(cells, False).endswith("... and 7 more (--full lists them all)")
    assert streams.cell_list(cells, True).count("(") == len(cells)


def test_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "switch.non"
    dump(_switch(400), path)
    proc = subprocess.Popen([sys.executable, "-m", "nonolab", "solve", "-b", "native", "--full", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    proc.stdout.readline()
    proc.stdout.close()  # the reader leaves after one line, like `| head -1`
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Broken pipe" not in err and "Traceback" not in err and "Exception ignored" not in err
    assert proc.returncode == 141  # its output was cut short: 128 + SIGPIPE, as the shell's own commands


@pytest.fixture
def three(tmp_path) -> Path:
    """A set: unique, multiple, contradiction (check exits 1)."""
    from nonolab.formats import dumps_all

    path = tmp_path / "three.json"
    names = ("nonolab/heart.non", "hakank/nonunique.non", "nonolab/contradiction.non")
    path.write_text(dumps_all([load(REPO / "puzzles" / n) for n in names], "json"), encoding="utf-8")
    return path


def _into_a_closed_pipe(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``nonolab ARGS | head -1`` made certain: the pipe's reading end is closed before the
    command starts, so its first write to standard output fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "nonolab", *args], stdout=write, stderr=subprocess.PIPE,
                              env=_env(), timeout=120, cwd=cwd)
    finally:
        os.close(write)


@pytest.mark.parametrize("extra", [[], ["--json"], ["--report"]], ids=["text", "json", "report"])
def test_a_set_checked_into_a_pipe_nobody_reads_stops_with_141(three, extra):
    # Before (session 40): the closed pipe became /dev/null and the whole set ran on, to
    # end with check's own 1: `nonolab label FOLDER | head -2` ran 10 minutes for nobody.
    # Now the first failed write stops the work, as SIGPIPE's default would: 141, silently.
    done = _into_a_closed_pipe("check", *extra, str(three))
    assert done.stderr.decode() == ""     # no traceback, no "Broken pipe", no "Exception ignored"
    assert done.returncode == 141


def test_a_set_whose_whole_output_was_read_keeps_its_own_code(three):
    done = subprocess.run([sys.executable, "-m", "nonolab", "check", str(three)], capture_output=True, env=_env(),
                          timeout=120)
    assert done.returncode == 1 and done.stdout.decode().endswith("contradiction\n")   # check's 1: #2 is multiple


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A folder of 40 puzzles: a run of all of it is far more work than its first record."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for i in range(40):
        (folder / f"p{i:02}.non").write_text((REPO / "puzzles" / "nonolab" / "heart.non").read_text())
    return folder


@pytest.mark.parametrize("command", [
    ["label", "{corpus}"], ["solve", "{three}"], ["count", "{three}"], ["grade", "{three}"],
    ["batch", "{corpus}", "-o", "{tmp}/records.jsonl"], ["convert", "{three}", "-", "--to", "json"],
    ["explain", str(REPO / "puzzles" / "nonolab" / "heart.non")],
    ["render", str(REPO / "puzzles" / "nonolab" / "heart.non"), "--to", "svg"],
    ["census", "--size", "4x4"], ["info", "{three}"],
], ids=lambda c: c[0])
def test_every_streaming_command_stops_at_a_closed_pipe(command, three, corpus, tmp_path):
    args = [a.format(corpus=corpus, three=three, tmp=tmp_path) for a in command]
    done = _into_a_closed_pipe(*args, cwd=tmp_path)
    assert (done.returncode, done.stderr.decode()) == (141, "")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]   # no temporary file left


@pytest.mark.parametrize("closed, puzzle, code", [
    (">&-", "heart", 0), ("2>&-", "heart", 0), (">&-", "missing", 2), ("2>&-", "missing", 2),
    (">&- 2>&-", "set", 1),
])
def test_a_command_started_with_stdout_or_stderr_closed_ends_with_its_own_code(three, closed, puzzle, code):
    # Before: `nonolab check heart.non >&-` printed an AttributeError traceback (flushing
    # a stream Python had set to None) and exited 1, whatever the answer.
    path = {"heart": REPO / "puzzles" / "nonolab" / "heart.non", "missing": three.parent / "missing.non",
            "set": three}[puzzle]
    shell = ["sh", "-c", f'exec "$0" "$@" {closed}', sys.executable, "-m", "nonolab", "check", str(path)]
    done = subprocess.run(shell, capture_output=True, env=_env(), timeout=120)
    assert done.returncode == code, done.stderr
    if closed == ">&-":
        assert done.stdout == b"" and (done.stderr == b"" if code == 0 else
                                       done.stderr.decode().startswith("nonolab: error: ") and
                                       done.stderr.count(b"\n") == 1), done.stderr
    if closed == "2>&-":
        assert done.stderr == b"" and done.stdout == (b"unique\n" if code == 0 else b"")


def test_a_closed_standard_descriptor_is_reopened_on_dev_null(tmp_path):
    # Else the next file opened takes descriptor 1, where a C library's output (or the
    # signal handler's silencing) would land in it.
    code = ("import os, sys; os.close(1); from nonolab.cli import streams; streams.reopen_closed_descriptors(); "
            f"fd = os.open({str(tmp_path / 'out')!r}, os.O_WRONLY | os.O_CREAT); "
            "sys.stderr.write(f'{fd} {os.path.realpath(f\"/proc/self/fd/1\")}')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=_env(), timeout=60)
    fd, one = done.stderr.decode().split()
    assert int(fd) > 2 and one == os.devnull


def test_convert_to_dev_stdout_writes_to_the_file_a_shell_opened(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text("first\n")
    inode = log.stat().st_ino
    with open(log, "ab") as out:  # `>> log.txt`
        done = subprocess.run([sys.executable, "-m", "nonolab", "convert", str(CAT), "/dev/stdout", "--to", "tatham"],
                              stdout=out, stderr=subprocess.PIPE, env=_env(), timeout=60)
    assert done.returncode == 0, done.stderr
    assert os.path.islink("/dev/stdout") and log.stat().st_ino == inode  # written to, not replaced
    assert log.read_text() == "first\n" + dumps(load(CAT), "tatham")


def test_an_interrupt_mid_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    from nonolab.formats import _files

    target = tmp_path / "keep.non"
    target.write_text("old")
    writing, release = threading.Event(), threading.Event()
    real_fsync = os.fsync

    def slow_fsync(fd):
        writing.set()
        release.wait(10)
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", slow_fsync)
    errors: list[OSError] = []

    def write():
        try:
            write_atomically(target, "new")
        except OSError as err:
            errors.append(err)
    writer = threading.Thread(target=write)
    writer.start()
    assert writing.wait(10)
    assert len(list(tmp_path.iterdir())) == 2  # the target and the temporary file being written
    _files.discard_pending()  # what the CLI does on Ctrl-C before it exits
    release.set()
    writer.join(10)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.non"] and target.read_text() == "old"
    assert errors and errors[0].filename == str(target)
