"""The server's own work per request is bounded: what it keeps (the store's cells), how many
threads requests take at once, and that a large request never stops it answering the others."""

from __future__ import annotations

import threading
import time

from nonolab.web import work

from .conftest import PUZZLES, Client


def _square(n: int) -> str:
    return "\n".join("#" * n for _ in range(n)) + "\n"


def test_the_store_keeps_at_most_its_cells_forgetting_the_oldest_puzzle(server, monkeypatch):
    # 200 of the largest puzzles the server reads would hold about 75 GB: the cells bound it.
    from nonolab.web.server import Running
    monkeypatch.setattr(work, "STORE_CELLS", 150)
    with Running(port=0) as running:
        client = Client(running.url)
        first = client.ok("POST", "/api/load?format=picture", _square(10))["puzzle"]
        second = client.ok("POST", "/api/load?format=picture", _square(10))["puzzle"]
        status, answer, _ = client.get(f"/api/puzzles/{first['id']}")
        assert status == 404 and "keeps the most recent" in answer["error"]
        assert client.ok("GET", f"/api/puzzles/{second['id']}")["puzzle"]["width"] == 10


def test_a_puzzle_being_summarised_does_not_stop_the_server_answering(server, monkeypatch):
    # Summarising the largest puzzle takes seconds: on the event loop it would hold every other
    # request (a job's poll, its Cancel) until done.
    client = Client(server.url)
    entered, release = threading.Event(), threading.Event()
    summary = work.summary

    def held(entry):
        entered.set()
        release.wait(30)   # released once the server has answered another request meanwhile
        return summary(entry)

    monkeypatch.setattr(work, "summary", held)
    loading = threading.Thread(target=client.load, args=(PUZZLES / "nonolab" / "heart.non",))
    loading.start()
    try:
        assert entered.wait(30)
        import urllib.request
        with urllib.request.urlopen(server.url + "api/info", timeout=10) as answer:   # a hang guard
            assert answer.status == 200
    finally:
        release.set()
        loading.join(60)
