"""The workbench served on a free port of this machine, and a small JSON client for it."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="nonolab serve needs the serve extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="nonolab serve needs the serve extra (starlette, uvicorn)")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


class Client:
    """HTTP calls to the workbench: ``(status, decoded JSON or bytes, headers)``, as the page
    makes them: with the session token the page was served with (``token=None``: none)."""

    def __init__(self, url: str, token: str | None = ""):
        self.url = url.rstrip("/")
        self.token = self.page_token() if token == "" else token

    def page_token(self) -> str:
        """A new session: the token in the page's ``<meta name="nonolab-token">``."""
        with urllib.request.urlopen(self.url + "/", timeout=60) as response:
            page = response.read().decode()
        return re.search(r'<meta name="nonolab-token" content="([^"]+)">', page).group(1)

    def call(self, method: str, path: str, body: bytes | str | dict | None = None,
             headers: dict[str, str] | None = None):
        data = json.dumps(body).encode() if isinstance(body, dict) else (
            body.encode() if isinstance(body, str) else body)
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if isinstance(body, dict):
            request.add_header("Content-Type", "application/json")
        if self.token is not None:
            request.add_header("X-Nonolab-Token", self.token)
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, raw, headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as err:
            status, raw, headers = err.code, err.read(), err.headers
        if headers.get("Content-Type", "").startswith("application/json"):
            return status, json.loads(raw), headers
        return status, raw, headers

    def get(self, path: str):
        return self.call("GET", path)

    def post(self, path: str, body=None):
        return self.call("POST", path, body if body is not None else b"")

    def ok(self, method: str, path: str, body=None) -> dict:
        status, answer, _ = self.call(method, path, body if body is not None or method == "GET" else b"")
        assert status in (200, 202), answer
        return answer

    def load(self, path: Path) -> dict:
        return self.ok("POST", f"/api/load?name={path.name}", path.read_bytes())["puzzle"]

    def finish(self, job: dict, timeout: float = 120) -> dict:
        """Poll a job until it ends; its last state."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.ok("GET", f"/api/jobs/{job['id']}")
            if state["state"] not in ("queued", "running") or time.monotonic() > deadline:
                return state
            time.sleep(0.05)

    def run(self, path: str, body=None) -> dict:
        """Start a job and wait for it; its result (the job must succeed)."""
        state = self.finish(self.ok("POST", path, body)["job"])
        assert state["state"] == "done", state
        return state["result"]


def _warm_up() -> None:
    """Run each kind of work once before any test waits on it: on a fresh install this
    compiles the native engine (minutes on a busy machine, once), which no test's
    polling should have to sit through."""
    from nonolab.formats import load
    from nonolab.web import work
    from nonolab.web.jobs import Job

    entry = work.Entry(load(PUZZLES / "nonolab" / "switch.non"))
    for run in (work.analyse, work.explain):
        job = Job("warm-up")
        job._run(lambda job: run(entry, job, None))
        assert job.state == "done", job.error


@pytest.fixture(scope="session")
def server():
    from nonolab.web.server import Running
    _warm_up()
    # No time limit: a job on a busy machine may be slow; the tests bound their own waits.
    with Running(port=0, time_limit=None) as running:
        yield running


@pytest.fixture(scope="session")
def client(server) -> Client:
    return Client(server.url)
