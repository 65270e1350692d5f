"""Run one script twice: with the engine compiled by numba, and as plain Python.

The cross-checks of test_compiled*.py print their answers as JSON; both runs must
print the same.  ``NUMBA_DISABLE_JIT`` is read when numba is imported, so each run is
a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def run(script: str, disable_jit: bool) -> dict:
    """The JSON ``script`` prints, given the shipped puzzles' folder as its argument."""
    env = dict(os.environ)
    if disable_jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    else:
        env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", script, str(PUZZLES)], capture_output=True, text=True,
                         env=env, check=True, timeout=600)
    return json.loads(out.stdout)
