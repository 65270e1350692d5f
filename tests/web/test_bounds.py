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


def test_requests_do_their_own_work_at_most_workers_at_once(monkeypatch):
    # Reading files is a request's own work, not a job: bounded as jobs are (workers at once),
    # never one thread per request.
    from nonolab.web.server import Running
    lock, release = threading.Lock(), threading.Event()
    state = {"active": 0, "peak": 0, "entered": 0}
    loaded = work.loaded

    def counted(*args):
        with lock:
            state["active"] += 1
            state["entered"] += 1
            state["peak"] = max(state["peak"], state["active"])
        release.wait(30)
        with lock:
            state["active"] -= 1
        return loaded(*args)

    monkeypatch.setattr(work, "loaded", counted)
    with Running(port=0, workers=2) as running:
        client = Client(running.url)
        answers: list[int] = []
        threads = [threading.Thread(target=lambda: answers.append(
            client.call("POST", "/api/load?format=picture", _square(3))[0])) for _ in range(6)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while state["entered"] < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)   # the others would have entered by now, were they not held back
        release.set()
        for thread in threads:
            thread.join(60)
    assert answers == [200] * 6
    assert state["entered"] == 6 and state["peak"] == 2


def test_jobs_are_kept_within_the_cells_too_and_a_finished_one_holds_its_answer_once(server, monkeypatch):
    # A job's answer holds its puzzle's solution (a byte a cell) and pictures: 200 answers about
    # the largest puzzles would hold gigabytes, twice over with the partial report kept beside.
    from nonolab.web.server import Running
    monkeypatch.setattr(work, "STORE_CELLS", 150)
    with Running(port=0) as running:
        client = Client(running.url)
        puzzle = client.ok("POST", "/api/load?format=picture", _square(10))["puzzle"]
        first = client.finish(client.ok("POST", f"/api/puzzles/{puzzle['id']}/analyse")["job"])
        assert first["state"] == "done" and first["result"]["verdict"] == "unique" and first["partial"] is None
        client.finish(client.ok("POST", f"/api/puzzles/{puzzle['id']}/explain")["job"])
        status, answer, _ = client.get(f"/api/jobs/{first['id']}")
        assert status == 404


def test_certificates_are_kept_within_their_bytes_the_newest_always():
    # A proof grows with its search: twenty zips of a 60 s proof of a large puzzle held gigabytes.
    from nonolab.web.certificates import Certificates
    certificates = Certificates(max_bytes=1000)
    certificates.keep("old", "old.zip", b"x" * 600)
    certificates.keep("new", "new.zip", b"y" * 600)
    assert certificates.zip_of("old") is None and certificates.zip_of("new") == ("new.zip", b"y" * 600)
    certificates.keep("huge", "huge.zip", b"z" * 5000)   # beyond the bytes alone: still kept, the last
    assert certificates.zip_of("new") is None and certificates.zip_of("huge")[0] == "huge.zip"


def test_a_png_download_is_held_to_the_image_pixel_limit(client, monkeypatch):
    # The largest drawable puzzle's PNG at 20 px a cell was 13604x12760 (173 M pixels, 1 GB and
    # 24 s to draw); the workbench draws it smaller, within the pixels of an image it reads.
    import random
    import struct
    monkeypatch.setattr(work, "PNG_PIXELS", 1_000_000, raising=False)
    rng = random.Random(1)
    text = "\n".join("".join(rng.choice("#.") for _ in range(60)) for _ in range(60)) + "\n"
    puzzle = client.ok("POST", "/api/load?format=picture", text)["puzzle"]   # 60x60: ~1500x1500 px at 20 px
    status, png, headers = client.get(f"/api/puzzles/{puzzle['id']}/download?picture=png")
    assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])   # the IHDR chunk: read, not decoded
    assert width * height <= 1_000_000 and width > 500, (width, height)


def test_a_png_download_fits_the_limit_where_the_cells_alone_would_not(client, monkeypatch):
    # Audit 18: the cell size is estimated from the picture at 20 px, and the legend's text does not
    # shrink with the cells: a 26x26 puzzle at the estimated 18.7 px was 500,712 pixels for a
    # limit of 500,000 (a 399x399 one 25,004,126 at the default limit), and every PNG now keeps
    # the limit: the download is drawn a little smaller until it holds, not refused.
    import random
    import struct
    monkeypatch.setattr(work, "PNG_PIXELS", 500_000, raising=False)
    rng = random.Random(26)
    text = "\n".join("".join(rng.choice("#.") for _ in range(26)) for _ in range(26)) + "\n"
    puzzle = client.ok("POST", "/api/load?format=picture", text)["puzzle"]
    status, png, _ = client.get(f"/api/puzzles/{puzzle['id']}/download?picture=png")
    assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n", png
    width, height = struct.unpack(">II", png[16:24])
    assert 490_000 < width * height <= 500_000, (width, height)
