"""A census stopped by its cancel (Ctrl-C) keeps every chunk it finished and resumes from there.

A census of more than 1,000 chunks saves every 5 s; its last save on Ctrl-C was refused (the
signal closed the writes) and the chunk in flight was waited for past the grace, so up to
5 s of chunks were lost (audit 45).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading

import pytest

import nonolab
from nonolab.exhaustive import run as run_module
from tests.cli.test_interrupts import HANG, nonolab_env

# 5x4 in chunks of at most 256 pictures, every picture checked: 14,941 chunks (over
# SAVE_ALWAYS), each a few milliseconds.
SIZE, CHUNK = (5, 4), 256


def _reference() -> dict:
    whole = nonolab.census(*SIZE).as_dict()   # one chunk, the symmetry reduction: the same counts
    return {k: whole[k] for k in ("pictures", "clue_sets", "unique", "line", "multiple", "grades")}


def _counts(result) -> dict:
    return {k: result.as_dict()[k] for k in ("pictures", "clue_sets", "unique", "line", "multiple", "grades")}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_cancelled_census_saves_every_chunk_it_finished_and_resumes(tmp_path, monkeypatch, jobs):
    monkeypatch.setattr(run_module, "SAVE_EVERY", 3600.0)  # no timed save: only the last one can keep them
    out = tmp_path / "census.json"
    cancel = threading.Event()
    seen: list[int] = []

    def stop_after_forty(result) -> None:
        seen.append(result.chunks_done)
        if result.chunks_done >= 40:
            cancel.set()

    stopped = nonolab.census(*SIZE, out=str(out), chunk_pictures=CHUNK, symmetry=False, jobs=jobs,
                             progress=stop_after_forty, cancel=cancel)
    saved = json.loads(out.read_text())
    assert not stopped.complete and 40 <= stopped.chunks_done < stopped.chunks
    assert saved["chunks_done"] == len(saved["done"]) == stopped.chunks_done == seen[-1]
    # it stopped there: only chunks already finished (or queued) when the cancel was seen come after
    assert stopped.chunks_done < 200
    ran: list[int] = []
    resumed = nonolab.census(*SIZE, out=str(out), symmetry=False, progress=lambda r: ran.append(r.chunks_done))
    assert len(ran) == resumed.chunks - stopped.chunks_done   # only the chunks missing from the file
    assert resumed.complete and _counts(resumed) == _reference()


def test_ctrl_c_keeps_the_chunks_done_and_exits_130_at_once(tmp_path):
    out = tmp_path / "census.json"
    proc = subprocess.Popen([sys.executable, "-m", "nonolab", "census", "--size", "x".join(map(str, SIZE)),
                             "--no-symmetry", "--chunk-pictures", str(CHUNK), "--out", str(out), "--progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=nonolab_env())
    seen = b""
    try:
        while max(map(int, re.findall(rb"chunks (\d+)/", seen)), default=0) < 20:
            # (at least 20 chunks done, far from the first timed save, 5 s)
            block = os.read(proc.stderr.fileno(), 4096)
            assert block, "census ended before its progress reached 20 chunks"
            seen += block
        proc.send_signal(signal.SIGINT)
        stdout, err = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    said = (seen + err).decode()
    last_shown = int(said.rsplit("\rchunks ", 1)[1].split("/")[0])
    assert proc.returncode == 130 and stdout == b"" and said.endswith("\nnonolab: interrupted\n"), said
    saved = json.loads(out.read_text())
    assert saved["chunks_done"] == len(saved["done"]) >= last_shown >= 20
    assert sorted(os.listdir(tmp_path)) == ["census.json"]   # no temporary file left
    resumed = nonolab.census(*SIZE, out=str(out), symmetry=False)
    assert resumed.complete and _counts(resumed) == _reference()


def test_a_chunk_asks_its_stop_and_ends_when_told():
    # A census chunk on a Dask worker is stopped by its census's cancel (exhaustive/cluster.py):
    # it asks between its steps and between two calls into the engine.
    from nonolab.errors import LimitReached
    from nonolab.exhaustive.cluster import chunk_task, running_censuses, stop_census
    from nonolab.exhaustive.count import census_chunk

    asked: list[int] = []

    def never() -> bool:
        asked.append(1)
        return False

    whole = census_chunk(4, 4, (), True, False, stop=never)
    assert whole["pictures"] == 65536 and len(asked) >= 6   # (every step asks, and the engine's loop)
    for after in (0, 3, len(asked) - 1):
        calls: list[int] = []

        def told(after=after, calls=calls) -> bool:
            calls.append(1)
            return len(calls) > after

        with pytest.raises(LimitReached, match="stopped"):
            census_chunk(4, 4, (), True, False, stop=told)
        assert len(calls) == after + 1     # it ended at the first "stop", not at the chunk's end
    assert stop_census("test-census") == 0 and running_censuses() == []
    with pytest.raises(LimitReached, match="stopped"):
        chunk_task("test-census", 4, 4, (), True, False)   # a chunk that starts after the stop
    assert chunk_task("another", 2, 2, (), True, False)["unique"] == 14
