"""Ctrl-C and SIGTERM during a search: one line, 130 or 143, no traceback, nothing written.

Each test starts ``python -m nonolab`` on a puzzle that takes minutes (Gettys; for auto,
which settles Gettys in a fraction of a second, 20-Dom), signals it once the search is
under way, and watches how it ends: that it ends by itself with the signal's exit code is
the interrupt honoured (the work it cut would take minutes).  How fast it ends is a
benchmark's question, not a test's: on a busy machine a test that timed it failed for
nothing (issue 23, item 10).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nonolab  # noqa: E402

# Subprocesses import the very package this process imported (site-packages after
# `pip install .`, src/ in an editable install), with its compiled engine caches and extensions.
INSTALLED = Path(nonolab.__file__).resolve().parents[1]

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
GETTYS = CORPUS / "webpbn-survey" / "webpbn-22336-gettys.non"
#: Seconds after the start before the signal: the command is loaded and searching.
SEARCHING = 1.5
#: A guard against a hang (a process still there this long after the signal is killed,
#: and the test fails on its exit code), not a speed check.
HANG = 120


def nonolab_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(INSTALLED), env.get("PYTHONPATH")) if p)
    return env


def interrupted(args: list[str], sig: int, closed: str = "") -> subprocess.CompletedProcess:
    """Run ``nonolab ARGS`` and send ``sig`` once it searches; its outcome (killed after
    ``HANG`` seconds: then its exit code says so).  ``closed``: a shell redirection that
    starts it with a standard descriptor closed (``>&-``)."""
    if str(GETTYS) in args and not GETTYS.exists():
        pytest.skip(f"{GETTYS} is not there")
    command = [sys.executable, "-m", "nonolab", *args]
    if closed:   # the shell execs the command: the signal reaches it, not a shell around it
        command = ["sh", "-c", f'exec "$0" "$@" {closed}', *command]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=nonolab_env())
    time.sleep(SEARCHING)
    assert proc.poll() is None, "the command ended before the signal: the puzzle is not hard enough here"
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out.decode(), err.decode())


def _hard_for(args: list[str], tmp_path: Path) -> str:
    """A puzzle the command's backend takes minutes over: Gettys, or for auto (the
    default backend) 20-Dom (41x41, unique: lcg alone and then Kissat beside it need
    more than 20 s to prove it)."""
    named = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-b", "--backends")]
    if named and "auto" not in named:
        return str(GETTYS)
    from reference import n_dom
    from nonolab.core import Puzzle
    from nonolab.formats import dump

    rows, columns = n_dom(20)
    path = tmp_path / "20-dom.non"
    dump(Puzzle(rows=rows, columns=columns), str(path))
    return str(path)


@pytest.mark.parametrize("args, sig", [
    (["check", "-b", "auto"], signal.SIGINT),
    (["check", "-b", "auto"], signal.SIGTERM),
    (["check", "-b", "cnf"], signal.SIGINT),
    (["check", "-b", "cpsat"], signal.SIGINT),
    (["check", "-b", "cpsat"], signal.SIGTERM),
    (["check", "--why"], signal.SIGINT),
    (["count", "-b", "native"], signal.SIGINT),
    (["count", "-b", "native"], signal.SIGTERM),
], ids=lambda v: v.name if isinstance(v, signal.Signals) else "-".join(v).replace("--", ""))
def test_a_signal_ends_the_command_at_once_with_one_line(args, sig, tmp_path):
    done = interrupted([*args, _hard_for(args, tmp_path)], sig)
    assert done.returncode >= 0, f"killed by signal {-done.returncode} (an abort, a core dump or a hang): {done.stderr}"
    assert done.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], done.stderr
    assert "Traceback" not in done.stderr and "terminate called" not in done.stderr
    assert done.stderr.splitlines() == ["nonolab: interrupted"]
    assert done.stdout == ""  # no half answer (such as 'timeout') after the signal


@pytest.mark.parametrize("args", [["solve", "-b", "native"], ["grade"], ["explain", "-b", "native", "--no-grid"],
                                  ["verify", "--backends", "native"]], ids="-".join)
def test_every_command_ends_at_once(args, tmp_path):
    done = interrupted([*args, _hard_for(args, tmp_path)], signal.SIGINT)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "nonolab: interrupted\n")


@pytest.mark.parametrize("closed", [">&-", "2>&-"])
def test_a_command_started_with_a_closed_stdout_or_stderr_is_interrupted_as_any_other(closed):
    # Before: exit 1 and no line (the signal handler's os.dup(2) failed on a closed stderr;
    # with stdout closed, flushing sys.stdout, None, raised in the main thread).
    done = interrupted(["check", "-b", "native", str(GETTYS)], signal.SIGINT, closed)
    assert done.returncode == 130, done.stderr
    assert (done.stdout, done.stderr) == ("", "nonolab: interrupted\n" if closed == ">&-" else "")


def _writing_to_a_full_pipe(pid: int) -> bool:
    """Whether a thread of process ``pid`` waits in a write to a pipe (Linux's wchan)."""
    for wchan in Path(f"/proc/{pid}/task").glob("*/wchan"):
        try:
            if "pipe_write" in wchan.read_text():
                return True
        except OSError:   # the thread ended
            pass
    return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the threads' wait channels in /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_signal_ends_a_command_whose_standard_output_nobody_reads(sig):
    # `nonolab generate -n 60 -t json | less`, less waiting: the command's worker blocks in
    # its write to the full pipe, holding sys.stdout's lock; on Ctrl-C or SIGTERM the main
    # thread's last flush waited on that lock, and the process never ended (audit 18).
    command = [sys.executable, "-m", "nonolab", "generate", "--size", "30x30", "-n", "60", "-t", "json"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=nonolab_env())
    try:
        deadline = time.monotonic() + HANG   # 140 kB of puzzles: past any pipe's buffer (64 kB on Linux)
        while not _writing_to_a_full_pipe(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None and _writing_to_a_full_pipe(proc.pid), "the command is not blocked writing"
        proc.send_signal(sig)
        code = proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig]
    assert proc.stderr.read().decode().endswith("nonolab: interrupted\n")
    proc.stdout.close()
    proc.stderr.close()


def test_generate_ends_at_once_and_keeps_only_whole_puzzles(tmp_path):
    done = interrupted(["generate", "--size", "40x40", "--unique", "-n", "100000", "-b", "native",
                        "--format", "non", "--out", str(tmp_path)], signal.SIGTERM)
    assert (done.returncode, done.stderr) == (143, "nonolab: interrupted\n")   # not after 100,000 puzzles
    from nonolab.formats import load
    # the .non files written read back, none cut short (each is written whole, then renamed)
    assert all(load(path).width == 40 for path in tmp_path.glob("*.non"))


def test_generate_interrupted_before_its_first_puzzle_leaves_no_folder_it_made(tmp_path):
    # Every candidate is all filled (uniform lines): rejected, so the search runs on, finding none.
    done = interrupted(["generate", "--size", "40x40", "-n", "100000", "--density", "0.999", "--min-density",
                        "0.999", "--max-density", "1", "--out", str(tmp_path / "new" / "set")], signal.SIGINT)
    assert (done.returncode, done.stderr) == (130, "nonolab: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_batch_ends_on_sigterm_with_whole_records(tmp_path):
    if not GETTYS.exists():
        pytest.skip(f"{GETTYS} is not there")
    easy = CORPUS / "webpbn-survey" / "webpbn-00006-cat.non"
    out = tmp_path / "results.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "nonolab", "batch", str(GETTYS), str(easy), "-b", "native",
                             "--jobs", "2", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=nonolab_env())
    deadline = time.perf_counter() + 120  # the workers start, and the small puzzle is answered
    while time.perf_counter() < deadline and not (out.exists() and out.read_bytes().endswith(b"\n")):
        time.sleep(0.1)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    out_text, err = proc.communicate(timeout=HANG)
    assert proc.returncode == 143, err
    assert err.decode().splitlines() == ["nonolab: interrupted"]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [Path(r["file"]).name for r in records] == [easy.name]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_an_interrupted_repair_leaves_its_output_untouched(tmp_path, sig):
    # a2cd917 replaced OUT with the unrepaired puzzle (4 of 4 runs): the repair, cut short by
    # the cancel, came back "not repaired" and the command went on to write the puzzle as is.
    out = tmp_path / "out.non"
    out.write_text("the designer's file\n")
    done = interrupted(["repair", str(GETTYS), "-b", "native", "-o", str(out)], sig)
    assert done.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], done.stderr
    assert done.stderr == "nonolab: interrupted\n"
    assert out.read_text() == "the designer's file\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.non"]      # no temporary file left


_HANDLER_BEFORE_LOAD = """
import signal, sys
seen = []
class Watch:
    # Asked about every import: records whether SIGINT was still Python's own when the
    # command line's first heavy module (click, or nonolab's core) began to load.
    def find_spec(self, name, path=None, target=None):
        if name in ("click", "nonolab.core") and not seen:
            seen.append(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        return None
sys.meta_path.insert(0, Watch())
sys.argv = ["nonolab", "--version"]
import os
real_exit = os._exit
def report(code):
    sys.stdout.flush()
    os.write(1, ("default handler while loading: %s\\n" % seen).encode())
    real_exit(code)
os._exit = report
from nonolab.cli.entry import main
main()
"""


def test_the_handler_is_in_before_the_command_line_loads():
    # A signal while click and the solvers load (seconds on a busy machine) ended in a
    # KeyboardInterrupt traceback: the handler was installed only once they had loaded.
    done = subprocess.run([sys.executable, "-c", _HANDLER_BEFORE_LOAD], capture_output=True, text=True,
                          env=nonolab_env(), timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "default handler while loading: [False]"


def test_importing_the_package_loads_none_of_it():
    # What keeps the window above short, and `import nonolab` cheap: every public name
    # loads on first use.
    code = ("import sys, nonolab; loaded = sorted(m for m in sys.modules if m.startswith('nonolab.'));"
            "print(loaded); nonolab.Puzzle; print('nonolab.core' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=nonolab_env(),
                          timeout=HANG)
    assert done.stdout.splitlines() == ["[]", "True"], done.stderr


def test_an_interruption_during_a_progress_line_says_so_on_a_line_of_its_own():
    # Audit 8: census --progress ended with "chunks 120/1537, pictures 7,815,686nonolab: interrupted".
    # The signal is sent once the first progress line is out (6x5 has 3,621 chunks).
    proc = subprocess.Popen([sys.executable, "-m", "nonolab", "census", "--size", "6x5", "--progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=nonolab_env())
    seen = b""
    while b"chunks" not in seen:
        block = os.read(proc.stderr.fileno(), 4096)
        assert block, "census ended before its first progress line"
        seen += block
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    said = (seen + err).decode()
    assert proc.returncode == 130 and out == b""
    assert said.startswith("\rchunks ") and said.endswith("\nnonolab: interrupted\n"), said
