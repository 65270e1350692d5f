"""A batch worker whose parent has gone (Ctrl-C: the batch exits at once) ends silently.

Its parent reads the records from its stdout; once that pipe is closed, the job it was on
has nobody to answer.  It used to write the answer anyway and print a ``BrokenPipeError``
traceback on the terminal it shares with the batch, after ``nonolab: interrupted``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from nonolab.batch.guard import _child_env

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def test_a_worker_whose_records_pipe_closed_exits_without_a_traceback():
    worker = subprocess.Popen([sys.executable, "-m", "nonolab.batch.worker", "--backend", "native"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=_child_env())
    assert json.loads(worker.stdout.readline())["ready"]
    worker.stdout.close()   # the parent has gone: nobody reads the records any more
    job = {"path": str(PUZZLES / "webpbn" / "webpbn-00006-cat.non"), "task": "check", "backend": "native"}
    worker.stdin.write((json.dumps(job) + "\n").encode())
    worker.stdin.close()
    worker.wait(timeout=60)
    errors = worker.stderr.read().decode()
    worker.stderr.close()
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
