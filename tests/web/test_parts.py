"""The workbench's parts without HTTP: jobs, the repairs adapter, and ``nonolab serve``
as a process (the address it prints, Ctrl-C, a port it cannot have)."""

from __future__ import annotations

import doctest
import importlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from nonolab.core import Puzzle, Solution
from nonolab.errors import InvalidArgument, ParseError
from nonolab.web.jobs import CANCELLED, DONE, FAILED, Jobs
from nonolab.web import repairs


@pytest.mark.parametrize("name", ["nonolab.web.jobs", "nonolab.web.repairs", "nonolab.web.work",
                                  "nonolab.web.api", "nonolab.web.server"])
def test_doctests(name):
    assert doctest.testmod(importlib.import_module(name)).failed == 0


@pytest.fixture
def jobs():
    pool = Jobs(workers=1)
    yield pool
    pool.close()


def test_a_library_error_fails_the_job_with_its_one_line(jobs):
    def bad(job):
        raise ParseError("no puzzle here", path="cat.non", line=3)
    job = jobs.start("load", bad)
    assert job.wait(5) and job.state == FAILED and job.error == "cat.non:3: no puzzle here"


def test_a_bug_fails_the_job_and_the_pool_goes_on(jobs):
    job = jobs.start("bug", lambda job: 1 / 0)
    assert job.wait(5) and job.state == FAILED and job.error.startswith("internal error: ZeroDivisionError")
    assert jobs.start("next", lambda job: "fine").wait(5)


def test_a_queued_job_cancelled_never_runs(jobs):
    release = threading.Event()
    ran = []
    first = jobs.start("block", lambda job: release.wait(5))
    second = jobs.start("queued", lambda job: ran.append(1))
    assert second.as_dict()["state"] == "queued"
    second.cancel.set()
    release.set()
    assert first.wait(5) and second.wait(5)
    assert (first.state, second.state, ran) == (DONE, CANCELLED, [])


def test_a_forgotten_queued_job_lets_go_of_its_input_at_once():
    # Audit 18: a queued job's work holds its input (an image upload, up to 64 MiB); a job
    # forgotten (cancelled) beyond the limits waited in the workers' queue, input and all,
    # until a worker was free: while two long jobs ran, every upload stayed, without bound.
    import gc
    import weakref

    class Upload:   # an upload's bytes (bytes themselves take no weak reference)
        data = b"image"

    pool = Jobs(workers=1, keep=2)
    release = threading.Event()
    try:
        busy = pool.start("busy", lambda job: release.wait(30))
        uploads = []
        for _ in range(5):
            data = Upload()
            uploads.append(weakref.ref(data))
            pool.start("generate", lambda job, data=data: len(data.data))
            del data
        gc.collect()
        # Kept: the two newest jobs' inputs; the three forgotten ones are gone while still queued.
        assert [ref() is not None for ref in uploads] == [False, False, False, True, True]
        assert pool.get(busy.id) is None and busy.cancel.is_set()
    finally:
        release.set()
        pool.close()


def test_an_image_job_weighs_its_upload(server, monkeypatch):
    # 200 queued image jobs of 64 MiB each held 12.8 GB, weighed as 20x20 cells each.
    from nonolab.web import work
    from nonolab.web.server import Running
    from .conftest import Client
    monkeypatch.setattr(work, "STORE_CELLS", 2_000)
    image = b"not an image " * 3_000   # 39 kB (2,600 cells at 15 bytes): no image (the job fails), weighed first
    with Running(port=0, workers=1) as running:
        client = Client(running.url)
        first = client.ok("POST", "/api/generate?name=a.png&width=5&height=5", image)["job"]
        client.ok("POST", "/api/generate?name=b.png&width=5&height=5", image)
        status, _, _ = client.get(f"/api/jobs/{first['id']}")
        assert status == 404   # forgotten: two uploads are beyond the cells the server holds


def test_progress_is_reported_and_a_cancel_stops_at_the_next_step(jobs):
    seen = threading.Event()

    def work(job):
        job.step(0.5, "half way")
        seen.set()
        while True:
            job.step(0.6, "still going")   # raises once cancelled
            time.sleep(0.01)
    job = jobs.start("loop", work)
    assert seen.wait(5)
    assert job.as_dict()["progress"] >= 0.5 and job.as_dict()["stage"] in ("half way", "still going")
    job.cancel.set()
    assert job.wait(5) and job.state == CANCELLED and job.result is None


def test_the_oldest_jobs_are_forgotten():
    pool = Jobs(workers=1, keep=2)
    try:
        made = [pool.start("n", lambda job, n=n: n) for n in range(3)]
        assert all(j.wait(5) for j in made)
        assert pool.get(made[0].id) is None and pool.get(made[2].id).result == 2
    finally:
        pool.close()


def test_the_repairs_of_a_switch_are_the_report_s_fewest_flips_and_givens():
    from nonolab.harness.report import report
    from nonolab.harness.uniqueness import check
    from nonolab.solvers import get

    switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    found = report(switch, "native")
    offered = repairs.suggest(found)
    kinds = [r["kind"] for r in offered]
    assert kinds[-1] == "givens" and kinds[:-1] and set(kinds[:-1]) == {"flip"}
    for flip in offered[:-1]:   # one cell flipped is the fewest for a switch, and each is proven
        assert flip["picture"] == found.solution.to_text().splitlines() and len(flip["cells"]) == 1
        assert tuple(flip["cells"][0][:2]) in found.ambiguity.free
        fixed = repairs.apply(switch, flip)
        assert check(fixed, get("cnf")).verdict.value == "unique" and fixed.givens == ()
    given = repairs.apply(switch, offered[-1])
    assert given == switch.with_(givens=found.givens) and given.givens == found.givens
    assert check(given, get("cnf")).verdict.value == "unique"      # the givens are part of the puzzle
    unique = Puzzle.from_solution(Solution.from_rows(["#."]))
    assert repairs.suggest(report(unique, "native")) == []


def test_a_given_the_goal_contradicts_is_refused():
    goal = Puzzle.from_solution(Solution.from_rows(["#.", ".#"]))
    with pytest.raises(InvalidArgument, match="goal"):
        repairs.apply(goal, {"kind": "givens", "cells": [[0, 0, 0]]})


def test_a_flip_needs_a_picture_that_solves_the_puzzle():
    switch = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)))
    with pytest.raises(InvalidArgument, match="not a solution"):
        repairs.apply(switch, {"kind": "flip", "cells": [[0, 0, 0]], "picture": ["##", "##"]})
    colour = Puzzle.from_solution(Solution.from_values([[1, 0], [0, 2]]))
    with pytest.raises(InvalidArgument, match="value 3 is not one of 0..2"):
        repairs.apply(colour, {"kind": "flip", "cells": [[0, 0, 3]], "picture": ["1.", ".2"]})
    fixed = repairs.apply(colour, {"kind": "flip", "cells": [[0, 0, 2]], "picture": ["1.", ".2"]})
    assert fixed.is_colour and fixed.goal == Solution.from_values([[2, 0], [0, 2]])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen([sys.executable, "-m", "nonolab", "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_serve_prints_its_address_answers_there_and_stops_on_ctrl_c():
    process = _serve("--port", "0", "--no-open")
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        with urllib.request.urlopen(url + "api/info", timeout=10) as answer:
            assert b'"formats"' in answer.read()
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 130
        assert process.stderr.read().strip().splitlines()[-1] == "nonolab: interrupted"
    finally:
        if process.poll() is None:
            process.kill()


def test_serve_refuses_a_port_it_cannot_have_with_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        process = _serve("--port", str(port))
        try:
            code = process.wait(30)
        finally:
            if process.poll() is None:
                process.kill()
        lines = process.stderr.read().strip().splitlines()
    assert code == 2 and lines == [f"nonolab: error: cannot listen on 127.0.0.1:{port}: Address already in use"]
