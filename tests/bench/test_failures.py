"""A run that fails (a bug, a full disk) is that failure, never an interruption: the caller's
cancel is its own, and the command says the error, not ``nonolab: interrupted``."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from nonolab.bench import run

# The puzzle files of every run go to a temporary folder: make that write fail as a full disk does.
FULL_DISK = """
import errno, sys
from nonolab.bench import runner
def full(self, index, suffix):
    raise OSError(errno.ENOSPC, "No space left on device", self.folder)
runner.Files.path = full
from nonolab.cli.main import main
sys.argv = ["nonolab", "bench", *sys.argv[1:]]
main()
"""


def _full_disk(self, index, suffix):
    raise OSError(28, "No space left on device", self.folder)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failed_run_leaves_the_callers_cancel_alone(tmp_path, two_puzzles, monkeypatch, jobs):
    from nonolab.bench import runner

    monkeypatch.setattr(runner.Files, "path", _full_disk)
    cancel = threading.Event()
    with pytest.raises(OSError, match="No space left"):
        run(two_puzzles, ["native", "lcg"], out=tmp_path / "out", cancel=cancel, jobs=jobs)
    assert not cancel.is_set()   # the caller's event: set only by the caller (it stops the caller's next calls)


def test_the_command_says_a_failed_run_in_one_line_not_interrupted(tmp_path, two_puzzles):
    done = subprocess.run([sys.executable, "-c", FULL_DISK, *two_puzzles, "-b", "native", "-o", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parent)
    assert done.returncode == 2, done.stderr
    assert "interrupted" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nonolab: error: ") and "No space left on device" in lines[0]
