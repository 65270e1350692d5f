"""The server's own work per request is bounded: what it keeps (the store's cells), how many
threads requests take at once, and that a large request never stops it answering the others."""

from __future__ import annotations

from nonolab.web import work

from .conftest import Client


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
