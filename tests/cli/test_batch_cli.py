"""``nonolab batch`` on the command line: exit codes, the summary, and a kill in the middle."""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nonolab.core import Puzzle
from nonolab.formats import dump

import nonolab  # noqa: E402

# Subprocesses import the very package this process imported (site-packages after
# `pip install .`, src/ in an editable install), with its compiled engine caches and extensions.
INSTALLED = Path(nonolab.__file__).resolve().parents[1]

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"


@pytest.fixture
def run(run):
    return functools.partial(run, "batch")


def test_summary_and_exit_codes(run, tmp_path):
    out = tmp_path / "out.jsonl"
    result = run(PUZZLES / "hakank", "--out", out)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 6 and all(json.loads(line)["status"] == "ok" for line in lines)
    assert "unique" in result.stdout and "multiple" in result.stdout and "slowest" in result.stdout
    assert "wall time" in result.stdout and "sum of puzzle times" in result.stdout

    again = run(PUZZLES / "hakank", "--out", out)
    assert again.exit_code == 2 and "--resume" in again.stderr and out.read_text().splitlines() == lines
    assert run(PUZZLES / "hakank", "--out", out, "--resume", "--force").exit_code == 2
    assert run(PUZZLES / "hakank", "--out", out, "--resume").exit_code == 0
    assert out.read_text().splitlines() == lines

    (tmp_path / "bad.non").write_text("width 1\nheight 1\nrows\n3\ncolumns\n1\n")
    failed = run(tmp_path / "bad.non", "--out", tmp_path / "bad.jsonl")
    assert failed.exit_code == 1  # a puzzle without its answer
    assert json.loads((tmp_path / "bad.jsonl").read_text())["status"] == "error"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(empty, "--out", tmp_path / "x.jsonl").exit_code == 2


def test_do_solve_finds_a_first_solution_and_claims_no_uniqueness(run, tmp_path):
    # simple2 has two solutions, contradiction none: solve stops at the first solution,
    # so its record has no verdict (the summary: uniqueness not asked); check counts to 2.
    out, checked = tmp_path / "solve.jsonl", tmp_path / "check.jsonl"
    files = [PUZZLES / "hakank" / "simple2.non", PUZZLES / "nonolab" / "contradiction.non"]
    result = run(*files, "--do", "solve", "--out", out, "--no-progress")
    records = {Path(r["file"]).name: r for r in map(json.loads, out.read_text().splitlines())}
    first = records["simple2.non"]
    assert first["status"] == "ok" and first["verdict"] is None and first["solver_status"] == "solved"
    assert first["count"] == 1 and len(first["solution"]) == 4
    assert records["contradiction.non"]["verdict"] == "contradiction"
    assert "uniqueness not asked" in result.stdout and "error" not in result.stdout
    run(*files, "--do", "check", "--out", checked, "--no-progress")
    assert [json.loads(line)["verdict"] for line in checked.read_text().splitlines()] == ["multiple", "contradiction"]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to find the workers")
def test_killed_batch_resumes_with_one_record_per_puzzle(tmp_path):
    folder = tmp_path / "puzzles"
    shutil.copytree(PUZZLES, folder)
    six = Puzzle(rows=((1,),) * 6, columns=((1,),) * 6)  # 720 solutions, about 0.1 s to count
    for i in range(30):
        dump(six, folder / f"perm6-{i:02d}.non")
    total = 30 + sum(1 for p in PUZZLES.rglob("*.non"))
    out = tmp_path / "out.jsonl"
    cmd = [sys.executable, "-m", "nonolab", "batch", str(folder), "--do", "count", "--jobs", "2",
           "--time-limit", "30", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(INSTALLED)}

    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Generous: in a fresh clone the workers compile the engine first (tens of seconds on a
    # busy machine); the loop ends as soon as five records are there.
    deadline = time.monotonic() + 300
    while (not out.exists() or len(out.read_bytes().splitlines()) < 5) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.02)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    written = len(out.read_bytes().splitlines())
    assert 5 <= written < total, "the kill must land in the middle of the batch"
    assert len(workers) == 2
    give_up = time.monotonic() + 5
    while any(map(_alive, workers)) and time.monotonic() < give_up:
        time.sleep(0.05)
    assert not any(map(_alive, workers)), "orphaned workers must exit"

    resumed = subprocess.run(cmd + ["--resume"], env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert "already in the results file" in resumed.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]  # every line parses
    files = [r["file"] for r in records]
    assert len(files) == len(set(files)) == total
    assert {Path(f).name for f in files} == {p.name for p in folder.glob("*/*.non")} | {
        f"perm6-{i:02d}.non" for i in range(30)}
    assert all(r["count"] == 720 and r["exact"] for r in records if "perm6" in r["file"])


@pytest.mark.parametrize("flags", [["--force"], ["--resume"], []])
def test_a_results_file_that_is_not_a_regular_file_is_refused_by_name(run, flags):
    # -o /dev/null --force said "nonolab: error: Invalid argument" (its truncation failed), naming nothing.
    if not os.path.exists(os.devnull):
        pytest.skip("no null device here")
    result = run(PUZZLES / "nonolab" / "switch.non", "-o", os.devnull, *flags)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"nonolab: error: {os.devnull}: is not a regular file: the results go to a file that --resume can read back"]
