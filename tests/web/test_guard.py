"""The attacks of issue 24 on the workbench, against the live server on 127.0.0.1: other
sites, oversized bodies and jobs, guessed ids, malformed JSON, the security headers and
what ``--host`` beyond this machine says."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys

import pytest

from .conftest import PUZZLES, Client


def _png(size=(4, 4)) -> bytes:
    from PIL import Image
    image = Image.new("L", size, 255)
    image.putpixel((1, 1), 0)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _raw(server, head: str, body: bytes = b"") -> tuple[int, dict, bytes]:
    """One request written on a socket as given (a browser's or an attacker's), and the
    answer read until the server closes or the body is complete."""
    host, port = re.match(r"http://([^:/]+):(\d+)", server.url).groups()
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        sock.sendall(head.encode("latin-1") + body)
        data = b""
        while b"\r\n\r\n" not in data:
            more = sock.recv(65536)
            if not more:
                break
            data += more
        top, _, rest = data.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", 0))
        while len(rest) < length:
            more = sock.recv(65536)
            if not more:
                break
            rest += more
    return int(lines[0].split()[1]), headers, rest


# ---- other sites ------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_simple_post_from_another_site_is_refused_before_it_is_read(client, content_type):
    for path in ("/api/load", "/api/draw", "/api/generate?width=10&height=10"):
        status, answer, _ = client.call("POST", path, b"2x2:2/1/2/1",
                                        {"Origin": "http://evil.example", "Content-Type": content_type})
        assert status == 403 and answer["type"] == "Forbidden" and "another site" in answer["error"]


def test_a_page_elsewhere_cannot_post_without_an_origin_either(client):
    # A browser that sends no Origin still says where the request comes from.
    status, answer, _ = client.call("POST", "/api/load", b"2x2:2/1/2/1", {"Sec-Fetch-Site": "cross-site"})
    assert status == 403 and "another site" in answer["error"]


def test_every_change_needs_the_token_the_page_was_served_with(server):
    without, forged = Client(server.url, token=None), Client(server.url, token="forged-" + "0" * 36)
    for client in (without, forged):
        for path in ("/api/load", "/api/draw", "/api/generate"):
            status, answer, _ = client.call("POST", path, b"2x2:2/1/2/1")
            assert status == 403 and "session token" in answer["error"]
    # The page's own origin and token: accepted.
    page = Client(server.url)
    status, _, _ = page.call("POST", "/api/load", "2x2:2/1/2/1", {"Origin": server.url.rstrip("/")})
    assert status == 200


def test_each_page_gets_its_own_token(server):
    first, second = Client(server.url), Client(server.url)
    assert first.token != second.token and len(first.token) >= 40


def test_a_site_that_loads_the_page_over_and_over_cannot_push_the_user_s_token_out(server):
    # Any page the user opens may fetch http://127.0.0.1:8765/ (no-cors: it reads nothing) as
    # often as it likes; each load is served a token, and the user's open page must keep working.
    import urllib.request
    user = Client(server.url)
    for _ in range(1100):
        request = urllib.request.Request(server.url, headers={"Sec-Fetch-Site": "cross-site",
                                                              "Sec-Fetch-Mode": "no-cors"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
    status, answer, _ = user.call("POST", "/api/load", "2x2:2/1/2/1")
    assert status == 200, answer
    tampered = Client(server.url, token=user.token[:-2] + ("AA" if not user.token.endswith("AA") else "BB"))
    assert tampered.call("POST", "/api/load", "2x2:2/1/2/1")[0] == 403


# ---- jobs -------------------------------------------------------------------------------


def test_a_job_is_seen_and_cancelled_only_by_the_session_that_started_it(server):
    owner, other = Client(server.url), Client(server.url)
    puzzle = owner.load(PUZZLES / "nonolab" / "heart.non")
    job = owner.ok("POST", f"/api/puzzles/{puzzle['id']}/analyse")["job"]
    assert re.fullmatch(r"[0-9a-f]{32}", job["id"])   # 128 random bits
    assert re.fullmatch(r"[0-9a-f]{32}", puzzle["id"])
    for method, path in (("GET", f"/api/jobs/{job['id']}"), ("POST", f"/api/jobs/{job['id']}/cancel")):
        status, answer, _ = other.call(method, path, b"" if method == "POST" else None)
        assert status == 404 and answer["type"] == "NotFound"
    assert owner.finish(job)["state"] == "done"


# ---- sizes ------------------------------------------------------------------------------


def test_a_declared_body_beyond_the_input_limit_is_refused_before_a_byte_is_read(server):
    token = Client(server.url).token
    head = (f"POST /api/load?name=big.non HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nonolab-Token: {token}\r\n"
            f"Content-Type: application/octet-stream\r\nContent-Length: {2 ** 30}\r\n\r\n")
    status, _, body = _raw(server, head)   # not one byte of the gigabyte sent: the answer comes anyway
    answer = json.loads(body)
    assert status == 400 and answer["type"] == "TooLarge"
    assert answer["error"].startswith("the request body is 1024.0 MiB, beyond the input limit of 64.0 MiB")


def test_a_streamed_body_is_counted_as_it_arrives(server, monkeypatch):
    monkeypatch.setenv("NONOLAB_MAX_INPUT_BYTES", "1000")
    token = Client(server.url).token
    chunk = b"#" * 400
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(5)) + b"0\r\n\r\n"
    head = (f"POST /api/load?name=big.non HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nonolab-Token: {token}\r\n"
            f"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    status, _, body = _raw(server, head, chunks)
    answer = json.loads(body)
    assert status == 400 and answer["type"] == "TooLarge"
    assert "the request body is more than 1,000 bytes" in answer["error"]


def test_generate_is_held_to_the_form_and_refused_at_once(client):
    data = _png()
    for width, height in ((100_000, 100_000), (101, 20), (20, 1), (6000, 6000)):
        status, answer, _ = client.post(f"/api/generate?name=t.png&width={width}&height={height}", data)
        assert status == 400 and answer["type"] == "InvalidArgument", answer
        assert f"not {width}x{height}" in answer["error"] and "2x2 to 100x100" in answer["error"]


def test_an_image_beyond_the_pixel_limit_fails_its_job_from_the_header(client, monkeypatch):
    # Audit 8: the page told its user to "raise it with NONOLAB_MAX_PIXELS=N, or
    # InputLimits(max_pixels=N)", advice only whoever started the server can follow.
    monkeypatch.setenv("NONOLAB_MAX_PIXELS", "100")
    job = client.ok("POST", "/api/generate?name=big.png&width=10&height=10", _png((20, 20)))["job"]
    state = client.finish(job)
    assert state["state"] == "failed"
    assert state["error"] == ("big.png: the image is 20x20 = 400 pixels, beyond the limit of 100 pixels "
                              "(the server's operator can raise it)")


def test_a_limit_the_page_meets_says_who_can_raise_it_and_the_cli_keeps_the_variable(client, monkeypatch, tmp_path):
    from click.testing import CliRunner
    from nonolab.cli.main import cli
    monkeypatch.setenv("NONOLAB_MAX_CELLS", "3")
    status, answer, _ = client.post("/api/load?name=t.non", "width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n")
    assert status == 400 and answer["type"] == "TooLarge", answer
    assert answer["error"].endswith("beyond the limit of 3 cells (the server's operator can raise it)")
    assert "NONOLAB_" not in answer["error"] and "InputLimits" not in answer["error"]
    path = tmp_path / "t.non"
    path.write_text("width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n")
    told = CliRunner().invoke(cli, ["check", str(path)])
    assert told.exit_code == 2 and "(raise it with NONOLAB_MAX_CELLS=N, or InputLimits(max_cells=N))" in told.stderr


def _noise_png(size: tuple[int, int]) -> bytes:
    """Grey noise: no candidate from it is unique within a second, so its generate job runs for
    seconds (a near-blank image is done in 0.1 s, before a cancel can arrive on a fast machine)."""
    import random

    from PIL import Image
    pixels = random.Random(1)
    image = Image.new("L", size)
    image.putdata([pixels.randrange(256) for _ in range(size[0] * size[1])])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_cancel_stops_a_generate_job_in_whatever_phase(client):
    job = client.ok("POST", "/api/generate?name=t.png&width=60&height=60&density=0.5", _noise_png((300, 300)))["job"]
    client.ok("POST", f"/api/jobs/{job['id']}/cancel")
    state = client.finish(job)
    assert state["state"] == "cancelled", state


# ---- malformed JSON ---------------------------------------------------------------------


def test_deep_json_is_a_json_400_with_the_cli_line(client):
    status, answer, _ = client.call("POST", "/api/draw", b"[" * 100_000 + b"]" * 100_000,
                                    {"Content-Type": "application/json"})
    assert status == 400 and answer["type"] == "TooLarge"
    assert answer["error"].startswith("the document is nested more than 100 levels deep")


@pytest.mark.parametrize("cell", ["1e400", "2.5", "true", "9" * 5000, '"1"'])
def test_a_repair_naming_a_cell_that_is_no_whole_number_is_a_400(client, cell):
    puzzle = client.ok("POST", "/api/draw", {"rows": ["#.", ".#"]})["puzzle"]
    status, answer, _ = client.call("POST", f"/api/puzzles/{puzzle['id']}/repair",
                                    f'{{"kind": "givens", "cells": [[{cell}, 0, 1]]}}',
                                    {"Content-Type": "application/json"})
    assert status == 400, answer
    assert "\n" not in answer["error"] and "set_int_max_str_digits" not in answer["error"]


# ---- headers ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/api/info", "/static/app.js", "/api/jobs/nope"])
def test_every_answer_carries_the_security_headers(client, path):
    _, _, headers = client.get(path)
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"


def test_the_page_is_not_cached_with_its_token(client):
    _, page, headers = client.get("/")
    assert headers["Cache-Control"] == "no-store" and b'name="nonolab-token" content="' in page


# ---- --host -----------------------------------------------------------------------------


def test_a_host_beyond_loopback_is_warned_about_and_keeps_the_host_check(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-m", "nonolab", "serve", "--host", "0.0.0.0", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        warning = process.stderr.readline()
        url = process.stdout.readline().strip()
        assert warning.startswith("nonolab: warning: listening on 0.0.0.0 (every interface of this machine): "
                                  "any machine that can reach it can open the workbench")
        assert "run jobs on this machine's CPU (2 at once, 60 s each)" in warning
        port = int(url.rsplit(":", 1)[1].strip("/"))
        server = type("S", (), {"url": f"http://127.0.0.1:{port}/"})()
        status, _, _ = _raw(server, "GET / HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n\r\n")
        assert status == 400   # a name that is not this machine's: refused (DNS rebinding)
        status, _, _ = _raw(server, f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
        assert status == 200
    finally:
        process.terminate()
        process.wait(30)


def test_loopback_prints_no_warning(server):
    assert server.warning is None


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_host_not_this_machine_s_is_refused_in_one_line_of_json_with_the_headers(server, method):
    # DNS rebinding: a page on rebound.example whose name now resolves to 127.0.0.1.
    status, headers, body = _raw(server, f"{method} /api/info HTTP/1.1\r\nHost: rebound.example:80\r\n"
                                         "Content-Length: 0\r\nConnection: close\r\n\r\n")
    answer = json.loads(body)
    assert status == 400 and headers["content-type"] == "application/json"
    assert answer["error"].startswith("this server answers to Host ")
    assert "'rebound.example:80'" in answer["error"] and "\n" not in answer["error"]
    assert headers["x-frame-options"] == "DENY" and "content-security-policy" in headers
    port = server.url.rsplit(":", 1)[1].strip("/")
    for host in (f"LOCALHOST:{port}", f"[::1]:{port}", "127.0.0.1"):
        status, _, _ = _raw(server, f"GET /api/info HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
        assert status == 200, host


def test_a_json_request_is_held_to_what_a_drawing_or_a_repair_can_need(server):
    # A 50 MB JSON body (within the input limit) was parsed on the event loop: every other
    # request, polls and Cancel included, waited seconds for it.
    client = Client(server.url)
    puzzle = client.load(PUZZLES / "nonolab" / "switch.non")
    host = server.url.split("//", 1)[1].rstrip("/")
    for path in ("/api/draw", f"/api/puzzles/{puzzle['id']}/repair"):   # declared: refused before it is read
        status, _, raw = _raw(server, f"POST {path} HTTP/1.1\r\nHost: {host}\r\nX-Nonolab-Token: {client.token}\r\n"
                                      "Content-Type: application/json\r\nContent-Length: 50000000\r\n"
                                      "Connection: close\r\n\r\n")
        assert status == 400 and json.loads(raw)["error"] == ("the request body is 50,000,000 bytes, beyond the "
                                                              "1,048,576 bytes a JSON request (a drawing, a repair) "
                                                              "may send"), raw
    # Streamed without a length: refused once past the limit, not read to its end.
    head = ("POST /api/draw HTTP/1.1\r\nHost: {host}\r\nX-Nonolab-Token: {token}\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    chunk = b"x" * 65536
    chunks = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 20 + b"0\r\n\r\n"
    status, _, raw = _raw(server, head.format(host=host, token=client.token), chunks)
    assert status == 400 and json.loads(raw)["error"] == ("the request body is more than 1,048,576 bytes, the most "
                                                          "a JSON request (a drawing, a repair) may send")
    # A 100x100 drawing with every cell locked is well within it.
    rows = ["#." * 50] * 100
    locked = [[r, c] for r in range(100) for c in range(100)]
    status, answer, _ = client.call("POST", "/api/draw", {"rows": rows, "locked": locked})
    assert status == 200 and len(answer["puzzle"]["locked"]) == 10000
