"""--time-limit bounds the whole command: loading, the engine's start and every step share it."""

from __future__ import annotations

import os
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
GETTYS = REPO.parent / "shared" / "corpus" / "webpbn-survey" / "webpbn-22336-gettys.non"
LIMIT = 2.0
#: What the limit may be overrun by: the last check of the clock, and printing the answer.
SLACK = 0.2


def _wall(*args: str) -> tuple[float, subprocess.CompletedProcess]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(INSTALLED), os.environ.get("PYTHONPATH"))
                                                       if p)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "nonolab", *args], capture_output=True, text=True, env=env,
                          timeout=120)
    return time.perf_counter() - start, done


@pytest.mark.parametrize("command", [["count"], ["check", "--why"], ["check"], ["solve"]], ids=" ".join)
def test_the_limit_holds_for_the_whole_command(command):
    if not GETTYS.exists():
        pytest.skip(f"{GETTYS} is not there")
    _wall(*command, "-b", "native", "--time-limit", "0.1", str(GETTYS))  # the engine's cache is warm
    start_up, _ = _wall("--version")  # Python and the command line, before any command starts
    seconds, done = _wall(*command, "-b", "native", "--time-limit", str(LIMIT), str(GETTYS))
    assert done.returncode == 1, done.stderr  # Gettys takes minutes: the answer is a timeout
    assert "timeout" in done.stdout + done.stderr or "time limit" in done.stdout
    assert seconds <= LIMIT + SLACK + start_up, f"{seconds:.2f} s with a start-up of {start_up:.2f} s"
